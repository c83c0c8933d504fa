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
/// read and of ranged reads at odd offsets is at most `LocalFolder::CHUNK`, and they add up.
#[tokio::test]
async fn large_files_stream_in_bounded_chunks_from_any_offset() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store = LocalFolder::new(dir.path().join("media")).unwrap_or_else(|e| panic!("{e}"));
    let len: u64 = 5 * LocalFolder::CHUNK + 12_345;
    let bytes: Vec<u8> = (0..len).map(|i| (i % 253) as u8).collect();
    store.put("gifs/huge/original.gif", bytes.clone(), "image/gif").await.unwrap_or_else(|e| panic!("{e}"));
    for range in [None, Some(1..len), Some(3 * LocalFolder::CHUNK - 1..len - 2), Some(77_777..77_778)] {
        let mut reader = store.read("gifs/huge/original.gif", range.clone()).await.unwrap_or_else(|e| panic!("{e}"));
        let mut out = Vec::new();
        while let Some(chunk) = reader.next_chunk().await.unwrap_or_else(|e| panic!("{e}")) {
            assert!(!chunk.is_empty() && chunk.len() as u64 <= LocalFolder::CHUNK, "{range:?}: {}", chunk.len());
            out.extend(chunk);
        }
        let range = range.unwrap_or(0..len);
        assert!(out == bytes[range.start as usize..range.end as usize], "{range:?} came back different");
    }
}
