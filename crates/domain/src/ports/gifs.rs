//! GIFs and their tag links.

use async_trait::async_trait;
use chrono::NaiveDate;

use crate::gif::{
    Gif, GifEdit, GifFile, GifFilter, GifId, GifSort, NewGif, Page, PageRequest, Rating, RenditionKind, Shelf,
};
use crate::user::UserId;
use crate::RepoError;

/// GIFs and their tag links: storing, finding, listing, editing and deleting them.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait GifRepository: Send + Sync {
    /// Stores a GIF and links its tags, creating the unknown ones, in one transaction.
    ///
    /// # Errors
    /// `Conflict(Unique::ShareId)` on the (astronomically unlikely) share id clash,
    /// `Conflict(Unique::Sha256)` when a GIF with the same stored original exists; storage errors.
    async fn insert(&self, gif: NewGif) -> Result<Gif, RepoError>;

    /// The GIF whose stored original has this SHA-256 (lower-case hex), if any.
    ///
    /// # Errors
    /// Storage errors.
    async fn find_by_sha256(&self, sha256: &str) -> Result<Option<GifId>, RepoError>;

    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn find(&self, id: GifId) -> Result<Gif, RepoError>;

    /// The GIF's file of `kind` and who may read it, in one lookup (the media routes ask this on
    /// every request, so it reads nothing else).
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn find_file(&self, id: GifId, kind: RenditionKind) -> Result<GifFile, RepoError>;

    /// # Errors
    /// `NotFound` when no GIF has this share id, or a moderator hid it.
    async fn find_by_share_id(&self, share_id: &str) -> Result<Gif, RepoError>;

    /// One page in `sort` order, ties broken by id (`Newest`: `uploaded_at` desc, then `id` desc),
    /// without hidden GIFs. `favourite` is false on every GIF: whose favourite is the caller's
    /// question.
    ///
    /// # Errors
    /// Storage errors.
    async fn list(&self, filter: &GifFilter, sort: GifSort, page: PageRequest) -> Result<Page<Gif>, RepoError>;

    /// As [`Self::list`], with `owner`'s own hidden GIFs among the others (a member's library
    /// still lists what a moderator hid, marked).
    ///
    /// # Errors
    /// Storage errors.
    async fn list_with_own(
        &self,
        owner: UserId,
        filter: &GifFilter,
        sort: GifSort,
        page: PageRequest,
    ) -> Result<Page<Gif>, RepoError>;

    /// As [`Self::list`], only GIFs rated at most `max` on `shelf` (the chat APIs' content
    /// filters; stickers are the transparent GIFs, `Gif::transparent`).
    ///
    /// # Errors
    /// Storage errors.
    async fn list_rated(
        &self,
        filter: &GifFilter,
        sort: GifSort,
        page: PageRequest,
        max: Rating,
        shelf: Shelf,
    ) -> Result<Page<Gif>, RepoError>;

    /// A GIF the filter keeps, rated at most `max`, on `shelf`, that no moderator hid, each one as
    /// likely as any other, found through indexes (never by sorting the table at random).
    ///
    /// # Errors
    /// `NotFound` when the filter keeps no GIF.
    async fn random(&self, filter: &GifFilter, max: Rating, shelf: Shelf) -> Result<Gif, RepoError>;

    /// Replaces title, description and tags (creating unknown tags).
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn update(&self, id: GifId, edit: GifEdit) -> Result<Gif, RepoError>;

    /// Removes the row and its tag links; returns what was removed so its blobs can go too.
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn delete(&self, id: GifId) -> Result<Gif, RepoError>;

    /// Adds one view, counted also in the views of `day` (what "featured" ranks by).
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn add_view(&self, id: GifId, day: NaiveDate) -> Result<(), RepoError>;

    /// Adds one view as [`Self::add_view`] does, unless `viewer` (a digest naming a client, never an
    /// address) already viewed the GIF on `day`; answers whether it counted. Earlier days' viewers
    /// of the GIF may be forgotten.
    ///
    /// # Errors
    /// Storage errors (a GIF deleted meanwhile is a view that does not count).
    async fn add_view_once(&self, id: GifId, viewer: &str, day: NaiveDate) -> Result<bool, RepoError>;
}
