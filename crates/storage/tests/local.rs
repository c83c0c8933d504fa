//! The blob store port's suite on the local folder adapter.

use gifshelf_domain::ports::{BlobError, BlobStore};
use gifshelf_storage::LocalFolder;

fn store() -> (tempfile::TempDir, LocalFolder) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store = LocalFolder::new(dir.path().join("media")).unwrap_or_else(|e| panic!("{e}"));
    (dir, store)
}

#[tokio::test]
async fn put_get_list_delete() {
    let (_dir, store) = store();
    store.put("gifs/abc/original.gif", b"GIF89a".to_vec(), "image/gif").await.unwrap_or_else(|e| panic!("{e}"));
    store.put("gifs/abc/static.png", b"png".to_vec(), "image/png").await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.get("gifs/abc/original.gif").await.ok(), Some(b"GIF89a".to_vec()));
    let keys: Vec<String> = store.list().await.unwrap_or_default().into_iter().map(|b| b.key).collect();
    assert_eq!(keys, ["gifs/abc/original.gif", "gifs/abc/static.png"]);
    assert!(store.list().await.unwrap_or_default().iter().all(|b| b.modified.is_some()));
    // Overwriting replaces the whole blob.
    store.put("gifs/abc/static.png", b"png2".to_vec(), "image/png").await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.get("gifs/abc/static.png").await.ok(), Some(b"png2".to_vec()));
    store.delete("gifs/abc/original.gif").await.unwrap_or_else(|e| panic!("{e}"));
    store.delete("gifs/abc/original.gif").await.unwrap_or_else(|e| panic!("deleting twice is fine: {e}"));
    assert_eq!(store.get("gifs/abc/original.gif").await, Err(BlobError::NotFound));
    store.delete("gifs/abc/static.png").await.unwrap_or_else(|e| panic!("{e}"));
    assert!(store.list().await.unwrap_or_default().is_empty());
}

#[tokio::test]
async fn keys_cannot_leave_the_folder() {
    let (dir, store) = store();
    std::fs::write(dir.path().join("secret.txt"), "top secret").unwrap_or_else(|e| panic!("{e}"));
    for key in
        ["../secret.txt", "/etc/passwd", "gifs/../../secret.txt", "", "a//b", ".partial/x", "gifs/a b", "gifs/\u{0}"]
    {
        assert!(matches!(store.get(key).await, Err(BlobError::Io(_))), "{key:?}");
        assert!(matches!(store.put(key, vec![1], "x").await, Err(BlobError::Io(_))), "{key:?}");
    }
}

#[tokio::test]
async fn partial_writes_are_invisible_and_swept() {
    let (dir, store) = store();
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

#[test]
fn urls() {
    assert!(gifshelf_storage::open("s3://bucket").is_err());
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    assert!(gifshelf_storage::open(&format!("file://{}", dir.path().join("m").display())).is_ok());
}
