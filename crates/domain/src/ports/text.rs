//! The text in GIFs: reading it from their frames, and keeping what was read.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::gif::{CaptionText, GifId};
use crate::media::MediaRejection;
use crate::RepoError;

/// Reads the text in an image or animation (a few distinct scenes, words below a confidence
/// dropped), within the same limits as the media pipeline.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait TextReader: Send + Sync {
    /// The lines of text read, each once, in reading order; empty when there is none.
    ///
    /// # Errors
    /// The image's own rejections; `Busy` when no slot frees up; `Internal` when the reader fails.
    async fn read_text(&self, bytes: std::sync::Arc<Vec<u8>>) -> Result<Vec<String>, MediaRejection>;
}

/// Where the text read in GIFs is kept.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait CaptionRepository: Send + Sync {
    /// Keeps the text read in the GIF at `at` (`None`: it has none), with its search text, unless
    /// its text was edited (or drawn by the maker): then nothing changes. Whether it was kept.
    ///
    /// # Errors
    /// `NotFound` when the GIF is gone.
    async fn record_read_text(
        &self,
        id: GifId,
        text: Option<CaptionText>,
        at: NaiveDateTime,
    ) -> Result<bool, RepoError>;

    /// Up to `limit` GIFs above `after`, by id, whose text was neither read nor edited.
    ///
    /// # Errors
    /// Storage errors.
    async fn unread_after(&self, after: GifId, limit: i64) -> Result<Vec<GifId>, RepoError>;

    /// How many GIFs' text was neither read nor edited (the backfill's progress).
    ///
    /// # Errors
    /// Storage errors.
    async fn unread_count(&self) -> Result<i64, RepoError>;
}
