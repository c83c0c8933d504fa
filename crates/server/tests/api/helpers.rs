use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use gifshelf_auth::{Claims, ManualClock};
use gifshelf_db::testing::TestDb;
use gifshelf_http::dto::{GifDto, LoginRequest, ProfileDto, RegisterRequest, TokenResponse};
use gifshelf_server::{Application, Settings};
use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// The password of every account made by [`TestApp::user`].
pub const PASSWORD: &str = "secret1";
/// A build file named after its content hash, as webpack writes them under `assets/`.
pub const HASHED_ASSET: &str = "main.3f2a9c1d.js";

/// Its content: script-like and repetitive, as a bundle compresses.
pub fn hashed_asset() -> String {
    (0..400).map(|i| format!("export const value{i} = () => document.querySelector('#card-{i}');\n")).collect()
}
pub const SECRET: &str = "test-secret-test-secret-test-secret-0123456789";
pub const INDEX_HTML: &str = "<!doctype html><html><head><script>document.documentElement.dataset.theme='light'</script></head><body><div id=\"root\">gifshelf spa</div></body></html>";

#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A running server on a free port with its own data folder and database.
pub struct TestApp {
    pub address: String,
    /// A plain HTTP client (no redirects followed), for requests built entirely by hand.
    pub http: reqwest::Client,
    pub data_dir: std::path::PathBuf,
    /// The server's clock: it follows the real time until a test moves it past a time window.
    pub clock: ManualClock,
    /// GIFs `upload_gif` sent through any client of this app: each gets different pixels (the
    /// library refuses byte-identical uploads).
    gifs_sent: Arc<AtomicU32>,
    _data: tempfile::TempDir,
    _db: TestDb,
}

impl TestApp {
    /// `None` when the backend is PostgreSQL and no test server is configured (outside CI).
    pub async fn spawn(backend: Backend, extra: &[(&str, &str)]) -> Option<Self> {
        Some(Self::spawn_on(Self::database_for(backend)?, extra).await)
    }

    /// A fresh database of `backend`, migrated, for a test that stores rows before the server starts
    /// (as an earlier version left them); `None` as for [`Self::spawn`].
    pub fn database_for(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => Some(TestDb::sqlite()),
            Backend::Postgres => TestDb::postgres("api"),
        }
    }

    /// [`Self::spawn`] on a database made by [`Self::database_for`].
    pub async fn spawn_on(db: TestDb, extra: &[(&str, &str)]) -> Self {
        let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let web = data.path().join("web");
        std::fs::create_dir_all(&web).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(web.join("index.html"), INDEX_HTML).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(web.join("app.js"), "console.log('hi')").unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(web.join("assets")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(web.join("assets").join(HASHED_ASSET), hashed_asset()).unwrap_or_else(|e| panic!("{e}"));
        // The settings of every server under test (no job workers unless a test asks: renditions
        // tests do, and wait for them), a small pool, and the secret the tests sign tokens with.
        let mut vars: HashMap<String, String> =
            gifshelf_testkit::base_vars(&data.path().join("data"), &web, &db.url).into_iter().collect();
        vars.insert("GIFSHELF_DB_MAX_CONNECTIONS".to_owned(), "4".to_owned());
        vars.insert("GIFSHELF_JWT_SECRET".to_owned(), SECRET.to_owned());
        for (k, v) in extra {
            vars.insert((*k).to_owned(), (*v).to_owned());
        }
        let settings = Settings::from_sources(None, |name| vars.get(name).cloned()).unwrap_or_else(|e| panic!("{e}"));
        let clock = ManualClock::running();
        let app = Application::build_with_clock(&settings, Arc::new(clock.clone())).unwrap_or_else(|e| panic!("{e}"));
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        let data_dir = data.path().join("data");
        Self { address, http, data_dir, clock, gifs_sent: Arc::default(), _data: data, _db: db }
    }

    /// Moves the server's clock `secs` seconds on, as if that much time had passed.
    pub fn pass_seconds(&self, secs: i64) {
        self.clock.advance(chrono::Duration::seconds(secs));
    }

    /// The app's database, for checks of what is stored (never to set up state an API can set up).
    pub fn database(&self) -> &gifshelf_db::Database {
        &self._db.db
    }

    /// Someone without a session.
    pub fn anonymous(&self) -> Client {
        Client {
            http: self.http.clone(),
            address: self.address.clone(),
            token: None,
            gifs_sent: Arc::clone(&self.gifs_sent),
        }
    }

    /// A client that sends `token` as it is (forged, expired, another provider's…).
    pub fn with_token(&self, token: &str) -> Client {
        Client { token: Some(token.to_owned()), ..self.anonymous() }
    }

    /// Registers `username` (password [`PASSWORD`], email `<username>@example.com`) and signs in.
    pub async fn user(&self, username: &str) -> Client {
        let _: ProfileDto = dto_of(self.register(username, PASSWORD).await, StatusCode::CREATED).await;
        self.sign_in(username, PASSWORD).await
    }

    /// The server's administrator: the first account registered, so call this before [`Self::user`].
    pub async fn admin(&self) -> Client {
        let admin = self.user("admin").await;
        assert_eq!(
            claims_of(admin.token()).roles,
            "ROLE_USER,ROLE_ADMIN",
            "the first account is the admin: call app.admin() before app.user()"
        );
        admin
    }

    /// Signs in with a password and returns the client holding the new token.
    pub async fn sign_in(&self, username: &str, password: &str) -> Client {
        let session: TokenResponse = dto_of(self.login(username, password).await, StatusCode::OK).await;
        self.with_token(&session.token)
    }

    pub async fn register(&self, username: &str, password: &str) -> Response {
        let body = RegisterRequest {
            username: username.to_owned(),
            email: format!("{username}@example.com"),
            password: password.to_owned(),
            confirm_password: password.to_owned(),
            invite: None,
        };
        self.anonymous().post_json("/api/auth/register", &body).await
    }

    pub async fn login(&self, username: &str, password: &str) -> Response {
        let body = LoginRequest { username: username.to_owned(), password: password.to_owned() };
        self.anonymous().post_json("/api/auth/login", &body).await
    }
}

/// Someone calling the API over HTTP: anonymous, or signed in with the token it holds.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    address: String,
    token: Option<String>,
    gifs_sent: Arc<AtomicU32>,
}

impl Client {
    /// The bearer token this client sends (empty when anonymous).
    pub fn token(&self) -> &str {
        self.token.as_deref().unwrap_or_default()
    }

    /// A request to `path` carrying this client's token, for raw control of headers and bodies.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let request = self.http.request(method, format!("{}{path}", self.address));
        match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }

    pub async fn get(&self, path: &str) -> Response {
        send(self.request(Method::GET, path)).await
    }

    /// A `POST` without a body (the parameters are in the query).
    pub async fn post(&self, path: &str) -> Response {
        send(self.request(Method::POST, path)).await
    }

    pub async fn post_json(&self, path: &str, body: &impl Serialize) -> Response {
        send(self.request(Method::POST, path).json(body)).await
    }

    pub async fn put(&self, path: &str) -> Response {
        send(self.request(Method::PUT, path)).await
    }

    pub async fn put_json(&self, path: &str, body: &impl Serialize) -> Response {
        send(self.request(Method::PUT, path).json(body)).await
    }

    pub async fn delete(&self, path: &str) -> Response {
        send(self.request(Method::DELETE, path)).await
    }

    /// `GET path`, asserting a 200, read as `T`.
    pub async fn read<T: DeserializeOwned>(&self, path: &str) -> T {
        dto_of(self.get(path).await, StatusCode::OK).await
    }

    /// One GIF's detail (which counts a view).
    pub async fn gif(&self, id: i64) -> GifDto {
        self.read(&format!("/api/gifs/dto/{id}")).await
    }

    /// Uploads `bytes` as `file` (named `name`) with the form as `gifData`.
    pub async fn upload(&self, name: &str, bytes: Vec<u8>, title: &str, description: &str, tags: &[&str]) -> Response {
        let data = json!({"title": title, "description": description, "tags": tags});
        let file = reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_owned())
            .mime_str("image/gif")
            .unwrap_or_else(|e| panic!("{e}"));
        let data = reqwest::multipart::Part::text(data.to_string())
            .mime_str("application/json")
            .unwrap_or_else(|e| panic!("{e}"));
        let form = reqwest::multipart::Form::new().part("file", file).part("gifData", data);
        send(self.request(Method::POST, "/api/gifs").multipart(form)).await
    }

    /// A small animated GIF (64×48, 3 frames) no other upload of this app sent: the library refuses
    /// byte-identical uploads.
    pub fn fresh_gif(&self) -> Vec<u8> {
        numbered_gif(self.gifs_sent.fetch_add(1, Ordering::Relaxed))
    }

    /// Uploads a small animated GIF: `animated_gif(64, 48, 3)` the first time in this app, then
    /// [`numbered_gif`]s (the library refuses byte-identical uploads).
    pub async fn upload_gif(&self, title: &str, description: &str, tags: &[&str]) -> GifDto {
        let response = self.upload("cat.gif", self.fresh_gif(), title, description, tags).await;
        dto_of(response, StatusCode::CREATED).await
    }
}

/// Sends a request built by hand.
/// Runs `work` and, until it is done, `probe` again and again (at least once): for "the server
/// keeps answering while …" checks that need no sleep to line the two up. Answers the work's
/// output and the slowest probe.
pub async fn probing_while<T, F: std::future::Future<Output = ()>>(
    work: impl std::future::Future<Output = T>,
    probe: impl Fn() -> F,
) -> (T, std::time::Duration) {
    let done = std::sync::atomic::AtomicBool::new(false);
    let work = async {
        let out = work.await;
        done.store(true, Ordering::SeqCst);
        out
    };
    let probes = async {
        let mut slowest = std::time::Duration::ZERO;
        loop {
            let asked = std::time::Instant::now();
            probe().await;
            slowest = slowest.max(asked.elapsed());
            if done.load(Ordering::SeqCst) {
                return slowest;
            }
        }
    };
    tokio::join!(work, probes)
}

pub async fn send(request: RequestBuilder) -> Response {
    let described = format!("{request:?}");
    request.send().await.unwrap_or_else(|e| panic!("{described}: {e}"))
}

/// Asserts the status and reads the body as `T` (a DTO of `gifshelf_http::dto`).
pub async fn dto_of<T: DeserializeOwned>(response: Response, status: StatusCode) -> T {
    let actual = response.status();
    let text = response.text().await.unwrap_or_default();
    assert_eq!(actual, status, "body: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not a {} ({e}): {text}", std::any::type_name::<T>()))
}

/// Asserts the status and returns the JSON body untyped, for tests of the wire shape itself.
pub async fn json_of(response: Response, status: StatusCode) -> Value {
    dto_of(response, status).await
}

/// Asserts an error response: status, `{error, code}` and nothing else.
pub async fn error_of(response: Response, status: StatusCode, code: &str) -> String {
    assert_eq!(
        response.headers().get("content-type").and_then(|v| v.to_str().ok()),
        Some("application/json"),
        "errors are JSON"
    );
    // Untyped on purpose: the check is that the body has these two keys and no other.
    let body = json_of(response, status).await;
    assert_eq!(body["code"], code, "{body}");
    let object = body.as_object().map(|o| o.len());
    assert_eq!(object, Some(2), "only error and code: {body}");
    body["error"].as_str().unwrap_or_default().to_owned()
}

/// The claims of one of our tokens, without checking its signature.
pub fn claims_of(token: &str) -> Claims {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap_or_default();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap_or_default();
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("not our token's claims ({e}): {token}"))
}

/// Runs each named test, a plain `async fn NAME(backend: Backend)` of the calling module that rustfmt
/// formats, on a fresh SQLite file and on a fresh PostgreSQL database, as `NAME::sqlite` and
/// `NAME::postgres`. The PostgreSQL half is compiled as ignored (reported as skipped, never as
/// passed) when `GIFSHELF_TEST_POSTGRES_URL` is not set.
///
/// ```ignore
/// async fn counts_follow_uploads(backend: Backend) { let app = app!(backend); /* … */ }
/// on_both_backends!(counts_follow_uploads);
/// ```
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name($crate::helpers::Backend::Sqlite).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[cfg_attr(
                    not(postgres_tests),
                    ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run"
                )]
                async fn postgres() {
                    super::$name($crate::helpers::Backend::Postgres).await;
                }
            }
        )*
    };
}

/// Starts the app or returns from the test (PostgreSQL not configured outside CI).
#[macro_export]
macro_rules! app {
    ($backend:expr) => {
        app!($backend, &[])
    };
    ($backend:expr, $extra:expr) => {
        match $crate::helpers::TestApp::spawn($backend, $extra).await {
            Some(app) => app,
            None => return,
        }
    };
}

impl TestApp {
    /// Every file under the media folder (blobs and partial writes).
    pub fn stored_files(&self) -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            if let Ok(entries) = std::fs::read_dir(dir) {
                for entry in entries.flatten() {
                    let path = entry.path();
                    if path.is_dir() {
                        walk(&path, out);
                    } else {
                        out.push(path.display().to_string());
                    }
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.data_dir.join("media"), &mut out);
        out
    }
}

/// The shared image builders of `gifshelf-media`'s `testing` feature.
pub use gifshelf_media::testing::{animated_gif, canvas_bomb, png};

/// `animated_gif(64, 48, 3)` with colour 255 of its palette changed to `n` (unchanged for 0): a
/// different file each, a few pixels of another shade.
pub fn numbered_gif(n: u32) -> Vec<u8> {
    let mut bytes = animated_gif(64, 48, 3);
    if n > 0 {
        // Header (6), screen descriptor (7), then the global table: entry 255 at 13 + 765.
        let [_, a, b, c] = n.to_be_bytes();
        bytes[13 + 765..13 + 768].copy_from_slice(&[a, b, c]);
    }
    bytes
}

impl TestApp {
    /// The database this app runs on (for tests that lock it from outside or inspect it).
    pub fn database_url(&self) -> &str {
        &self._db.url
    }

    /// `host:port` of the server, for raw TCP clients.
    pub fn socket_address(&self) -> &str {
        self.address.trim_start_matches("http://")
    }
}

/// The token-threading calls that predate [`Client`], kept for the test files written with them
/// (collections, favourites, duplicates, links, jobs); new tests use the clients.
impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    fn client_for(&self, token: Option<&str>) -> Client {
        token.map_or_else(|| self.anonymous(), |t| self.with_token(t))
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        self.client_for(token).get(path).await
    }

    pub async fn send_json(&self, method: Method, path: &str, token: Option<&str>, body: &Value) -> Response {
        send(self.client_for(token).request(method, path).json(body)).await
    }

    /// Registers and signs in; returns the token.
    pub async fn signed_in(&self, username: &str) -> String {
        self.user(username).await.token().to_owned()
    }

    pub async fn upload(
        &self,
        token: &str,
        name: &str,
        bytes: Vec<u8>,
        title: &str,
        description: &str,
        tags: &[&str],
    ) -> Response {
        self.with_token(token).upload(name, bytes, title, description, tags).await
    }

    /// Uploads a small animated GIF and returns it.
    pub async fn upload_gif(&self, token: &str, title: &str, description: &str, tags: &[&str]) -> GifDto {
        let n = self.gifs_sent.fetch_add(1, Ordering::Relaxed);
        let response = self.upload(token, "cat.gif", numbered_gif(n), title, description, tags).await;
        dto_of(response, StatusCode::CREATED).await
    }
}
