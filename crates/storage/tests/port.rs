//! The blob store port's suite, run on every adapter so that a folder and a bucket behave the same:
//! the folder adapter, and the S3 adapter against a real S3-compatible server on loopback (at the
//! bucket's root and under a key prefix).

#![allow(clippy::unwrap_used)]

use std::any::Any;
use std::sync::Arc;

use gifshelf_domain::ports::{BlobError, BlobStore};
use gifshelf_storage::testing::S3TestServer;
use gifshelf_storage::StorageOptions;

/// A store and what keeps it alive (its temporary folder or its server).
struct Fixture {
    store: Arc<dyn BlobStore>,
    _guard: Box<dyn Any>,
}

fn folder() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", dir.path().join("media").display());
    Fixture { store: gifshelf_storage::open(&url, &StorageOptions::default()).unwrap(), _guard: Box::new(dir) }
}

fn s3_with_prefix(prefix: &str) -> Fixture {
    let server = S3TestServer::start();
    let options = StorageOptions { s3: server.options() };
    let store = gifshelf_storage::open(&server.url(prefix), &options).unwrap();
    Fixture { store, _guard: Box::new(server) }
}

fn s3() -> Fixture {
    s3_with_prefix("")
}

fn s3_prefixed() -> Fixture {
    s3_with_prefix("tenants/one")
}

fn keys(blobs: &[gifshelf_domain::ports::BlobInfo]) -> Vec<&str> {
    blobs.iter().map(|b| b.key.as_str()).collect()
}

mod suite {
    use super::*;

    pub async fn put_get_overwrite_delete(store: &dyn BlobStore) {
        let before = chrono::Utc::now().naive_utc() - chrono::Duration::seconds(5);
        store.put("gifs/abc/original.gif", b"GIF89a".to_vec(), "image/gif").await.unwrap();
        store.put("gifs/abc/static.png", b"png".to_vec(), "image/png").await.unwrap();
        assert_eq!(store.get("gifs/abc/original.gif").await, Ok(b"GIF89a".to_vec()));
        let listed = store.list().await.unwrap();
        assert_eq!(keys(&listed), ["gifs/abc/original.gif", "gifs/abc/static.png"]);
        let after = chrono::Utc::now().naive_utc() + chrono::Duration::seconds(5);
        for blob in &listed {
            let modified = blob.modified.unwrap_or_else(|| panic!("{} has no modification time", blob.key));
            assert!(before <= modified && modified <= after, "{} modified at {modified}", blob.key);
        }
        // Overwriting replaces the whole blob (shorter, too).
        store.put("gifs/abc/original.gif", b"GIF".to_vec(), "image/gif").await.unwrap();
        assert_eq!(store.get("gifs/abc/original.gif").await, Ok(b"GIF".to_vec()));
        store.delete("gifs/abc/original.gif").await.unwrap();
        store.delete("gifs/abc/original.gif").await.unwrap_or_else(|e| panic!("deleting twice is fine: {e}"));
        assert_eq!(store.get("gifs/abc/original.gif").await, Err(BlobError::NotFound));
        assert_eq!(keys(&store.list().await.unwrap()), ["gifs/abc/static.png"]);
        store.delete("gifs/abc/static.png").await.unwrap();
        assert_eq!(store.list().await.unwrap(), []);
    }

    pub async fn missing_blobs_are_not_found(store: &dyn BlobStore) {
        assert_eq!(store.get("gifs/nothing/original.gif").await, Err(BlobError::NotFound));
        assert_eq!(store.delete("gifs/nothing/original.gif").await, Ok(()));
        assert_eq!(store.list().await, Ok(vec![]));
    }

    pub async fn bytes_come_back_exactly(store: &dyn BlobStore) {
        let every_byte: Vec<u8> = (0..=255).collect();
        let large: Vec<u8> =
            (0..3 * 1024 * 1024 + 7).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
        for (key, bytes) in [("a/empty", vec![]), ("a/bytes.bin", every_byte), ("a/large.gif", large)] {
            store.put(key, bytes.clone(), "application/octet-stream").await.unwrap();
            assert_eq!(store.get(key).await.map(|b| b.len()), Ok(bytes.len()), "{key}");
            assert!(store.get(key).await.unwrap() == bytes, "{key} came back different");
        }
    }

    pub async fn listing_is_sorted_and_nested(store: &dyn BlobStore) {
        for key in ["gifs/b/original.gif", "x", "gifs/a/static.png", "gifs/a/original.gif", "gifs/a/deep/er/thumb.webp"]
        {
            store.put(key, key.as_bytes().to_vec(), "image/gif").await.unwrap();
        }
        assert_eq!(
            keys(&store.list().await.unwrap()),
            ["gifs/a/deep/er/thumb.webp", "gifs/a/original.gif", "gifs/a/static.png", "gifs/b/original.gif", "x"]
        );
    }

    pub async fn invalid_keys_are_refused(store: &dyn BlobStore) {
        let long = "a".repeat(513);
        for key in [
            "../secret.txt",
            "/etc/passwd",
            "gifs/../../secret.txt",
            "",
            "a//b",
            "a/",
            ".partial/x",
            "gifs/.hidden",
            "gifs/a b",
            "gifs/\u{0}",
            "gifs/é.gif",
            "gifs/a?x=1",
            "gifs/%2e%2e",
            long.as_str(),
        ] {
            assert!(
                matches!(store.get(key).await, Err(BlobError::Io(m)) if m.to_string().contains("refused")),
                "get {key:?}"
            );
            assert!(matches!(store.put(key, vec![1], "x").await, Err(BlobError::Io(_))), "put {key:?}");
            assert!(matches!(store.delete(key).await, Err(BlobError::Io(_))), "delete {key:?}");
        }
        assert_eq!(store.list().await, Ok(vec![]), "nothing was written");
    }

    /// Everything a reader yields, joined.
    async fn read_all(
        store: &dyn BlobStore,
        key: &str,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<Vec<u8>, BlobError> {
        let mut reader = store.read(key, range).await?;
        let mut out = Vec::new();
        while let Some(chunk) = reader.next_chunk().await? {
            assert!(!chunk.is_empty(), "empty chunk");
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }

    pub async fn blobs_stream_whole_or_by_range(store: &dyn BlobStore) {
        // Several chunks of every adapter (the folder reads 1 MiB at a time), with a pattern that
        // shows any offset error; ranges start and end inside and across chunk boundaries.
        let len: u64 = 2 * 1024 * 1024 + 300_003;
        let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        store.put("gifs/big/original.gif", bytes.clone(), "image/gif").await.unwrap();
        assert_eq!(read_all(store, "gifs/big/original.gif", None).await.unwrap(), bytes);
        let mib: u64 = 1024 * 1024;
        for range in [
            0..1,
            0..len,
            65_530..140_000,
            mib - 7..mib + 9,
            999_999..2 * mib + 17,
            2 * mib..len,
            len - 1..len,
            1000..1000,
        ] {
            let expected = bytes[range.start as usize..range.end as usize].to_vec();
            assert_eq!(
                read_all(store, "gifs/big/original.gif", Some(range.clone())).await.unwrap(),
                expected,
                "{range:?}"
            );
        }
        assert_eq!(read_all(store, "gifs/none/original.gif", None).await, Err(BlobError::NotFound));
        assert!(read_all(store, "../escape", None).await.is_err());
    }

    pub async fn a_clean_store_has_nothing_to_sweep(store: &dyn BlobStore) {
        store.put("gifs/a/original.gif", b"GIF89a".to_vec(), "image/gif").await.unwrap();
        assert_eq!(store.sweep_partial_writes().await, Ok(0));
        assert_eq!(store.get("gifs/a/original.gif").await, Ok(b"GIF89a".to_vec()), "sweeping keeps blobs");
    }
}

/// Each test of `suite` on each adapter.
macro_rules! on_every_adapter {
    ($($test:ident),* $(,)?) => {
        mod folder {
            $(#[tokio::test]
            async fn $test() {
                let fixture = super::folder();
                super::suite::$test(&*fixture.store).await;
            })*
        }
        mod s3 {
            $(#[tokio::test]
            async fn $test() {
                let fixture = super::s3();
                super::suite::$test(&*fixture.store).await;
            })*
        }
        mod s3_prefixed {
            $(#[tokio::test]
            async fn $test() {
                let fixture = super::s3_prefixed();
                super::suite::$test(&*fixture.store).await;
            })*
        }
    };
}

on_every_adapter!(
    put_get_overwrite_delete,
    missing_blobs_are_not_found,
    bytes_come_back_exactly,
    listing_is_sorted_and_nested,
    invalid_keys_are_refused,
    a_clean_store_has_nothing_to_sweep,
    blobs_stream_whole_or_by_range,
);
