//! What only the S3 adapter has: key prefixes, paging, credentials, and endpoints that fail.
//! Every server here is on loopback.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use gifshelf_domain::ports::{BlobError, BlobStore};
use gifshelf_storage::testing::S3TestServer;
use gifshelf_storage::{S3Options, StorageOptions};
use secrecy::SecretString;

fn open(url: &str, s3: S3Options) -> Arc<dyn BlobStore> {
    gifshelf_storage::open(url, &StorageOptions { s3 }).unwrap()
}

async fn keys(store: &dyn BlobStore) -> Vec<String> {
    store.list().await.unwrap().into_iter().map(|b| b.key).collect()
}

/// Options for an endpoint with nothing behind it, with the test keys.
fn options_for(endpoint: String) -> S3Options {
    S3Options {
        endpoint: Some(endpoint),
        access_key_id: Some("gifshelf-test-access".into()),
        secret_access_key: Some(SecretString::from("gifshelf-test-secret-0123456789")),
        force_path_style: true,
        allow_http: true,
        ..S3Options::default()
    }
}

#[tokio::test]
async fn a_prefix_keeps_its_blobs_apart() {
    let server = S3TestServer::start();
    let one = open(&server.url("some/prefix"), server.options());
    let other = open(&server.url("some/prefix2"), server.options());
    let root = open(&server.url(""), server.options());
    one.put("gifs/x/original.gif", b"one".to_vec(), "image/gif").await.unwrap();
    other.put("gifs/y/original.gif", b"other".to_vec(), "image/gif").await.unwrap();

    assert_eq!(keys(&*one).await, ["gifs/x/original.gif"]);
    assert_eq!(keys(&*other).await, ["gifs/y/original.gif"]);
    assert_eq!(keys(&*root).await, ["some/prefix/gifs/x/original.gif", "some/prefix2/gifs/y/original.gif"]);
    let in_bucket = server.dir.path().join(&server.bucket).join("some/prefix/gifs/x/original.gif");
    assert_eq!(std::fs::read(in_bucket).ok(), Some(b"one".to_vec()), "the object is under the prefix");
    assert_eq!(other.get("gifs/x/original.gif").await, Err(BlobError::NotFound));
    assert_eq!(root.get("some/prefix/gifs/x/original.gif").await, Ok(b"one".to_vec()));

    other.delete("gifs/x/original.gif").await.unwrap();
    assert_eq!(one.get("gifs/x/original.gif").await, Ok(b"one".to_vec()), "another prefix's delete is a no-op");
}

#[tokio::test]
async fn listing_pages_past_a_thousand_objects() {
    let server = S3TestServer::start();
    // Written straight into the server's folder: it pages listings at 1000 keys.
    let folder = server.dir.path().join(&server.bucket).join("gifs");
    for i in 0..1003 {
        std::fs::create_dir_all(folder.join(format!("{i:04}"))).unwrap();
        std::fs::write(folder.join(format!("{i:04}/original.gif")), b"GIF89a").unwrap();
    }
    let store = open(&server.url(""), server.options());
    let listed = keys(&*store).await;
    assert_eq!(listed.len(), 1003);
    assert_eq!((listed[0].as_str(), listed[1002].as_str()), ("gifs/0000/original.gif", "gifs/1002/original.gif"));
}

#[tokio::test]
async fn objects_that_are_not_blobs_are_not_listed() {
    let server = S3TestServer::start();
    let bucket = server.dir.path().join(&server.bucket);
    std::fs::create_dir_all(bucket.join("gifs/a")).unwrap();
    std::fs::write(bucket.join("gifs/a/original.gif"), b"GIF89a").unwrap();
    std::fs::write(bucket.join("gifs/a/.hidden"), b"x").unwrap();
    std::fs::write(bucket.join("gifs/a/with space.gif"), b"x").unwrap();
    let store = open(&server.url(""), server.options());
    assert_eq!(keys(&*store).await, ["gifs/a/original.gif"]);
}

#[tokio::test]
async fn a_wrong_secret_is_an_io_error_that_does_not_show_the_credentials() {
    let server = S3TestServer::start();
    let mut options = server.options();
    options.secret_access_key = Some(SecretString::from("not-the-secret-4711"));
    let store = open(&server.url(""), options);
    let results = [
        store.put("gifs/a/original.gif", b"GIF89a".to_vec(), "image/gif").await.err(),
        store.get("gifs/a/original.gif").await.err(),
        store.delete("gifs/a/original.gif").await.err(),
        store.list().await.err(),
    ];
    for result in results {
        match result {
            Some(BlobError::Io(cause)) => {
                let message = cause.to_string();
                assert!(message.contains("access denied"), "{message}");
                for secret in ["not-the-secret-4711", &server.access_key, &server.secret_key] {
                    assert!(!message.contains(secret), "{message} shows {secret}");
                }
            }
            other => panic!("expected Io, got {other:?}"),
        }
    }
    assert!(!server.dir.path().join(&server.bucket).join("gifs").exists(), "nothing was written");
}

#[tokio::test]
async fn listing_a_missing_bucket_is_an_io_error() {
    let server = S3TestServer::start();
    let store = open("s3://no-such-bucket", server.options());
    assert!(matches!(store.list().await, Err(BlobError::Io(m)) if m.to_string().contains("no-such-bucket")));
}

#[tokio::test]
async fn a_closed_port_fails_fast() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    // The production defaults: 5 s to connect, 60 s a request, 2 retries.
    let store = open("s3://gifs", options_for(format!("http://127.0.0.1:{port}")));
    let started = Instant::now();
    assert!(matches!(store.get("gifs/a/original.gif").await, Err(BlobError::Io(_))));
    assert!(matches!(store.list().await, Err(BlobError::Io(_))));
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
}

#[tokio::test]
async fn a_silent_endpoint_times_out() {
    // Connections are accepted by the kernel, and nothing ever answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut options = options_for(format!("http://{}", listener.local_addr().unwrap()));
    options.request_timeout = Duration::from_millis(800);
    options.max_retries = 1;
    let store = open("s3://gifs", options);
    let started = Instant::now();
    assert!(matches!(store.get("gifs/a/original.gif").await, Err(BlobError::Io(_))));
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_millis(800) && elapsed < Duration::from_secs(5), "took {elapsed:?}");
}

#[tokio::test]
async fn invalid_keys_are_refused_before_any_request() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let mut options = options_for(format!("http://{}", listener.local_addr().unwrap()));
    options.request_timeout = Duration::from_millis(300);
    options.max_retries = 0;
    let store = open("s3://gifs/prefix", options);
    for key in ["../prefix2/x", "", "a//b", "/x", "a b"] {
        assert!(matches!(store.get(key).await, Err(BlobError::Io(m)) if m.to_string().contains("refused")), "{key:?}");
        assert!(
            matches!(store.put(key, vec![1], "x").await, Err(BlobError::Io(m)) if m.to_string().contains("refused"))
        );
        assert!(matches!(store.delete(key).await, Err(BlobError::Io(m)) if m.to_string().contains("refused")));
    }
    assert!(listener.accept().is_err(), "no connection was opened");
    // The check above can see a request: a valid key does connect.
    assert!(matches!(store.get("gifs/a/original.gif").await, Err(BlobError::Io(_))));
    assert!(listener.accept().is_ok(), "a valid key reached the endpoint");
}

#[test]
fn urls() {
    let s3 = StorageOptions::default().s3;
    let dir = tempfile::tempdir().unwrap();
    assert!(gifshelf_storage::open(&format!("file://{}", dir.path().join("m").display()), &StorageOptions::default())
        .is_ok());
    for (url, ok) in [
        ("s3://gifs", true),
        ("s3://gifs/", true),
        ("s3://gifs/a/b", true),
        ("s3://", false),
        ("s3://Gifs", false),
        ("s3://gifs/../x", false),
        ("s3://gifs/a b", false),
        ("file://", false),
        ("ftp://gifs", false),
        ("gifs", false),
    ] {
        let result = gifshelf_storage::open(url, &StorageOptions { s3: s3.clone() });
        assert_eq!(result.is_ok(), ok, "{url}: {:?}", result.err());
    }
    let message = gifshelf_storage::open("gs://gifs", &StorageOptions::default()).err().unwrap_or_default();
    assert!(message.contains("file://") && message.contains("s3://"), "{message}");
}
