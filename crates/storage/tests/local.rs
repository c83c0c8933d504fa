//! What only the folder adapter has: interrupted writes left as temporary files, and swept.
//! The port's suite (tests/port.rs) covers the rest on every adapter.

use gifshelf_domain::ports::BlobStore;
use gifshelf_storage::LocalFolder;

#[tokio::test]
async fn partial_writes_are_invisible_and_swept() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store = LocalFolder::new(dir.path().join("media")).unwrap_or_else(|e| panic!("{e}"));
    let partial = dir.path().join("media/.partial/deadbeef");
    std::fs::write(&partial, "half a gif").unwrap_or_else(|e| panic!("{e}"));
    assert!(store.list().await.unwrap_or_default().is_empty(), "temp files are not blobs");
    // Fresh temp files may belong to a write in progress: kept.
    assert_eq!(store.sweep_partial_writes().await.ok(), Some(0));
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&partial)
        .and_then(|f| f.set_modified(old))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.sweep_partial_writes().await.ok(), Some(1));
    assert!(!partial.exists());
}

#[tokio::test]
async fn keys_cannot_reach_files_beside_the_folder() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store = LocalFolder::new(dir.path().join("media")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("secret.txt"), "top secret").unwrap_or_else(|e| panic!("{e}"));
    assert!(store.get("../secret.txt").await.is_err());
    assert!(store.delete("../secret.txt").await.is_err());
    assert!(dir.path().join("secret.txt").exists());
}

/// A response holds at most one chunk of a file, however large the file: every chunk of a whole
/// read and of ranged reads at odd offsets is at most `LocalFolder::CHUNK`, and they add up. Both
/// kinds of file: one small enough to be kept mapped, one read a chunk at a time.
#[tokio::test]
async fn files_stream_in_bounded_chunks_from_any_offset() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store = LocalFolder::new(dir.path().join("media")).unwrap_or_else(|e| panic!("{e}"));
    for len in [5 * LocalFolder::CHUNK + 12_345, LocalFolder::MAPPED_MAX + 12_345] {
        let bytes: Vec<u8> = (0..len).map(|i| (i % 253) as u8).collect();
        let key = format!("gifs/f{len}/original.gif");
        store.put(&key, bytes.clone(), "image/gif").await.unwrap_or_else(|e| panic!("{e}"));
        for range in [None, Some(1..len), Some(3 * LocalFolder::CHUNK - 1..len - 2), Some(77_777..77_778), Some(9..9)] {
            let mut reader = store.read(&key, range.clone()).await.unwrap_or_else(|e| panic!("{e}"));
            let mut out = Vec::new();
            while let Some(chunk) = reader.next_chunk().await.unwrap_or_else(|e| panic!("{e}")) {
                assert!(!chunk.is_empty() && chunk.len() as u64 <= LocalFolder::CHUNK, "{range:?}: {}", chunk.len());
                out.extend_from_slice(&chunk);
            }
            let range = range.unwrap_or(0..len);
            assert!(out == bytes[range.start as usize..range.end as usize], "{len}, {range:?} came back different");
        }
    }
}

async fn read_all(store: &LocalFolder, key: &str) -> Result<Vec<u8>, gifshelf_domain::ports::BlobError> {
    let mut reader = store.read(key, None).await?;
    let mut out = Vec::new();
    while let Some(chunk) = reader.next_chunk().await? {
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// A small file stays mapped after it is served; its key must still never serve old bytes: not
/// after a put over it, not after the file is replaced or removed behind the store's back, and not
/// to a reader that was already sending it (which keeps the bytes it started with).
#[tokio::test]
async fn a_kept_mapping_never_serves_a_replaced_or_removed_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store = LocalFolder::new(dir.path().join("media")).unwrap_or_else(|e| panic!("{e}"));
    let key = "gifs/k/thumbnail.gif";
    let path = dir.path().join("media").join(key);
    store.put(key, b"first bytes".to_vec(), "image/gif").await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read_all(&store, key).await.ok(), Some(b"first bytes".to_vec()));
    let mut started = store.read(key, None).await.unwrap_or_else(|e| panic!("{e}"));

    store.put(key, b"second, longer bytes".to_vec(), "image/gif").await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read_all(&store, key).await.ok(), Some(b"second, longer bytes".to_vec()));
    let first = started.next_chunk().await.unwrap_or_else(|e| panic!("{e}")).map(|c| c.to_vec());
    assert_eq!(first, Some(b"first bytes".to_vec()), "a reader keeps the file it opened");

    // Another process replaces the file (a new file renamed over it, as a put does) …
    let elsewhere = dir.path().join("elsewhere.gif");
    std::fs::write(&elsewhere, b"third").unwrap_or_else(|e| panic!("{e}"));
    std::fs::rename(&elsewhere, &path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read_all(&store, key).await.ok(), Some(b"third".to_vec()));
    // … or removes it.
    std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(store.read(key, None).await.err(), Some(gifshelf_domain::ports::BlobError::NotFound)));

    store.put(key, b"fourth".to_vec(), "image/gif").await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read_all(&store, key).await.ok(), Some(b"fourth".to_vec()));
    store.delete(key).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(store.read(key, None).await.err(), Some(gifshelf_domain::ports::BlobError::NotFound)));
}
