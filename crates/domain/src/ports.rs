//! Ports: the traits through which use cases reach the outside world. Adapters implement them;
//! `app` tests mock them (feature `mock`).

use async_trait::async_trait;
use chrono::{NaiveDate, NaiveDateTime};

use crate::auth::{ExternalIdentity, IdentityError, LinkedIdentity, SessionClaims};
use crate::user::{Email, NewUser, PasswordHash, Role, User, UserId, Username};
use crate::{Cause, RepoError};

/// Accounts.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait UserRepository: Send + Sync {
    /// Stores a new account. The first account ever stored gets `Role::Admin` whatever `user.role`
    /// says when `first_becomes_admin` is true; deciding that atomically is the adapter's job.
    ///
    /// # Errors
    /// `Conflict(Unique::Username)` or `Conflict(Unique::Email)` when either is taken (case-insensitively).
    async fn create(&self, user: NewUser, first_becomes_admin: bool) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this username (compared case-insensitively).
    async fn find_by_username(&self, username: &str) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this id.
    async fn find_by_id(&self, id: UserId) -> Result<User, RepoError>;

    /// Changes username and email; `changed_at` becomes the credentials change instant when the
    /// username changes (old tokens name the old user).
    ///
    /// # Errors
    /// `NotFound`, or `Conflict(Unique::Username | Unique::Email)`.
    async fn update_profile(
        &self,
        id: UserId,
        username: &Username,
        email: &Email,
        changed_at: NaiveDateTime,
    ) -> Result<User, RepoError>;

    /// Stores a new password hash; tokens issued before `changed_at` stop working.
    ///
    /// # Errors
    /// `NotFound` when no account has this id.
    async fn update_password(
        &self,
        id: UserId,
        hash: &PasswordHash,
        changed_at: NaiveDateTime,
    ) -> Result<(), RepoError>;

    /// The account an identity of a third-party provider is linked to.
    ///
    /// # Errors
    /// `NotFound` when this (issuer, subject) is linked to no account.
    async fn find_by_identity(&self, issuer: &str, subject: &str) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this email.
    async fn find_by_email(&self, email: &Email) -> Result<User, RepoError>;

    /// Links a provider identity to an existing account.
    ///
    /// # Errors
    /// `Conflict(Unique::Identity)` when the identity is linked to an account,
    /// `Conflict(Unique::IdentityPerProvider)` when the account has one of that provider;
    /// `NotFound` for an unknown account.
    async fn link_identity(&self, id: UserId, identity: &ExternalIdentity, at: NaiveDateTime) -> Result<(), RepoError>;

    /// The provider identities linked to an account, by issuer.
    ///
    /// # Errors
    /// Storage errors.
    async fn identities_of(&self, id: UserId) -> Result<Vec<LinkedIdentity>, RepoError>;

    /// Unlinks the account's identity at `issuer`.
    ///
    /// # Errors
    /// `NotFound` when the account has none there.
    async fn unlink_identity(&self, id: UserId, issuer: &str) -> Result<(), RepoError>;

    /// Stores a new account and links the identity to it in one transaction (the first-account rule
    /// of `create` applies).
    ///
    /// # Errors
    /// `Conflict(Unique::Username | Unique::Email | Unique::Identity)`.
    async fn create_with_identity(
        &self,
        user: NewUser,
        identity: &ExternalIdentity,
        first_becomes_admin: bool,
    ) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this username.
    async fn set_role(&self, username: &str, role: Role) -> Result<User, RepoError>;

    /// Whether the database answers at all (health checks).
    ///
    /// # Errors
    /// `Unavailable` when it does not.
    async fn ping(&self) -> Result<(), RepoError>;
}

/// Why a password could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Every hashing slot is taken: the work is bounded and never queues without end.
    #[error("password hashing is saturated")]
    Busy,
    #[error("password hashing failed: {0}")]
    Failed(#[source] Cause),
}

/// Why a session token could not be signed.
#[derive(Debug, thiserror::Error)]
#[error("token signing failed: {0}")]
pub struct SignError(#[source] pub Cause);

/// Password hashing (bcrypt in production). Slow on purpose: adapters run it off the async executor.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait PasswordHasher: Send + Sync {
    /// # Errors
    /// `Busy` when every hashing slot is taken; `Failed` when hashing itself fails (never for a
    /// valid `Password`).
    async fn hash(&self, password: &str) -> Result<PasswordHash, HashError>;
    /// Whether `password` matches `hash`. A malformed hash is simply "no".
    ///
    /// # Errors
    /// `Busy` when every hashing slot is taken.
    async fn verify(&self, password: &str, hash: &PasswordHash) -> Result<bool, HashError>;
    /// Spends about the time of one `verify`, so that an unknown user and a wrong password take as long.
    ///
    /// # Errors
    /// `Busy` when every hashing slot is taken.
    async fn verify_dummy(&self, password: &str) -> Result<(), HashError>;
}

/// Why a token was refused. The distinction is for logs and the client's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("Token expired")]
    Expired,
    #[error("Invalid token")]
    Invalid,
}

/// Signs and checks session tokens.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait TokenService: Send + Sync {
    /// # Errors
    /// `SignError` when signing fails.
    fn issue(&self, claims: &SessionClaims) -> Result<String, SignError>;
    /// # Errors
    /// `Expired` or `Invalid` (bad signature, wrong algorithm, malformed claims).
    fn verify(&self, token: &str) -> Result<SessionClaims, TokenError>;
}

/// Checks ID tokens of a third-party OpenID provider (Google by default): signature from the
/// provider's published keys, issuer, audience (our client id), expiry.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait IdentityVerifier: Send + Sync {
    /// # Errors
    /// `Rejected` for any token that does not pass every check; `Unavailable` when the provider's
    /// keys cannot be fetched.
    async fn verify(&self, id_token: &str) -> Result<ExternalIdentity, IdentityError>;
}

/// The time, injectable for tests. UTC.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait Clock: Send + Sync {
    fn now(&self) -> NaiveDateTime;
}

use crate::api_key::{ApiKey, ApiKeyId, NewApiKey};
use crate::gif::{
    Fingerprint, Gif, GifEdit, GifFilter, GifId, GifSort, GifSummary, NewGif, Page, PageRequest, PerceptualHash,
    Rendition, RenditionKind, Tag, TagId, TagName,
};
use crate::job::{ClaimedJob, FailedJob, JobCounts, JobId, Task};
use crate::media::{MediaRejection, ProcessedMedia};

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

/// API keys, stored by digest.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ApiKeyRepository: Send + Sync {
    /// # Errors
    /// Storage errors.
    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey, RepoError>;

    /// The person's keys, oldest first.
    ///
    /// # Errors
    /// Storage errors.
    async fn keys_of(&self, owner: UserId) -> Result<Vec<ApiKey>, RepoError>;

    /// Removes one of the person's keys.
    ///
    /// # Errors
    /// `NotFound` when the person has no key with this id.
    async fn delete_key(&self, owner: UserId, id: ApiKeyId) -> Result<(), RepoError>;

    /// The key with this digest.
    ///
    /// # Errors
    /// `NotFound` when no key has it (unknown or revoked).
    async fn key_by_digest(&self, digest: &str) -> Result<ApiKey, RepoError>;

    /// Records that the key was used.
    ///
    /// # Errors
    /// Storage errors.
    async fn touch_key(&self, id: ApiKeyId, at: NaiveDateTime) -> Result<(), RepoError>;
}

/// What people search for and the words they could mean: trending terms and suggestions for the
/// chat apps' pickers.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait TermRepository: Send + Sync {
    /// Counts one search for `term` (already normalised) on `day`.
    ///
    /// # Errors
    /// Storage errors.
    async fn record_search(&self, term: &str, day: NaiveDate) -> Result<(), RepoError>;

    /// The terms searched most since `since`, most first, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    async fn trending_terms(&self, since: NaiveDate, limit: i64) -> Result<Vec<String>, RepoError>;

    /// Tag names and GIF titles (lower-cased) that start with `prefix` (lower-case), tags used on
    /// most GIFs first, then titles of the most viewed GIFs; each once, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    async fn suggest_terms(&self, prefix: &str, limit: i64) -> Result<Vec<String>, RepoError>;
}

use crate::integration::{Integration, IntegrationId, NewIntegration, Platform};

/// The chat integrations admins keep (signing secrets and tokens of slash commands).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait IntegrationRepository: Send + Sync {
    /// # Errors
    /// Storage errors.
    async fn create_integration(&self, integration: NewIntegration) -> Result<Integration, RepoError>;

    /// Every integration, oldest first.
    ///
    /// # Errors
    /// Storage errors.
    async fn integrations(&self) -> Result<Vec<Integration>, RepoError>;

    /// The integrations of one platform, oldest first.
    ///
    /// # Errors
    /// Storage errors.
    async fn integrations_of(&self, platform: Platform) -> Result<Vec<Integration>, RepoError>;

    /// # Errors
    /// `NotFound` when no integration has this id.
    async fn delete_integration(&self, id: IntegrationId) -> Result<(), RepoError>;
}

/// Makes API keys and their digests (a key is random, so a fast hash is enough).
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait KeyMinter: Send + Sync {
    /// A new key: URL-safe, with at least 192 bits from the OS generator.
    fn mint(&self) -> String;
    /// What is stored and looked up instead of the key.
    fn digest(&self, key: &str) -> String;
}

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

/// The durable job queue. A claim is a lease: a job whose worker died runs again once
/// `locked_until` has passed. Every call is one short transaction.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait JobQueue: Send + Sync {
    /// Adds a job that may run from `run_after` on.
    ///
    /// # Errors
    /// Storage errors.
    async fn enqueue(&self, task: Task, run_after: NaiveDateTime) -> Result<JobId, RepoError>;

    /// Takes the oldest job that is due (queued with `run_after <= now`, or running with an
    /// expired lease) for `worker` until `lease_until`, counting one more attempt. Two workers
    /// never get the same job while its lease holds.
    ///
    /// # Errors
    /// Storage errors.
    async fn claim(
        &self,
        worker: &str,
        now: NaiveDateTime,
        lease_until: NaiveDateTime,
    ) -> Result<Option<ClaimedJob>, RepoError>;

    /// Removes a job its worker finished. `false` when the worker no longer held it (its lease
    /// expired and another worker took it).
    ///
    /// # Errors
    /// Storage errors.
    async fn complete(&self, id: JobId, worker: &str) -> Result<bool, RepoError>;

    /// Puts a failed attempt back in the queue until `run_after`, keeping its error.
    ///
    /// # Errors
    /// Storage errors.
    async fn retry(&self, id: JobId, worker: &str, error: &str, run_after: NaiveDateTime) -> Result<bool, RepoError>;

    /// Gives up on a job: it stays, `failed`, with its error, and never runs again by itself.
    ///
    /// # Errors
    /// Storage errors.
    async fn give_up(&self, id: JobId, worker: &str, error: &str) -> Result<bool, RepoError>;

    /// The GIFs that have a job waiting or running to make their renditions.
    ///
    /// # Errors
    /// Storage errors.
    async fn pending_renditions(&self) -> Result<Vec<GifId>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn counts(&self) -> Result<JobCounts, RepoError>;

    /// Jobs given up on, newest first, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    async fn failed(&self, limit: i64) -> Result<Vec<FailedJob>, RepoError>;
}

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

/// Why the blob store failed.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    #[error("blob not found")]
    NotFound,
    /// The store failed; the cause (an I/O error, or the store's answer) goes to the log.
    #[error("blob store failure: {0}")]
    Io(#[source] Cause),
}

impl BlobError {
    /// A failure of the store with its cause (an error, or a message).
    pub fn io(cause: impl Into<Cause>) -> Self {
        Self::Io(cause.into())
    }
}

/// Two failures are the same when they say the same (causes have no equality of their own).
impl PartialEq for BlobError {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::NotFound, Self::NotFound) => true,
            (Self::Io(a), Self::Io(b)) => a.to_string() == b.to_string(),
            _ => false,
        }
    }
}

/// A stored blob as a listing shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobInfo {
    pub key: String,
    /// UTC, when the store knows it.
    pub modified: Option<NaiveDateTime>,
}

/// A blob being read a chunk at a time, so that serving a large file never holds it whole.
#[async_trait]
pub trait BlobReader: Send {
    /// The next chunk (never empty), or `None` at the end.
    ///
    /// # Errors
    /// `Io` when the store fails while reading.
    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, BlobError>;
}

/// Where image bytes live. Keys are chosen by the server (`gifs/<random>/original.gif`), never
/// taken from a file name. A `put` is atomic: a reader sees the whole blob or none.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait BlobStore: Send + Sync {
    /// # Errors
    /// `Io` when the bytes cannot be stored durably.
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError>;

    /// # Errors
    /// `NotFound` for an unknown key, `Io` otherwise.
    async fn get(&self, key: &str) -> Result<Vec<u8>, BlobError>;

    /// Streams the bytes `range` (start inclusive, end exclusive, within the blob) of a blob, or
    /// the whole blob when `None`.
    ///
    /// # Errors
    /// `NotFound` for an unknown key, `Io` otherwise.
    async fn read(&self, key: &str, range: Option<std::ops::Range<u64>>) -> Result<Box<dyn BlobReader>, BlobError>;

    /// A URL from which anyone may GET the blob until `expires` has passed, when the store can
    /// sign one (S3's presigned GET); `None` when it cannot (a local folder). Makes no request.
    ///
    /// # Errors
    /// `NotFound` never (the key is not checked for existence); `Io` when signing fails.
    async fn presigned_get(&self, key: &str, expires: std::time::Duration) -> Result<Option<String>, BlobError>;

    /// Deleting a missing key is not an error.
    ///
    /// # Errors
    /// `Io` when the store refuses.
    async fn delete(&self, key: &str) -> Result<(), BlobError>;

    /// Every stored blob with its last modification (for `gifshelf fsck`).
    ///
    /// # Errors
    /// `Io` when the store cannot be listed.
    async fn list(&self) -> Result<Vec<BlobInfo>, BlobError>;

    /// Removes leftovers of interrupted writes; returns how many.
    ///
    /// # Errors
    /// `Io` when the store cannot be cleaned.
    async fn sweep_partial_writes(&self) -> Result<usize, BlobError>;
}

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

/// Random identifiers: share ids (at least 96 bits, URL-safe) and blob key prefixes.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait IdGenerator: Send + Sync {
    fn share_id(&self) -> String;
    fn blob_prefix(&self) -> String;
}

use crate::stats::{ActivityLevel, DetailedFigures, GifStat, OverviewFigures, SizeBucket, UserStat};

/// The dashboard's figures: aggregate queries, never loops over every row.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StatsRepository: Send + Sync {
    /// `today` and `week` are the UTC instants "today" and "this week" start at.
    ///
    /// # Errors
    /// Storage errors.
    async fn overview(&self, today: NaiveDateTime, week: NaiveDateTime, top: i64)
        -> Result<OverviewFigures, RepoError>;

    /// Daily uploads for the 7 days starting at `first_day` (UTC), and the distributions.
    ///
    /// # Errors
    /// Storage errors.
    async fn detailed(&self, first_day: chrono::NaiveDate, top: i64) -> Result<DetailedFigures, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn gifs_in_bucket(&self, bucket: SizeBucket, limit: i64) -> Result<Vec<GifStat>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn gifs_with_tag(&self, tag: &TagName, limit: i64) -> Result<Vec<GifStat>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn gifs_of_type(&self, content_type: &str, limit: i64) -> Result<Vec<GifStat>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn users_at_level(&self, level: ActivityLevel, limit: i64) -> Result<Vec<UserStat>, RepoError>;
}

use crate::collection::{Collection, CollectionEdit, CollectionId, GifBatch, NewCollection};

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

/// Why an image named by a link could not be fetched. Messages are sentences a user may read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The link breaks a rule: not http(s), credentials in it, or an address that is not public.
    #[error("{0}")]
    Refused(String),
    /// The image is over the size limit.
    #[error("{0}")]
    TooLarge(String),
    /// A page that names no image (`og:image`).
    #[error("{0}")]
    NoImage(String),
    /// The link could not be reached or answered with an error, too slowly or with too many redirects.
    #[error("{0}")]
    Failed(String),
}

/// Fetches the image a user named by a link, from the server, under rules that keep it from reaching
/// private addresses.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait UrlFetcher: Send + Sync {
    /// The bytes at `url`, at most `max_bytes` of them; when the link answers with an HTML page,
    /// the bytes of the image the page names in `og:image` (fetched under the same rules).
    ///
    /// # Errors
    /// `Refused`, `TooLarge`, `NoImage` or `Failed` (see `FetchError`).
    async fn fetch_image(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, FetchError>;
}
