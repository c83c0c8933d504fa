//! Each person's favourite GIFs.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::gif::GifId;
use crate::user::UserId;
use crate::RepoError;

/// Each person's favourite GIFs. The GIF's `favourite_count` follows in the same transaction.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait FavouriteRepository: Send + Sync {
    /// Adds (`on`) or removes the GIF from the person's favourites; doing it twice changes nothing.
    /// Returns the GIF's favourite count afterwards.
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn set_favourite(&self, user: UserId, gif: GifId, on: bool, at: NaiveDateTime) -> Result<i64, RepoError>;

    /// Which of these GIFs the person has among their favourites.
    ///
    /// # Errors
    /// Storage errors.
    async fn favourited_among(&self, user: UserId, gifs: &[GifId]) -> Result<Vec<GifId>, RepoError>;
}
