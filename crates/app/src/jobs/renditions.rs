use std::sync::Arc;

use gifshelf_domain::gif::{Gif, GifId, Rendition, RenditionKind, Renditions};
use gifshelf_domain::job::Task;
use gifshelf_domain::media::EncodedImage;
use gifshelf_domain::ports::{BlobStore, Clock, GifRepository, JobQueue, MediaProcessor, RenditionRepository};
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
        if wanted.is_empty() {
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
        let processed = self.media.process(Arc::new(bytes), &wanted).await?;
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
        let all = Renditions::new(gif.renditions.iter().cloned().chain(made)).with_preferred(processed.opaque);
        match self.renditions.save_renditions(id, all.into_vec()).await {
            Ok(saved) => {
                tracing::info!(kinds = ?kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>(), files = saved.renditions.len(), "renditions made");
                Ok(Made::Kinds(kinds))
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
            after = last.0;
            for (id, frames, kinds) in page {
                state.scanned += 1;
                if self.missing(frames, |kind| kinds.contains(&kind), false).is_empty() {
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
