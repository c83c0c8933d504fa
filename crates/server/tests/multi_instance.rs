//! Scale-out (docs/operations.md, "Running several instances"): two `gifshelf serve` processes on two loopback ports sharing one
//! PostgreSQL database and one S3 bucket. Started together on an empty database they migrate it
//! once; then whatever is done through one is seen, served and deletable through the other.
//!
//! Runs when `GIFSHELF_TEST_POSTGRES_URL` is set (always in CI); the bucket is the loopback S3 test
//! server. Each process logs to a file whose end is printed when the test fails.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection, RunQueryDsl};
use gifshelf_db::testing::TestDb;
use gifshelf_http::dto::{GifDto, HealthDto, PagedGifs, ProfileDto, TokenResponse};
use gifshelf_media::testing::animated_gif;
use gifshelf_storage::testing::S3TestServer;
use gifshelf_storage::StorageOptions;
use gifshelf_testkit::{ServerEnv, ServerProcess, Starting};
use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde_json::json;

const PREFIX: &str = "media";

/// One `gifshelf serve` child process with its own data folder; killed when dropped (also when
/// the test panics, and then the end of its log is printed).
struct Instance {
    name: &'static str,
    server: ServerProcess,
    _dir: tempfile::TempDir,
}

/// An instance started, not yet ready: see [`Instance::ready`].
struct Launched {
    name: &'static str,
    starting: Starting,
    dir: tempfile::TempDir,
}

impl Instance {
    /// Starts the binary on the shared database and bucket; `shared_secret: false` leaves
    /// `GIFSHELF_JWT_SECRET` unset. Returns at once: see [`Instance::ready`].
    fn launch(name: &'static str, db_url: &str, s3: &S3TestServer, shared_secret: bool) -> Launched {
        let dir = tempfile::tempdir().unwrap();
        let web = gifshelf_testkit::bare_web_dir(dir.path()).unwrap();
        let env = ServerEnv::new(&dir.path().join("data"), &web, db_url)
            .set("GIFSHELF_STORAGE_URL", s3.url(PREFIX))
            .set("AWS_ENDPOINT_URL", s3.endpoint.clone())
            .set("AWS_REGION", "us-east-1")
            .set("AWS_ACCESS_KEY_ID", s3.access_key.clone())
            .set("AWS_SECRET_ACCESS_KEY", s3.secret_key.clone())
            .set("GIFSHELF_S3_FORCE_PATH_STYLE", "true")
            .set("GIFSHELF_S3_ALLOW_HTTP", "true")
            .set("GIFSHELF_MEDIA_WORKERS", "1")
            .set("GIFSHELF_DB_MAX_CONNECTIONS", "3")
            .set("GIFSHELF_LOG", "info");
        let env = if shared_secret { env } else { env.unset("GIFSHELF_JWT_SECRET") };
        let starting = env.start(env!("CARGO_BIN_EXE_gifshelf"), &dir.path().join("gifshelf.log")).unwrap();
        Launched { name, starting, dir }
    }

    /// Waits until it answers its health check, which must say the database is ok too.
    async fn ready(launched: Launched, client: &reqwest::Client) -> Self {
        let Launched { name, starting, dir } = launched;
        let server = starting.ready().unwrap_or_else(|e| panic!("instance {name}: {e}"));
        let instance = Self { name, server, _dir: dir };
        let health: HealthDto =
            dto_of(client.get(instance.url("/api/health")).send().await.unwrap(), StatusCode::OK).await;
        assert_eq!((health.status.as_str(), health.database.as_str()), ("ok", "ok"), "instance {name}");
        instance
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url())
    }

    fn log(&self) -> String {
        self.server.log()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("instance {} is pid {}: the end of its log follows", self.name, self.server.pid());
        }
    }
}

/// Empties the test database (it comes migrated), so the instances find a fresh one.
fn reset_to_empty(db_url: &str) {
    let mut conn = PgConnection::establish(db_url).unwrap();
    conn.batch_execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;").unwrap();
}

#[derive(diesel::QueryableByName)]
struct Applied {
    #[diesel(sql_type = diesel::sql_types::Text)]
    version: String,
}

/// The versions in `__diesel_schema_migrations`, in order.
fn applied_migrations(db_url: &str) -> Vec<String> {
    let mut conn = PgConnection::establish(db_url).unwrap();
    let rows: Vec<Applied> =
        diesel::sql_query("SELECT version FROM __diesel_schema_migrations ORDER BY version").load(&mut conn).unwrap();
    rows.into_iter().map(|r| r.version).collect()
}

/// The versions of the embedded PostgreSQL migrations (`2026-11-22-000001_init` is `20261122000001`).
fn expected_migrations() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations/postgres");
    let mut versions: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|entry| {
            let entry = entry.ok()?;
            entry.file_type().ok()?.is_dir().then(|| entry.file_name().to_string_lossy().into_owned())
        })
        .map(|name| name.split('_').next().unwrap_or_default().chars().filter(char::is_ascii_digit).collect())
        .collect();
    versions.sort();
    versions
}

/// Asserts the status and reads the body as `T` (a DTO of `gifshelf_http::dto`).
async fn dto_of<T: DeserializeOwned>(response: reqwest::Response, status: StatusCode) -> T {
    let (actual, url) = (response.status(), response.url().clone());
    let text = response.text().await.unwrap_or_default();
    assert_eq!(actual, status, "{url}: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: not a {} ({e}): {text}", std::any::type_name::<T>()))
}

async fn get_json<T: DeserializeOwned>(client: &reqwest::Client, url: String, token: &str) -> T {
    dto_of(client.get(url).bearer_auth(token).send().await.unwrap(), StatusCode::OK).await
}

async fn bytes(client: &reqwest::Client, url: String, token: &str) -> (StatusCode, Vec<u8>) {
    let response = client.get(url).bearer_auth(token).send().await.unwrap();
    (response.status(), response.bytes().await.unwrap().to_vec())
}

fn titles(page: &PagedGifs) -> Vec<&str> {
    page.content.iter().map(|g| g.title.as_str()).collect()
}

/// The upload made through A is listed, found, opened and served (byte for byte) through B.
async fn b_serves_what_a_uploaded(
    client: &reqwest::Client,
    a: &Instance,
    b: &Instance,
    token: &str,
    id: i64,
    original: &[u8],
) {
    let page: PagedGifs = get_json(client, b.url("/api/gifs/dtos?page=0&size=12"), token).await;
    assert_eq!((titles(&page), page.total_elements), (vec!["Moon landing"], 1));
    let found: PagedGifs = get_json(client, b.url("/api/gifs/dtos/search?q=moon&page=0&size=12"), token).await;
    assert_eq!(titles(&found), ["Moon landing"]);
    let detail: GifDto = get_json(client, b.url(&format!("/api/gifs/dto/{id}")), token).await;
    assert_eq!((detail.title.as_str(), detail.uploaded_by.as_str()), ("Moon landing", "alice"));
    assert_eq!(detail.tags.first().map(|t| t.name.as_str()), Some("space"));
    for rendition in ["content", "thumbnail", "static-thumbnail"] {
        let path = format!("/api/gifs/{rendition}/{id}");
        let (status_b, from_b) = bytes(client, b.url(&path), token).await;
        let (status_a, from_a) = bytes(client, a.url(&path), token).await;
        assert_eq!((status_a, status_b), (StatusCode::OK, StatusCode::OK), "{rendition}");
        assert!(!from_b.is_empty() && from_b == from_a, "{rendition}: B serves what A serves");
    }
    assert_eq!(
        bytes(client, b.url(&format!("/api/gifs/content/{id}")), token).await.1,
        original,
        "the original, byte for byte"
    );
}

/// An edit made through B is what A shows and finds.
async fn edit_on_b_shows_on_a(client: &reqwest::Client, a: &Instance, b: &Instance, token: &str, id: i64) {
    let edit = json!({"title": "Apollo 11", "description": "Tranquility base", "tags": ["space", "history"]});
    let edited = client.put(b.url(&format!("/api/gifs/{id}"))).bearer_auth(token).json(&edit).send().await.unwrap();
    let _: GifDto = dto_of(edited, StatusCode::OK).await;
    let detail: GifDto = get_json(client, a.url(&format!("/api/gifs/dto/{id}")), token).await;
    assert_eq!((detail.title.as_str(), detail.description.as_str()), ("Apollo 11", "Tranquility base"));
    let mut tags: Vec<&str> = detail.tags.iter().map(|t| t.name.as_str()).collect();
    tags.sort_unstable();
    assert_eq!(tags, ["history", "space"]);
    let found: PagedGifs = get_json(client, a.url("/api/gifs/dtos/search?q=apollo"), token).await;
    assert_eq!(titles(&found), ["Apollo 11"]);
}

/// Bob's session, checked through A (and reused there for a few seconds), is refused through A
/// the moment alice (an admin) disables him through B: B's change reaches A by the database's
/// notification, within moments, not when A's reuse runs out.
async fn a_session_ends_everywhere_at_once(client: &reqwest::Client, a: &Instance, b: &Instance, admin: &str) {
    let register =
        json!({"username": "bob", "email": "bob@example.com", "password": "secret1", "confirmPassword": "secret1"});
    assert_eq!(
        client.post(a.url("/api/auth/register")).json(&register).send().await.unwrap().status(),
        StatusCode::CREATED
    );
    let login = json!({"username": "bob", "password": "secret1"});
    let bob: TokenResponse =
        dto_of(client.post(a.url("/api/auth/login")).json(&login).send().await.unwrap(), StatusCode::OK).await;
    for _ in 0..3 {
        let _: ProfileDto = get_json(client, a.url("/api/settings/profile"), &bob.token).await;
    }
    assert!(a.log().contains("listening for account changes"), "A listens:\n{}", a.log());
    let members: serde_json::Value = get_json(client, b.url("/api/admin/users?q=bob"), admin).await;
    let bob_id = members["content"][0]["id"].as_i64().unwrap();
    let off = client
        .put(b.url(&format!("/api/admin/users/{bob_id}")))
        .bearer_auth(admin)
        .json(&json!({"status": "disabled"}))
        .send()
        .await
        .unwrap();
    assert_eq!(off.status(), StatusCode::OK);
    let disabled = std::time::Instant::now();
    loop {
        let status = client.get(a.url("/api/settings/profile")).bearer_auth(&bob.token).send().await.unwrap().status();
        if status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert_eq!(status, StatusCode::OK);
        assert!(disabled.elapsed() < Duration::from_secs(2), "A still let bob in 2 s after B disabled him");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn two_instances_share_one_database_and_one_bucket() {
    let Some(test_db) = TestDb::postgres("multi_instance") else { return };
    reset_to_empty(&test_db.url);
    let s3 = S3TestServer::start();
    let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();

    // Both start at the same moment on the empty database.
    let (a, b) = (Instance::launch("A", &test_db.url, &s3, true), Instance::launch("B", &test_db.url, &s3, true));
    let (a, b) = (Instance::ready(a, &client).await, Instance::ready(b, &client).await);
    assert_eq!(applied_migrations(&test_db.url), expected_migrations(), "each migration applied once");
    let migrated = [&a, &b].iter().filter(|i| i.log().contains("database migrated")).count();
    assert_eq!(migrated, 1, "exactly one instance ran the migrations:\nA:\n{}\nB:\n{}", a.log(), b.log());
    for instance in [&a, &b] {
        assert!(!instance.log().contains("GIFSHELF_JWT_SECRET is not set"), "no secret warning:\n{}", instance.log());
    }

    // An account made and signed in on A is signed in on B.
    let register =
        json!({"username": "alice", "email": "alice@example.com", "password": "secret1", "confirmPassword": "secret1"});
    let registered = client.post(a.url("/api/auth/register")).json(&register).send().await.unwrap();
    assert_eq!(registered.status(), StatusCode::CREATED);
    let login = json!({"username": "alice", "password": "secret1"});
    let session: TokenResponse =
        dto_of(client.post(a.url("/api/auth/login")).json(&login).send().await.unwrap(), StatusCode::OK).await;
    let token = session.token;
    let profile: ProfileDto = get_json(&client, b.url("/api/settings/profile"), &token).await;
    assert_eq!(profile.username, "alice");

    // Uploaded through A: its three files are objects in the shared bucket.
    let original = animated_gif(120, 90, 4);
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(original.clone()).file_name("moon.gif"))
        .part(
            "gifData",
            reqwest::multipart::Part::text(
                json!({"title": "Moon landing", "description": "One small step", "tags": ["space"]}).to_string(),
            ),
        );
    let uploaded: GifDto = dto_of(
        client.post(a.url("/api/gifs")).bearer_auth(&token).multipart(form).send().await.unwrap(),
        StatusCode::CREATED,
    )
    .await;
    let id = uploaded.id;
    let bucket = gifshelf_storage::open(&s3.url(PREFIX), &StorageOptions { s3: s3.options() }).unwrap();
    let objects: Vec<String> = bucket.list().await.unwrap().into_iter().map(|b| b.key).collect();
    assert_eq!(objects.len(), 3, "original, thumbnail and still image in the bucket: {objects:?}");

    // Listed, found, opened and served through B.
    b_serves_what_a_uploaded(&client, &a, &b, &token, id, &original).await;

    // Edited through B, seen through A.
    edit_on_b_shows_on_a(&client, &a, &b, &token, id).await;

    // Deleted through B: gone on A, and its objects gone from the bucket.
    let deleted = client.delete(b.url(&format!("/api/gifs/{id}"))).bearer_auth(&token).send().await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let response = client.get(a.url(&format!("/api/gifs/dto/{id}"))).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(bytes(&client, a.url(&format!("/api/gifs/content/{id}")), &token).await.0, StatusCode::NOT_FOUND);
    let page: PagedGifs = get_json(&client, a.url("/api/gifs/dtos"), &token).await;
    assert_eq!(page.total_elements, 0);
    let left: Vec<String> = bucket.list().await.unwrap().into_iter().map(|b| b.key).collect();
    assert!(left.is_empty(), "no objects left in the bucket: {left:?}");

    // A session A checked a moment ago ends on A as soon as B disables its account.
    a_session_ends_everywhere_at_once(&client, &a, &b, &token).await;

    // A third instance without the shared secret warns at startup, and refuses A's session.
    let c = Instance::ready(Instance::launch("C", &test_db.url, &s3, false), &client).await;
    let warning = c.log().lines().find(|l| l.contains("GIFSHELF_JWT_SECRET is not set")).map(str::to_owned);
    assert!(warning.is_some_and(|l| l.contains("WARN")), "the startup warning:\n{}", c.log());
    let refused = client.get(c.url("/api/settings/profile")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
}
