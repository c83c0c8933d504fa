#![doc = include_str!("../README.md")]

use std::sync::Arc;

use gifshelf_domain::ports::BlobStore;

mod key;
mod local;
mod mapped;
mod migrate;
mod s3;
#[cfg(feature = "testing")]
pub mod testing;

pub use local::LocalFolder;
pub use migrate::{migrate, MigrationProgress, MigrationReport};
pub use s3::{S3Options, S3Store};

/// What a store URL does not say: how to reach and sign in to an object store.
#[derive(Debug, Clone, Default)]
pub struct StorageOptions {
    pub s3: S3Options,
}

/// Opens the store a `GIFSHELF_STORAGE_URL` names: `file:///path/to/folder` or
/// `s3://bucket/optional/prefix`. Makes no request: a wrong endpoint or key shows on first use.
///
/// # Errors
/// A message for an unsupported or unusable URL.
pub fn open(url: &str, options: &StorageOptions) -> Result<Arc<dyn BlobStore>, String> {
    if let Some(path) = url.strip_prefix("file://") {
        if path.is_empty() {
            return Err(format!("the storage URL {url:?} names no folder: use file:///path/to/folder"));
        }
        let folder = LocalFolder::new(path).map_err(|e| format!("storage folder {path}: {e}"))?;
        return Ok(Arc::new(folder));
    }
    if let Some(rest) = url.strip_prefix("s3://") {
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let store = S3Store::new(bucket, prefix, &options.s3).map_err(|e| format!("storage URL {url:?}: {e}"))?;
        return Ok(Arc::new(store));
    }
    Err(format!("unsupported storage URL {url:?}: use file:///path/to/folder or s3://bucket/optional/prefix"))
}
