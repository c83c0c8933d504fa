//! What chat apps show and count: the featured GIFs, the top tags, the shares.

use async_trait::async_trait;
use chrono::NaiveDate;

use crate::gif::{Gif, GifId, Page, PageRequest, Rating, Shelf, Tag};
use crate::RepoError;

/// The chat apps' view of the library: what they show before a search, their categories, and the
/// shares they report.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ChatFeedRepository: Send + Sync {
    /// One page of every GIF rated at most `max` on `shelf` (no hidden one), most viewed since
    /// `since` first (days without views count nothing), then most viewed of all time, then newest
    /// id: what chat apps show before a search.
    ///
    /// # Errors
    /// Storage errors.
    async fn featured(
        &self,
        since: NaiveDate,
        page: PageRequest,
        max: Rating,
        shelf: Shelf,
    ) -> Result<Page<Gif>, RepoError>;

    /// The `limit` tags on most GIFs rated at most `max` that no moderator hid (ties by name), each
    /// with its most viewed such GIF (ties: the newest), most used first: chat apps' categories,
    /// in a fixed number of queries.
    ///
    /// # Errors
    /// Storage errors.
    async fn top_tags_with_gif(&self, limit: i64, max: Rating) -> Result<Vec<(Tag, Gif)>, RepoError>;

    /// Adds one share (a chat app posted the GIF).
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn add_share(&self, id: GifId) -> Result<(), RepoError>;
}
