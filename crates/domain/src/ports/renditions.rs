//! The files of a GIF made after its upload.

use async_trait::async_trait;

use crate::gif::{Gif, GifId, Rendition, RenditionKind};
use crate::RepoError;

/// The files of a GIF made after its upload (videos, chat sizes).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait RenditionRepository: Send + Sync {
    /// Stores these renditions of the GIF, replacing any of the same kind, with their
    /// `preferred` flags, in one transaction; returns the GIF afterwards.
    ///
    /// # Errors
    /// `NotFound` when the GIF is gone (its new blobs are then the caller's to remove).
    async fn save_renditions(&self, id: GifId, renditions: Vec<Rendition>) -> Result<Gif, RepoError>;

    /// Up to `limit` GIFs with an id above `after`, by id: each with its frame count and the
    /// kinds it has (for the backfill of kinds added after it was stored).
    ///
    /// # Errors
    /// Storage errors.
    async fn rendition_kinds_after(
        &self,
        after: GifId,
        limit: i64,
    ) -> Result<Vec<(GifId, i32, Vec<RenditionKind>)>, RepoError>;
    /// How many GIFs there are (the backfill's progress).
    ///
    /// # Errors
    /// Storage errors.
    async fn gif_count(&self) -> Result<i64, RepoError>;
}
