//! GIFs and their tag links.

use async_trait::async_trait;
use chrono::NaiveDate;

use crate::gif::{
    Fingerprint, Gif, GifEdit, GifFilter, GifId, GifSort, GifSummary, NewGif, Page, PageRequest, PerceptualHash, Tag,
};
use crate::RepoError;

/// GIFs and their tag links.
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

    /// GIFs whose perceptual hash is near this one (`PerceptualHash::is_near`), closest first, at
    /// most `limit`, leaving `except` out. Found through the indexed hash bands, never a full scan.
    ///
    /// # Errors
    /// Storage errors.
    async fn similar(
        &self,
        phash: PerceptualHash,
        except: Option<GifId>,
        limit: i64,
    ) -> Result<Vec<GifSummary>, RepoError>;

    /// The perceptual hash of a GIF (`None` when it has none).
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn phash_of(&self, id: GifId) -> Result<Option<PerceptualHash>, RepoError>;

    /// Every group of two or more GIFs linked by near perceptual hashes, groups and members by id.
    ///
    /// # Errors
    /// Storage errors.
    async fn near_duplicate_groups(&self) -> Result<Vec<Vec<GifSummary>>, RepoError>;

    /// Up to `limit` GIFs with an id above `after` stored before fingerprints were kept, by id:
    /// ids with their original's blob key.
    ///
    /// # Errors
    /// Storage errors.
    async fn without_fingerprint(&self, after: GifId, limit: i64) -> Result<Vec<(GifId, String)>, RepoError>;

    /// Records the fingerprint of a GIF stored before fingerprints were kept.
    ///
    /// # Errors
    /// `NotFound`; `Conflict(Unique::Sha256)` when another GIF has the same original.
    async fn set_fingerprint(&self, id: GifId, fingerprint: &Fingerprint) -> Result<(), RepoError>;

    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn find(&self, id: GifId) -> Result<Gif, RepoError>;

    /// # Errors
    /// `NotFound` when no GIF has this share id.
    async fn find_by_share_id(&self, share_id: &str) -> Result<Gif, RepoError>;

    /// One page in `sort` order, ties broken by id (`Newest`: `uploaded_at` desc, then `id` desc).
    /// `favourite` is false on every GIF: whose favourite is the caller's question.
    ///
    /// # Errors
    /// Storage errors.
    async fn list(&self, filter: &GifFilter, sort: GifSort, page: PageRequest) -> Result<Page<Gif>, RepoError>;

    /// A GIF the filter keeps, each one as likely as any other, found through indexes (never by
    /// sorting the table at random).
    ///
    /// # Errors
    /// `NotFound` when the filter keeps no GIF.
    async fn random(&self, filter: &GifFilter) -> Result<Gif, RepoError>;

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

    /// Adds one share (a chat app posted the GIF).
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn add_share(&self, id: GifId) -> Result<(), RepoError>;

    /// One page of every GIF, most viewed since `since` first (days without views count nothing),
    /// then most viewed of all time, then newest id: what chat apps show before a search.
    ///
    /// # Errors
    /// Storage errors.
    async fn featured(&self, since: NaiveDate, page: PageRequest) -> Result<Page<Gif>, RepoError>;

    /// The `limit` tags on most GIFs (ties by name), each with its most viewed GIF (ties: the
    /// newest), most used first: chat apps' categories, in a fixed number of queries.
    ///
    /// # Errors
    /// Storage errors.
    async fn top_tags_with_gif(&self, limit: i64) -> Result<Vec<(Tag, Gif)>, RepoError>;

    /// Every blob key some row refers to (for `gifshelf fsck`).
    ///
    /// # Errors
    /// Storage errors.
    async fn all_blob_keys(&self) -> Result<Vec<String>, RepoError>;
}
