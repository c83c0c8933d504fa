//! Crash safety: the server is killed with SIGKILL at each step of an upload (the fail points of
//! `gifshelf_domain::failpoint`, compiled into test builds only), restarted later, and after
//! `gifshelf fsck` rows and blobs match exactly: a GIF exists with all its files or not at all, and
//! no temp file is left. On SQLite and on PostgreSQL.

use std::collections::BTreeSet;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use gifshelf_db::testing::TestDb;
use gifshelf_domain::failpoint::{BLOB_AFTER_RENAME, BLOB_AFTER_WRITE, UPLOAD_AFTER_COMMIT};
use gifshelf_domain::ports::{BlobKeyIndex, BlobStore};
use gifshelf_http::dto::PagedGifs;
use gifshelf_media::testing::animated_gif;
use gifshelf_testkit::{ServerEnv, ServerProcess};
use serde_json::json;

mod common;

use common::{sign_in_alice, GIFSHELF};

/// The settings of the server and of fsck: the test's database, `data` for its files.
fn env(db_url: &str, data: &Path) -> ServerEnv {
    ServerEnv::new(data, data, db_url).set("GIFSHELF_LOG", "warn")
}

/// A `gifshelf serve` killed with SIGKILL at `fail_at`, if given; ready to be asked. Its log is
/// `server.log` in `data`.
fn start(db_url: &str, data: &Path, fail_at: Option<&str>) -> ServerProcess {
    let env = match fail_at {
        Some(point) => env(db_url, data).set("GIFSHELF_FAIL_AT", point),
        None => env(db_url, data),
    };
    env.spawn(GIFSHELF, &data.join("server.log")).unwrap_or_else(|e| panic!("{e}"))
}

async fn upload(client: &reqwest::Client, url: &str, token: &str) -> reqwest::Result<reqwest::Response> {
    let part = reqwest::multipart::Part::bytes(animated_gif(64, 48, 4))
        .file_name("cat.gif")
        .mime_str("image/gif")
        .unwrap_or_else(|e| panic!("{e}"));
    let form = reqwest::multipart::Form::new()
        .part("file", part)
        .text("gifData", json!({"title": "Cat", "description": "", "tags": ["cats"]}).to_string());
    client.post(format!("{url}/api/gifs")).bearer_auth(token).multipart(form).send().await
}

/// Moves every file's modification time two hours back: "later", past fsck's grace periods.
fn age(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let old = SystemTime::now() - Duration::from_secs(2 * 3600);
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            age(&path);
        } else {
            std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_modified(old))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default()
}

/// Kills the server at `point` during an upload and checks what is left after restart and fsck.
/// Returns how many GIFs survived.
async fn crash_at(db: &TestDb, point: &str) -> usize {
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let client = reqwest::Client::new();
    let mut server = start(&db.url, data.path(), Some(point));
    let token = sign_in_alice(&client, &server.url()).await;
    // The process dies mid-request: the client sees the connection go, never an answer.
    let answer = upload(&client, &server.url(), &token).await;
    assert!(answer.is_err(), "{point}: the upload was answered: {answer:?}");
    let status = server.wait().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.signal(), Some(9), "{point}: killed by SIGKILL at the fail point");

    // Later: an operator (or the next start) runs fsck.
    let media = data.path().join("media");
    age(&media);
    let fsck = env(&db.url, data.path()).command(GIFSHELF).arg("fsck").output().unwrap_or_else(|e| panic!("{e}"));
    assert!(fsck.status.success(), "{point}: fsck failed: {}", String::from_utf8_lossy(&fsck.stderr));

    // Rows and blobs match exactly, and no temp file is left.
    let store = gifshelf_storage::LocalFolder::new(&media).unwrap_or_else(|e| panic!("{e}"));
    let stored: BTreeSet<String> =
        store.list().await.unwrap_or_else(|e| panic!("{e}")).into_iter().map(|b| b.key).collect();
    let referenced: BTreeSet<String> =
        db.db.all_blob_keys().await.unwrap_or_else(|e| panic!("{e}")).into_iter().collect();
    assert_eq!(stored, referenced, "{point}: rows and blobs differ after fsck");
    assert_eq!(files_in(&media.join(".partial")), Vec::<PathBuf>::new(), "{point}: temp files left");

    // A restarted server serves whatever survived, completely.
    let server = start(&db.url, data.path(), None);
    let page: PagedGifs = client
        .get(format!("{}/api/gifs/dtos?page=0&size=10", server.url()))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .json()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let gifs = page.content;
    for gif in &gifs {
        for rendition in ["content", "thumbnail", "static-thumbnail"] {
            let url = format!("{}/api/gifs/{rendition}/{}", server.url(), gif.id);
            let response = client.get(&url).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}"));
            assert!(response.status().is_success(), "{point}: {url} is {}", response.status());
        }
    }
    assert_eq!(referenced.len(), gifs.len() * 3, "{point}: three files per listed GIF");
    gifs.len()
}

async fn every_point(db: impl Fn(&str) -> Option<TestDb>) {
    let cases = [
        (BLOB_AFTER_WRITE.to_owned(), 0),
        (format!("{BLOB_AFTER_WRITE}#2"), 0),
        (BLOB_AFTER_RENAME.to_owned(), 0),
        (format!("{BLOB_AFTER_RENAME}#3"), 0),
        (UPLOAD_AFTER_COMMIT.to_owned(), 1),
    ];
    for (point, survivors) in cases {
        let Some(db) = db(&point) else { return };
        assert_eq!(crash_at(&db, &point).await, survivors, "{point}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_every_upload_step_loses_nothing_on_sqlite() {
    every_point(|_| Some(TestDb::sqlite())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn sigkill_at_every_upload_step_loses_nothing_on_postgres() {
    every_point(|_| TestDb::postgres("crash")).await;
}
