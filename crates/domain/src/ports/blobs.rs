//! Where image bytes live, and how they are read back a chunk at a time.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::{Cause, RepoError};

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

/// Bytes of a blob as its store holds them for a while: a buffer it filled, or a window of a file
/// mapped into memory. A response keeps the chunk and sends its bytes from there, without copying
/// them first.
pub struct BlobChunk(Box<dyn AsRef<[u8]> + Send + Sync>);

impl BlobChunk {
    /// The bytes `owner` holds, kept until the chunk is dropped.
    pub fn new(owner: impl AsRef<[u8]> + Send + Sync + 'static) -> Self {
        Self(Box::new(owner))
    }
}

impl AsRef<[u8]> for BlobChunk {
    fn as_ref(&self) -> &[u8] {
        (*self.0).as_ref()
    }
}

impl From<Vec<u8>> for BlobChunk {
    fn from(bytes: Vec<u8>) -> Self {
        Self::new(bytes)
    }
}

impl std::ops::Deref for BlobChunk {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.as_ref()
    }
}

impl std::fmt::Debug for BlobChunk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlobChunk({} bytes)", self.len())
    }
}

/// A blob being read a chunk at a time, so that serving a large file never holds it whole.
#[async_trait]
pub trait BlobReader: Send {
    /// The next chunk (never empty), or `None` at the end.
    ///
    /// # Errors
    /// `Io` when the store fails while reading.
    async fn next_chunk(&mut self) -> Result<Option<BlobChunk>, BlobError>;
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

/// The blob keys the database refers to, which `gifshelf fsck` compares with the blob store.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait BlobKeyIndex: Send + Sync {
    /// Every blob key some row refers to (for `gifshelf fsck`).
    ///
    /// # Errors
    /// Storage errors.
    async fn all_blob_keys(&self) -> Result<Vec<String>, RepoError>;
}
