//! `migrate`: folder → S3 and back loses nothing, runs again without copying, repairs bad copies.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use gifshelf_domain::ports::{BlobError, BlobStore};
use gifshelf_storage::testing::S3TestServer;
use gifshelf_storage::{migrate, LocalFolder, MigrationProgress, StorageOptions};
use sha2::{Digest, Sha256};

fn blobs() -> Vec<(String, Vec<u8>)> {
    (0..12)
        .flat_map(|i| {
            let body: Vec<u8> = (0..(i * 997 + 1)).map(|j| (i * 31 + j * 7) as u8).collect();
            [
                (format!("gifs/g{i:02}/original.gif"), body.clone()),
                (format!("gifs/g{i:02}/static.png"), body[..body.len() / 2].to_vec()),
            ]
        })
        .collect()
}

/// Every blob's key, size and SHA-256.
async fn inventory(store: &dyn BlobStore) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    for blob in store.list().await.unwrap() {
        let bytes = store.get(&blob.key).await.unwrap();
        out.push((blob.key, bytes.len(), hex::encode(Sha256::digest(&bytes))));
    }
    out
}

async fn filled(store: &dyn BlobStore) {
    for (key, bytes) in blobs() {
        store.put(&key, bytes, "image/gif").await.unwrap();
    }
}

fn folder(dir: &tempfile::TempDir, name: &str) -> Arc<dyn BlobStore> {
    Arc::new(LocalFolder::new(dir.path().join(name)).unwrap())
}

fn bucket(server: &S3TestServer, prefix: &str) -> Arc<dyn BlobStore> {
    gifshelf_storage::open(&server.url(prefix), &StorageOptions { s3: server.options() }).unwrap()
}

#[tokio::test]
async fn folder_to_s3_and_back_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = S3TestServer::start();
    let (source, s3, back) = (folder(&dir, "media"), bucket(&server, "gifshelf/media"), folder(&dir, "back"));
    filled(&*source).await;
    let expected = inventory(&*source).await;
    assert_eq!(expected.len(), 24);

    let mut seen = Vec::new();
    let report = migrate(&*source, &*s3, |p| seen.push(p.clone())).await.unwrap();
    assert_eq!(report.failures, []);
    let total_bytes: u64 = expected.iter().map(|(_, size, _)| *size as u64).sum();
    assert_eq!(
        report.progress,
        MigrationProgress { total: 24, done: 24, copied: 24, skipped: 0, failed: 0, bytes_copied: total_bytes }
    );
    assert_eq!(seen.first().map(|p| (p.total, p.done)), Some((24, 0)), "progress starts at zero");
    assert_eq!(seen.len(), 25, "then one report per blob");
    assert_eq!(inventory(&*s3).await, expected);

    let report = migrate(&*s3, &*back, |_| {}).await.unwrap();
    assert_eq!((report.progress.copied, report.progress.failed), (24, 0));
    assert_eq!(inventory(&*back).await, expected);
}

#[tokio::test]
async fn running_again_copies_nothing_new() {
    let dir = tempfile::tempdir().unwrap();
    let server = S3TestServer::start();
    let (source, target) = (folder(&dir, "media"), bucket(&server, ""));
    filled(&*source).await;
    migrate(&*source, &*target, |_| {}).await.unwrap();
    source.put("gifs/new/original.gif", b"GIF89a new".to_vec(), "image/gif").await.unwrap();

    let report = migrate(&*source, &*target, |_| {}).await.unwrap();
    assert_eq!(
        report.progress,
        MigrationProgress { total: 25, done: 25, copied: 1, skipped: 24, failed: 0, bytes_copied: 10 }
    );
    assert_eq!(inventory(&*target).await, inventory(&*source).await);
}

#[tokio::test]
async fn truncated_or_corrupted_copies_are_copied_again() {
    let dir = tempfile::tempdir().unwrap();
    let server = S3TestServer::start();
    let (source, target) = (bucket(&server, "old"), folder(&dir, "media"));
    filled(&*source).await;
    migrate(&*source, &*target, |_| {}).await.unwrap();

    let original = dir.path().join("media/gifs/g03/original.gif");
    let full = std::fs::read(&original).unwrap();
    std::fs::write(&original, &full[..full.len() - 1]).unwrap(); // truncated
    let mut flipped = std::fs::read(dir.path().join("media/gifs/g05/static.png")).unwrap();
    flipped[0] ^= 0xff; // same size, other bytes
    std::fs::write(dir.path().join("media/gifs/g05/static.png"), flipped).unwrap();
    target.delete("gifs/g07/original.gif").await.unwrap(); // missing

    let report = migrate(&*source, &*target, |_| {}).await.unwrap();
    assert_eq!((report.progress.copied, report.progress.skipped, report.progress.failed), (3, 21, 0));
    assert_eq!(inventory(&*target).await, inventory(&*source).await);
}

#[tokio::test]
async fn failures_are_reported_per_blob_and_the_rest_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = S3TestServer::start();
    let source = folder(&dir, "media");
    filled(&*source).await;
    let mut wrong = server.options();
    wrong.secret_access_key = Some(secrecy::SecretString::from("wrong"));
    let refusing = gifshelf_storage::open(&server.url(""), &StorageOptions { s3: wrong }).unwrap();

    let report = migrate(&*source, &*refusing, |_| {}).await.unwrap();
    assert_eq!((report.progress.done, report.progress.failed, report.progress.copied), (24, 24, 0));
    assert_eq!(report.failures.len(), 24);
    assert!(report.failures.iter().all(|(_, reason)| reason.contains("access denied")), "{:?}", report.failures[0]);

    // A source that cannot be listed stops the migration before it starts.
    let unlisted = migrate(&*refusing, &*source, |_| {}).await;
    assert!(matches!(unlisted, Err(BlobError::Io(_))));
}

/// A store that loses the last byte of every blob it is given.
struct Lossy(LocalFolder);

#[async_trait::async_trait]
impl BlobStore for Lossy {
    async fn put(&self, key: &str, mut bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError> {
        bytes.pop();
        self.0.put(key, bytes, content_type).await
    }
    async fn get(&self, key: &str) -> Result<Vec<u8>, BlobError> {
        self.0.get(key).await
    }
    async fn read(
        &self,
        key: &str,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<Box<dyn gifshelf_domain::ports::BlobReader>, BlobError> {
        self.0.read(key, range).await
    }
    async fn presigned_get(&self, key: &str, expires: std::time::Duration) -> Result<Option<String>, BlobError> {
        self.0.presigned_get(key, expires).await
    }
    async fn delete(&self, key: &str) -> Result<(), BlobError> {
        self.0.delete(key).await
    }
    async fn list(&self) -> Result<Vec<gifshelf_domain::ports::BlobInfo>, BlobError> {
        self.0.list().await
    }
    async fn sweep_partial_writes(&self) -> Result<usize, BlobError> {
        self.0.sweep_partial_writes().await
    }
}

#[tokio::test]
async fn every_copy_is_read_back_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let source = folder(&dir, "media");
    source.put("gifs/a/original.gif", b"GIF89a".to_vec(), "image/gif").await.unwrap();
    let lossy = Lossy(LocalFolder::new(dir.path().join("lossy")).unwrap());
    let report = migrate(&*source, &lossy, |_| {}).await.unwrap();
    assert_eq!((report.progress.copied, report.progress.failed), (0, 1));
    assert_eq!(report.failures, [("gifs/a/original.gif".to_owned(), "the copy has 5 bytes instead of 6".to_owned())]);
}
