use std::sync::Arc;

use gifshelf_domain::gif::{Gif, GifId, Rendition, RenditionKind, Renditions};
use gifshelf_domain::job::Task;
use gifshelf_domain::media::{EncodedImage, MediaRejection, ProcessedMedia};
use gifshelf_domain::ports::{
    BlobStore, Clock, GifRepository, JobQueue, MediaProcessor, RenditionRepository, StoredFiles,
};
use gifshelf_domain::RepoError;

use crate::AppError;

/// `medium` is kept only when it is at most this share of the original's bytes (10 % smaller).
pub const MEDIUM_MAX_RATIO: f64 = 0.9;

/// GIFs read per page by the backfill.
const BACKFILL_PAGE: i64 = 500;

/// Makes the renditions a GIF is missing: decodes the stored original once, stores each new
/// file under the GIF's blob prefix, then records them all with the `preferred` flags in one
/// transaction.
pub struct RenditionMaker {
    gifs: Arc<dyn GifRepository>,
    renditions: Arc<dyn RenditionRepository>,
    jobs: Arc<dyn JobQueue>,
    blobs: Arc<dyn BlobStore>,
    media: Arc<dyn MediaProcessor>,
    clock: Arc<dyn Clock>,
}

/// What one run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Made {
    /// The GIF is gone (deleted after its job was queued): nothing to do.
    GifGone,
    /// These kinds were stored (possibly none: nothing was missing).
    Kinds(Vec<RenditionKind>),
}

/// Where a backfill stands: GIFs looked at of `total`, jobs added, GIFs that had one already.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BackfillProgress {
    pub scanned: i64,
    pub total: i64,
    pub enqueued: i64,
    pub already_queued: i64,
}

impl RenditionMaker {
    pub fn new(
        gifs: Arc<dyn GifRepository>,
        renditions: Arc<dyn RenditionRepository>,
        jobs: Arc<dyn JobQueue>,
        blobs: Arc<dyn BlobStore>,
        media: Arc<dyn MediaProcessor>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { gifs, renditions, jobs, blobs, media, clock }
    }

    /// The kinds this server would add to a GIF with these frames and files.
    fn missing(&self, frames: i32, has: impl Fn(RenditionKind) -> bool, made: bool) -> Vec<RenditionKind> {
        RenditionKind::ALL
            .into_iter()
            .filter(|&kind| {
                let wanted = if made { kind.made_for(frames) } else { kind.expected_for(frames) };
                wanted && !has(kind) && self.media.can_make(kind)
            })
            .collect()
    }

    /// Makes and stores every kind the GIF is missing.
    ///
    /// # Errors
    /// `Internal` when the original cannot be read or a file cannot be stored (the files of
    /// this run are removed again), `BadMedia`/`Unavailable` from the pipeline; the job is then
    /// retried.
    #[tracing::instrument(skip(self), fields(gif_id = id.0))]
    pub async fn make(&self, id: GifId) -> Result<Made, AppError> {
        let gif = match self.gifs.find(id).await {
            Ok(gif) => gif,
            Err(RepoError::NotFound) => return Ok(Made::GifGone),
            Err(err) => return Err(AppError::from_repo(err)),
        };
        let wanted = self.missing(gif.frame_count, |kind| gif.rendition(kind).is_some(), true);
        if wanted.is_empty() && gif.transparent.is_some() {
            return Ok(Made::Kinds(Vec::new()));
        }
        let original = gif
            .rendition(RenditionKind::Original)
            .ok_or_else(|| AppError::internal(format!("GIF {} has no original", id.0)))?;
        let bytes = self
            .blobs
            .get(&original.key)
            .await
            .map_err(|e| AppError::internal(format!("reading {}: {e}", original.key)))?;
        let bytes = Arc::new(bytes);
        let (processed, failed) = self.process(bytes.clone(), &wanted).await?;
        let transparent = self.transparent(&gif, &wanted, &processed, bytes).await?;
        let prefix = original.key.rsplit_once('/').map_or("gifs", |(dir, _)| dir).to_owned();
        let mut written = Vec::new();
        let mut made = Vec::new();
        for (kind, image) in processed.renditions {
            if kind == RenditionKind::Medium && !worth_keeping(&image, original) {
                continue;
            }
            let rendition = crate::gifs::rendition_of(kind, &image, &prefix);
            if let Err(err) = self.blobs.put(&rendition.key, image.bytes, &image.content_type).await {
                self.remove(&written).await;
                return Err(AppError::internal(format!("storing {}: {err}", rendition.key)));
            }
            written.push(rendition.key.clone());
            made.push(rendition);
        }
        let kinds: Vec<RenditionKind> = made.iter().map(|r| r.kind).collect();
        // A video may play in the browser only for an opaque animation (the videos of a transparent
        // GIF are flattened onto white), a WebP for any animation; a still image's are one-second
        // loops, never preferred.
        let all = Renditions::new(gif.renditions.iter().cloned().chain(made))
            .with_preferred(!transparent, gif.frame_count > 1);
        match self.renditions.save_renditions(id, all.into_vec(), transparent).await {
            Ok(saved) => {
                tracing::info!(kinds = ?kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>(), files = saved.renditions.len(), "renditions made");
                match failed {
                    // The job is retried for the kinds that failed only: the others are stored.
                    Some(err) => Err(err),
                    None => Ok(Made::Kinds(kinds)),
                }
            }
            Err(RepoError::NotFound) => {
                self.remove(&written).await;
                Ok(Made::GifGone)
            }
            Err(err) => {
                self.remove(&written).await;
                Err(AppError::from_repo(err))
            }
        }
    }

    /// Whether the GIF is transparent: as stored, else as the pass that made the `wanted` kinds
    /// saw it (a pass that made only stills, the static thumbnail or the poster, stopped at the
    /// first frame: then a pass over every frame that makes no file).
    ///
    /// # Errors
    /// Those of the pipeline.
    async fn transparent(
        &self,
        gif: &Gif,
        wanted: &[RenditionKind],
        processed: &ProcessedMedia,
        bytes: Arc<Vec<u8>>,
    ) -> Result<bool, AppError> {
        let first_frame_only = !wanted.is_empty() && wanted.iter().all(|&kind| kind.is_still());
        Ok(match gif.transparent {
            Some(known) => known,
            None if first_frame_only => !self.media.process(bytes, &[]).await?.opaque,
            None => !processed.opaque,
        })
    }

    /// Makes the `wanted` kinds in one pass over the original. When that fails for anything
    /// but a full house, each kind is made on its own, so that one kind that cannot be made (a
    /// video `ffmpeg` refuses) never costs the others: the answer then holds the kinds made and
    /// the error naming those that failed, for the job to store the first and retry the rest.
    ///
    /// # Errors
    /// `Unavailable` when the pipeline is busy; the error of the first kind when none was made.
    async fn process(
        &self,
        bytes: Arc<Vec<u8>>,
        wanted: &[RenditionKind],
    ) -> Result<(ProcessedMedia, Option<AppError>), AppError> {
        let err = match self.media.process(bytes.clone(), wanted).await {
            Ok(processed) => return Ok((processed, None)),
            Err(busy @ MediaRejection::Busy) => return Err(busy.into()),
            Err(err) if wanted.len() < 2 => return Err(err.into()),
            Err(err) => err,
        };
        tracing::warn!(error = %err, "making the renditions together failed; making each kind alone");
        let mut made: Option<ProcessedMedia> = None;
        let mut failed: Vec<(RenditionKind, MediaRejection)> = Vec::new();
        for &kind in wanted {
            match self.media.process(bytes.clone(), &[kind]).await {
                Ok(one) => match made.as_mut() {
                    Some(all) => {
                        all.opaque &= one.opaque;
                        all.renditions.extend(one.renditions);
                    }
                    None => made = Some(one),
                },
                Err(busy @ MediaRejection::Busy) => return Err(busy.into()),
                Err(err) => failed.push((kind, err)),
            }
        }
        let names = failed.iter().map(|(kind, err)| format!("{}: {err}", kind.as_str())).collect::<Vec<_>>().join("; ");
        match made {
            None => Err(failed.into_iter().next().map_or_else(|| err.into(), |(_, err)| err.into())),
            Some(made) if failed.is_empty() => Ok((made, None)),
            Some(made) => {
                tracing::warn!(failed = %names, "some renditions could not be made; the others are kept");
                Ok((made, Some(AppError::internal(format!("renditions not made: {names}")))))
            }
        }
    }

    /// Queues the job that makes a new GIF's other renditions.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn enqueue(&self, gif: &Gif) -> Result<(), AppError> {
        if self.missing(gif.frame_count, |kind| gif.rendition(kind).is_some(), true).is_empty() {
            return Ok(());
        }
        self.jobs.enqueue(Task::MakeRenditions(gif.id), self.clock.now()).await?;
        Ok(())
    }

    /// Enqueues a job for every GIF missing a kind this server makes (and without one queued
    /// already), telling `progress` after each page.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn backfill(
        &self,
        mut progress: impl FnMut(BackfillProgress) + Send,
    ) -> Result<BackfillProgress, AppError> {
        let pending: std::collections::HashSet<GifId> = (self.jobs.pending(Task::MAKE_RENDITIONS).await?.iter())
            .filter_map(|payload| match Task::decode(Task::MAKE_RENDITIONS, payload) {
                Ok(Task::MakeRenditions(id)) => Some(id),
                Ok(Task::MakeGif(_) | Task::ReadText(_)) | Err(_) => None,
            })
            .collect();
        let mut state = BackfillProgress { total: self.renditions.gif_count().await?, ..BackfillProgress::default() };
        let mut after = GifId(0);
        loop {
            let page = self.renditions.rendition_kinds_after(after, BACKFILL_PAGE).await?;
            let Some(last) = page.last() else { break };
            after = last.id;
            for StoredFiles { id, frames, kinds, transparent } in page {
                state.scanned += 1;
                if self.missing(frames, |kind| kinds.contains(&kind), false).is_empty() && transparent.is_some() {
                    continue;
                }
                if pending.contains(&id) {
                    state.already_queued += 1;
                } else {
                    self.jobs.enqueue(Task::MakeRenditions(id), self.clock.now()).await?;
                    state.enqueued += 1;
                }
            }
            progress(state);
        }
        Ok(state)
    }

    async fn remove(&self, keys: &[String]) {
        for key in keys {
            if let Err(err) = self.blobs.delete(key).await {
                tracing::warn!(%key, error = %err, "could not remove a blob; fsck will");
            }
        }
    }
}

fn worth_keeping(medium: &EncodedImage, original: &Rendition) -> bool {
    (medium.bytes.len() as f64) <= MEDIUM_MAX_RATIO * original.size as f64
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use gifshelf_domain::gif::{Fingerprint, Rating};
    use gifshelf_domain::ports::{
        MockBlobStore, MockClock, MockGifRepository, MockJobQueue, MockMediaProcessor, MockRenditionRepository,
    };

    use super::*;
    use crate::gifs::test_support::gif;

    fn image(kind: RenditionKind) -> EncodedImage {
        let (content_type, codec) =
            if kind.is_video() { ("video/mp4", Some("h264".to_owned())) } else { ("image/gif", None) };
        EncodedImage {
            bytes: vec![1; 8],
            content_type: content_type.into(),
            width: 10,
            height: 10,
            frames: 3,
            duration_ms: 300,
            codec,
        }
    }

    /// The job over these mocks (no queue or clock is asked).
    fn maker(
        gifs: MockGifRepository,
        renditions: MockRenditionRepository,
        blobs: MockBlobStore,
        media: MockMediaProcessor,
    ) -> RenditionMaker {
        RenditionMaker::new(
            Arc::new(gifs),
            Arc::new(renditions),
            Arc::new(MockJobQueue::new()),
            Arc::new(blobs),
            Arc::new(media),
            Arc::new(MockClock::new()),
        )
    }

    fn processed(kinds: &[RenditionKind]) -> ProcessedMedia {
        ProcessedMedia {
            content_type: "image/gif".into(),
            extension: "gif".into(),
            width: 10,
            height: 10,
            frames: 3,
            renditions: kinds.iter().map(|&k| (k, image(k))).collect(),
            fingerprint: Fingerprint { sha256: String::new(), phash: None },
            opaque: true,
        }
    }

    /// The videos fail (as when `ffmpeg` refused a GIF's timing): the GIF still gets every other
    /// kind, stored and recorded, and the job fails naming the kinds it retries.
    #[tokio::test]
    async fn a_kind_that_fails_never_costs_the_others() {
        let mut gifs = MockGifRepository::new();
        gifs.expect_find().returning(|id| Ok(gif(id.0, 1)));
        let mut media = MockMediaProcessor::new();
        media.expect_can_make().return_const(true);
        media.expect_process().returning(|_, kinds| match kinds {
            [kind] if !kind.is_video() => Ok(processed(kinds)),
            _ => Err(MediaRejection::internal("ffmpeg exited with 1: Cannot allocate memory")),
        });
        let mut blobs = MockBlobStore::new();
        blobs.expect_get().returning(|_| Ok(vec![0; 16]));
        let put: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = put.clone();
        blobs.expect_put().returning(move |key, _, _| {
            seen.lock().unwrap_or_else(|e| e.into_inner()).push(key.to_owned());
            Ok(())
        });
        blobs.expect_delete().never();
        let mut renditions = MockRenditionRepository::new();
        renditions.expect_save_renditions().times(1).returning(|id, saved, _| {
            let kinds: Vec<RenditionKind> = saved.iter().map(|r| r.kind).collect();
            assert!(kinds.contains(&RenditionKind::Tiny) && kinds.contains(&RenditionKind::FixedHeight));
            assert!(!kinds.iter().any(|k| k.is_video()), "{kinds:?}");
            Ok(Gif { renditions: Renditions::new(saved), rating: Rating::G, ..gif(id.0, 1) })
        });
        let maker = maker(gifs, renditions, blobs, media);
        let answer = maker.make(GifId(7)).await;
        let Err(AppError::Internal(cause)) = &answer else { panic!("{answer:?}") };
        let why = cause.to_string();
        assert!(why.contains("mp4: ") && why.contains("webm_small: ") && !why.contains("tiny: "), "{why}");
        let put = put.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert!(put.iter().any(|k| k.ends_with("/tiny.gif")) && !put.iter().any(|k| k.contains("mp4")), "{put:?}");
    }

    /// A full house is no reason to make each kind alone: the job waits and tries again.
    #[tokio::test]
    async fn a_busy_pipeline_is_asked_once() {
        let mut gifs = MockGifRepository::new();
        gifs.expect_find().returning(|id| Ok(gif(id.0, 1)));
        let mut media = MockMediaProcessor::new();
        media.expect_can_make().return_const(true);
        media.expect_process().times(1).returning(|_, _| Err(MediaRejection::Busy));
        let mut blobs = MockBlobStore::new();
        blobs.expect_get().returning(|_| Ok(vec![0; 16]));
        let maker = maker(gifs, MockRenditionRepository::new(), blobs, media);
        let answer = maker.make(GifId(7)).await;
        assert!(matches!(answer, Err(AppError::Unavailable(_))), "{answer:?}");
    }

    /// A GIF stored before transparency was recorded, with every file it can have: the job reads
    /// its every frame (asking for no file), records that it is transparent, and lets no video
    /// play in the browser in its place.
    #[tokio::test]
    async fn an_unknown_transparency_is_learnt_and_keeps_videos_from_playing() {
        let mut gifs = MockGifRepository::new();
        gifs.expect_find().returning(|id| {
            let mut renditions: Vec<Rendition> = gif(id.0, 1).renditions.into_vec();
            renditions.push(crate::gifs::rendition_of(RenditionKind::Mp4, &image(RenditionKind::Mp4), "gifs/p"));
            Ok(Gif { transparent: None, renditions: Renditions::new(renditions), ..gif(id.0, 1) })
        });
        let mut media = MockMediaProcessor::new();
        // This server makes no kind the GIF lacks: nothing is missing, a pass over the frames only.
        media.expect_can_make().return_const(false);
        media.expect_process().times(1).returning(|_, kinds| {
            assert!(kinds.is_empty(), "{kinds:?}");
            Ok(ProcessedMedia { opaque: false, ..processed(&[]) })
        });
        let mut blobs = MockBlobStore::new();
        blobs.expect_get().returning(|_| Ok(vec![0; 16]));
        blobs.expect_put().never();
        let mut renditions = MockRenditionRepository::new();
        renditions.expect_save_renditions().times(1).returning(|id, saved, transparent| {
            assert!(transparent);
            assert!(saved.iter().all(|r| !(r.preferred && r.kind.is_video())), "{saved:?}");
            Ok(Gif { renditions: Renditions::new(saved), transparent: Some(true), ..gif(id.0, 1) })
        });
        let maker = maker(gifs, renditions, blobs, media);
        assert_eq!(maker.make(GifId(7)).await.ok(), Some(Made::Kinds(Vec::new())));
    }
}
