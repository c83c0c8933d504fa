//! Tags with their GIF counts.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::gif::{Tag, TagId, TagName};
use crate::RepoError;

/// Tags with their GIF counts.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait TagRepository: Send + Sync {
    /// Every tag with its GIF count, by count descending then name (one aggregate query).
    ///
    /// # Errors
    /// Storage errors.
    async fn list_with_counts(&self) -> Result<Vec<Tag>, RepoError>;

    /// # Errors
    /// `NotFound` when no tag has this name.
    async fn find_by_name(&self, name: &TagName) -> Result<Tag, RepoError>;

    /// # Errors
    /// `Conflict(Unique::TagName)` when the name exists.
    async fn create(&self, name: &TagName, at: NaiveDateTime) -> Result<Tag, RepoError>;

    /// # Errors
    /// `NotFound` when no tag has this id.
    async fn find_tag(&self, id: TagId) -> Result<Tag, RepoError>;

    /// Renames a tag; the search text of its GIFs follows.
    ///
    /// # Errors
    /// `NotFound`, or `Conflict(Unique::TagName)` when another tag has the name.
    async fn rename(&self, id: TagId, name: &TagName) -> Result<Tag, RepoError>;

    /// Deletes a tag; its GIFs stay and lose it (their search text follows).
    ///
    /// # Errors
    /// `NotFound` when no tag has this id.
    async fn delete_tag(&self, id: TagId) -> Result<(), RepoError>;

    /// Deletes every tag no GIF carries; returns their ids.
    ///
    /// # Errors
    /// Storage errors.
    async fn delete_empty(&self) -> Result<Vec<TagId>, RepoError>;
}
