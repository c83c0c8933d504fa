//! The blob store as the application sees it: the configured one, with its failures counted for
//! `/metrics` (`gifshelf_storage_errors_total` by operation). A missing key is an answer, not a
//! failure, and is not counted.

use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use gifshelf_domain::ports::{BlobChunk, BlobError, BlobInfo, BlobReader, BlobStore};

pub(crate) struct MeteredStore(pub(crate) Arc<dyn BlobStore>);

fn counted<T>(operation: &'static str, result: Result<T, BlobError>) -> Result<T, BlobError> {
    if let Err(BlobError::Io(cause)) = &result {
        metrics::counter!("gifshelf_storage_errors_total", "operation" => operation).increment(1);
        tracing::debug!(operation, error = %cause, "blob store failure");
    }
    result
}

#[async_trait]
impl BlobStore for MeteredStore {
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError> {
        counted("put", self.0.put(key, bytes, content_type).await)
    }

    async fn get(&self, key: &str) -> Result<Vec<u8>, BlobError> {
        counted("get", self.0.get(key).await)
    }

    async fn read(&self, key: &str, range: Option<Range<u64>>) -> Result<Box<dyn BlobReader>, BlobError> {
        let reader = counted("read", self.0.read(key, range).await)?;
        Ok(Box::new(MeteredReader(reader)))
    }

    async fn presigned_get(&self, key: &str, expires: Duration) -> Result<Option<String>, BlobError> {
        counted("presign", self.0.presigned_get(key, expires).await)
    }

    async fn delete(&self, key: &str) -> Result<(), BlobError> {
        counted("delete", self.0.delete(key).await)
    }

    async fn list(&self) -> Result<Vec<BlobInfo>, BlobError> {
        counted("list", self.0.list().await)
    }

    async fn sweep_partial_writes(&self) -> Result<usize, BlobError> {
        counted("sweep", self.0.sweep_partial_writes().await)
    }
}

/// A read whose failures half way (a dropped connection to the store) are counted too.
struct MeteredReader(Box<dyn BlobReader>);

#[async_trait]
impl BlobReader for MeteredReader {
    async fn next_chunk(&mut self) -> Result<Option<BlobChunk>, BlobError> {
        counted("read", self.0.next_chunk().await)
    }
}
