//! Collections and their ordered GIFs.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::collection::{Collection, CollectionEdit, CollectionId, NewCollection};
use crate::gif::{Gif, GifId, Page, PageRequest};
use crate::user::UserId;
use crate::RepoError;

/// Collections and their ordered GIFs.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait CollectionRepository: Send + Sync {
    /// # Errors
    /// Storage errors.
    async fn create(&self, collection: NewCollection) -> Result<Collection, RepoError>;

    /// # Errors
    /// `NotFound` when no collection has this id.
    async fn find(&self, id: CollectionId) -> Result<Collection, RepoError>;

    /// # Errors
    /// `NotFound` when no collection is shared under this id.
    async fn find_by_share_id(&self, share_id: &str) -> Result<Collection, RepoError>;

    /// Every team collection and the viewer's private ones, most recently changed first.
    ///
    /// # Errors
    /// Storage errors.
    async fn list_visible_to(&self, viewer: UserId) -> Result<Vec<Collection>, RepoError>;

    /// # Errors
    /// `NotFound` when no collection has this id.
    async fn update(&self, id: CollectionId, edit: CollectionEdit) -> Result<Collection, RepoError>;

    /// Turns the public page on (`Some`, a fresh unguessable id) or off (`None`).
    ///
    /// # Errors
    /// `NotFound`; `Conflict(Unique::ShareId)` on a clash.
    async fn set_share_id(&self, id: CollectionId, share_id: Option<String>) -> Result<Collection, RepoError>;

    /// Deletes the collection and its links (never the GIFs).
    ///
    /// # Errors
    /// `NotFound` when no collection has this id.
    async fn delete(&self, id: CollectionId) -> Result<(), RepoError>;

    /// Appends a GIF at the end; a GIF already there stays where it is.
    ///
    /// # Errors
    /// `NotFound` when the collection or the GIF does not exist.
    async fn add_gif(&self, id: CollectionId, gif: GifId, at: NaiveDateTime) -> Result<(), RepoError>;

    /// Removing a GIF that is not there is not an error.
    ///
    /// # Errors
    /// `NotFound` when the collection does not exist.
    async fn remove_gif(&self, id: CollectionId, gif: GifId, at: NaiveDateTime) -> Result<(), RepoError>;

    /// The ids of its GIFs in order.
    ///
    /// # Errors
    /// `NotFound` when the collection does not exist.
    async fn gif_ids(&self, id: CollectionId) -> Result<Vec<GifId>, RepoError>;

    /// Gives the GIFs these positions (0, 1, …); `order` names each GIF of the collection once.
    ///
    /// # Errors
    /// `NotFound` when the collection does not exist.
    async fn reorder(&self, id: CollectionId, order: Vec<GifId>, at: NaiveDateTime) -> Result<(), RepoError>;

    /// A page of its GIFs in order.
    ///
    /// # Errors
    /// `NotFound` when the collection does not exist.
    async fn gifs(&self, id: CollectionId, page: PageRequest) -> Result<Page<Gif>, RepoError>;
}
