//! The files of a GIF made after its upload.

use async_trait::async_trait;

use crate::gif::{Gif, GifId, Rendition, RenditionKind};
use crate::RepoError;

/// A GIF as the renditions backfill sees it: what it has and what is known of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFiles {
    pub id: GifId,
    pub frames: i32,
    /// The kinds of rendition it has.
    pub kinds: Vec<RenditionKind>,
    /// See [`Gif::transparent`]: `None` while not known.
    pub transparent: Option<bool>,
}

/// The files of a GIF made after its upload (videos, chat sizes).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait RenditionRepository: Send + Sync {
    /// Stores these renditions of the GIF, replacing any of the same kind, with their
    /// `preferred` flags, and whether the GIF is `transparent`, in one transaction; returns the
    /// GIF afterwards.
    ///
    /// # Errors
    /// `NotFound` when the GIF is gone (its new blobs are then the caller's to remove).
    async fn save_renditions(&self, id: GifId, renditions: Vec<Rendition>, transparent: bool)
        -> Result<Gif, RepoError>;

    /// Up to `limit` GIFs with an id above `after`, by id: each with its frame count, the kinds it
    /// has and whether it is known to be transparent (for the backfill of kinds added after it was
    /// stored, and of the transparency of GIFs stored before it was recorded).
    ///
    /// # Errors
    /// Storage errors.
    async fn rendition_kinds_after(&self, after: GifId, limit: i64) -> Result<Vec<StoredFiles>, RepoError>;
    /// How many GIFs there are (the backfill's progress).
    ///
    /// # Errors
    /// Storage errors.
    async fn gif_count(&self) -> Result<i64, RepoError>;
}
