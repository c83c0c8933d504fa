//! Reading the text in GIFs (their captions) after the upload: a `read_text` job per GIF, and the
//! backfill that queues one for every GIF whose text was neither read nor edited.

use std::sync::Arc;

use gifshelf_domain::gif::{CaptionText, GifId, RenditionKind};
use gifshelf_domain::job::Task;
use gifshelf_domain::ports::{BlobStore, CaptionRepository, Clock, GifRepository, JobQueue, TextReader};
use gifshelf_domain::RepoError;

use super::BackfillProgress;
use crate::AppError;

/// GIFs read per page by the backfill.
const BACKFILL_PAGE: i64 = 500;

/// The ports reading text runs on, named.
pub struct TextPorts {
    pub gifs: Arc<dyn GifRepository>,
    pub captions: Arc<dyn CaptionRepository>,
    pub jobs: Arc<dyn JobQueue>,
    pub blobs: Arc<dyn BlobStore>,
    pub reader: Arc<dyn TextReader>,
    pub clock: Arc<dyn Clock>,
}

/// Reads the text in a GIF's stored original and keeps it as the GIF's text, unless it was
/// edited meanwhile.
pub struct TextReading {
    ports: TextPorts,
}

/// What one run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// The GIF is gone (deleted after its job was queued).
    GifGone,
    /// Its text was edited: what was read is not kept.
    Edited,
    /// This text was kept (`None`: the GIF has none).
    Kept(Option<CaptionText>),
}

impl TextReading {
    pub fn new(ports: TextPorts) -> Self {
        Self { ports }
    }

    /// Reads and keeps the text in the GIF.
    ///
    /// # Errors
    /// `Internal` when the original cannot be read or the reader fails, `BadMedia`/`Unavailable`
    /// from the reader; the job is then retried.
    #[tracing::instrument(skip(self), fields(gif_id = id.0))]
    pub async fn read(&self, id: GifId) -> Result<Read, AppError> {
        let gif = match self.ports.gifs.find(id).await {
            Ok(gif) => gif,
            Err(RepoError::NotFound) => return Ok(Read::GifGone),
            Err(err) => return Err(AppError::from_repo(err)),
        };
        let original = gif
            .rendition(RenditionKind::Original)
            .ok_or_else(|| AppError::internal(format!("GIF {} has no original", id.0)))?;
        let bytes = match self.ports.blobs.get(&original.key).await {
            Ok(bytes) => bytes,
            Err(err) => return Err(AppError::internal(format!("reading {}: {err}", original.key))),
        };
        let lines = self.ports.reader.read_text(Arc::new(bytes)).await?;
        let text = CaptionText::from_lines(&lines);
        match self.ports.captions.record_read_text(id, text.clone(), self.ports.clock.now()).await {
            Ok(true) => {
                tracing::info!(chars = text.as_ref().map_or(0, |t| t.as_str().chars().count()), "text read");
                Ok(Read::Kept(text))
            }
            Ok(false) => Ok(Read::Edited),
            Err(RepoError::NotFound) => Ok(Read::GifGone),
            Err(err) => Err(AppError::from_repo(err)),
        }
    }

    /// Queues a `read_text` job for every GIF whose text was neither read nor edited (and
    /// without one queued already), telling `progress` after each page.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn backfill(
        &self,
        mut progress: impl FnMut(BackfillProgress) + Send,
    ) -> Result<BackfillProgress, AppError> {
        let pending: std::collections::HashSet<GifId> = (self.ports.jobs.pending(Task::READ_TEXT).await?.iter())
            .filter_map(|payload| match Task::decode(Task::READ_TEXT, payload) {
                Ok(Task::ReadText(id)) => Some(id),
                Ok(_) | Err(_) => None,
            })
            .collect();
        let mut state =
            BackfillProgress { total: self.ports.captions.unread_count().await?, ..BackfillProgress::default() };
        let mut after = GifId(0);
        loop {
            let page = self.ports.captions.unread_after(after, BACKFILL_PAGE).await?;
            let Some(last) = page.last() else { break };
            after = *last;
            for id in page {
                state.scanned += 1;
                if pending.contains(&id) {
                    state.already_queued += 1;
                } else {
                    self.ports.jobs.enqueue(Task::ReadText(id), self.ports.clock.now()).await?;
                    state.enqueued += 1;
                }
            }
            progress(state);
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::job::JobId;
    use gifshelf_domain::ports::{
        MockBlobStore, MockCaptionRepository, MockClock, MockGifRepository, MockJobQueue, MockTextReader,
    };

    use super::*;
    use crate::gifs::test_support::{gif, now};

    struct Mocks {
        gifs: MockGifRepository,
        captions: MockCaptionRepository,
        jobs: MockJobQueue,
        blobs: MockBlobStore,
        reader: MockTextReader,
    }

    impl Mocks {
        fn new() -> Self {
            Self {
                gifs: MockGifRepository::new(),
                captions: MockCaptionRepository::new(),
                jobs: MockJobQueue::new(),
                blobs: MockBlobStore::new(),
                reader: MockTextReader::new(),
            }
        }

        fn service(self) -> TextReading {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(now());
            TextReading::new(TextPorts {
                gifs: Arc::new(self.gifs),
                captions: Arc::new(self.captions),
                jobs: Arc::new(self.jobs),
                blobs: Arc::new(self.blobs),
                reader: Arc::new(self.reader),
                clock: Arc::new(clock),
            })
        }
    }

    #[tokio::test]
    async fn the_lines_read_in_the_original_become_the_gifs_text() {
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|id| Ok(gif(id.0, 1)));
        m.blobs.expect_get().withf(|key| key == "gifs/p/original.gif").returning(|_| Ok(b"GIF89a".to_vec()));
        m.reader.expect_read_text().returning(|_| Ok(vec!["THIS IS".into(), "FINE".into()]));
        m.captions
            .expect_record_read_text()
            .withf(|id, text, _| *id == GifId(4) && text.as_ref().map(CaptionText::as_str) == Some("THIS IS\nFINE"))
            .returning(|_, _, _| Ok(true));
        let read = m.service().read(GifId(4)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read, Read::Kept(CaptionText::parse("THIS IS\nFINE").ok().flatten()));
    }

    #[tokio::test]
    async fn nothing_read_is_kept_as_no_text_an_edited_text_stays_and_a_gone_gif_is_done() {
        for (recorded, expected) in
            [(Ok(true), Read::Kept(None)), (Ok(false), Read::Edited), (Err(RepoError::NotFound), Read::GifGone)]
        {
            let mut m = Mocks::new();
            m.gifs.expect_find().returning(|id| Ok(gif(id.0, 1)));
            m.blobs.expect_get().returning(|_| Ok(b"GIF89a".to_vec()));
            m.reader.expect_read_text().returning(|_| Ok(Vec::new()));
            let mut once = Some(recorded);
            m.captions
                .expect_record_read_text()
                .withf(|_, text, _| text.is_none())
                .returning(move |_, _, _| once.take().unwrap_or(Ok(true)));
            assert_eq!(m.service().read(GifId(4)).await.ok(), Some(expected));
        }
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|_| Err(RepoError::NotFound));
        m.reader.expect_read_text().never();
        assert_eq!(m.service().read(GifId(4)).await.ok(), Some(Read::GifGone));
    }

    #[tokio::test]
    async fn the_backfill_queues_every_unread_gif_once() {
        let mut m = Mocks::new();
        m.jobs.expect_pending().returning(|_| Ok(vec!["2".into()]));
        m.captions.expect_unread_count().returning(|| Ok(3));
        m.captions
            .expect_unread_after()
            .returning(|after, _| Ok(if after == GifId(0) { vec![GifId(1), GifId(2), GifId(5)] } else { Vec::new() }));
        m.jobs
            .expect_enqueue()
            .times(2)
            .withf(|task, _| matches!(task, Task::ReadText(GifId(1) | GifId(5))))
            .returning(|_, _| Ok(JobId(1)));
        let mut seen = Vec::new();
        let report = m.service().backfill(|p| seen.push(p.scanned)).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((report.scanned, report.total, report.enqueued, report.already_queued), (3, 3, 2, 1));
        assert_eq!(seen, [3]);
    }
}
