//! Checking uploads and making their renditions.

use async_trait::async_trait;

use crate::media::{MediaRejection, ProcessedMedia};

/// Sniffs, checks and thumbnails uploads, with bounded memory, time and concurrency.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait MediaProcessor: Send + Sync {
    /// Checks the upload and makes each rendition of `kinds`, decoding the frames once.
    ///
    /// # Errors
    /// A `MediaRejection` saying why the bytes were refused; `Internal` for a kind the processor
    /// cannot make (never silently left out).
    async fn process(
        &self,
        bytes: std::sync::Arc<Vec<u8>>,
        kinds: &[crate::gif::RenditionKind],
    ) -> Result<ProcessedMedia, MediaRejection>;

    /// Whether this processor can make the kind at all (videos need `ffmpeg`).
    fn can_make(&self, kind: crate::gif::RenditionKind) -> bool;
}
