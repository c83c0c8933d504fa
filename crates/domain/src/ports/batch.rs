//! The batch edits of the gallery's "Select" mode.

use async_trait::async_trait;

use crate::collection::GifBatch;
use crate::gif::{Gif, GifId};
use crate::RepoError;

/// The batch edits of the gallery's "Select" mode.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait GifBatchRepository: Send + Sync {
    /// The GIFs among `ids` that exist (in any order; missing ones are left out).
    ///
    /// # Errors
    /// Storage errors.
    async fn find_many(&self, ids: Vec<GifId>) -> Result<Vec<Gif>, RepoError>;

    /// Applies every part of the batch in one transaction, or nothing; returns the deleted GIFs
    /// (their blobs go after the commit).
    ///
    /// # Errors
    /// `NotFound` when a GIF or the collection vanished meanwhile; storage errors.
    async fn apply(&self, batch: GifBatch) -> Result<Vec<Gif>, RepoError>;
}
