use std::collections::HashMap;

use gifshelf_db::testing::TestDb;
use gifshelf_server::{Application, Settings};
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

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
    pub client: reqwest::Client,
    pub data_dir: std::path::PathBuf,
    _data: tempfile::TempDir,
    _db: TestDb,
}

impl TestApp {
    /// `None` when the backend is PostgreSQL and no test server is configured (outside CI).
    pub async fn spawn(backend: Backend, extra: &[(&str, &str)]) -> Option<Self> {
        let db = match backend {
            Backend::Sqlite => TestDb::sqlite(),
            Backend::Postgres => TestDb::postgres("api")?,
        };
        let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let web = data.path().join("web");
        std::fs::create_dir_all(&web).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(web.join("index.html"), INDEX_HTML).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(web.join("app.js"), "console.log('hi')").unwrap_or_else(|e| panic!("{e}"));
        let mut vars: HashMap<String, String> = [
            ("GIFSHELF_BIND", "127.0.0.1:0".to_owned()),
            ("GIFSHELF_DATA_DIR", data.path().join("data").display().to_string()),
            ("GIFSHELF_DATABASE_URL", db.url.clone()),
            ("GIFSHELF_WEB_DIR", web.display().to_string()),
            ("GIFSHELF_BCRYPT_COST", "4".to_owned()),
            ("GIFSHELF_WORKERS", "2".to_owned()),
            ("GIFSHELF_DB_MAX_CONNECTIONS", "4".to_owned()),
            ("GIFSHELF_JWT_SECRET", SECRET.to_owned()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        for (k, v) in extra {
            vars.insert((*k).to_owned(), (*v).to_owned());
        }
        let settings = Settings::from_sources(None, |name| vars.get(name).cloned()).unwrap_or_else(|e| panic!("{e}"));
        let app = Application::build(&settings).unwrap_or_else(|e| panic!("{e}"));
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        let data_dir = data.path().join("data");
        Some(Self { address, client, data_dir, _data: data, _db: db })
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.get(self.url(path));
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        req.send().await.unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }

    pub async fn send_json(&self, method: reqwest::Method, path: &str, token: Option<&str>, body: &Value) -> Response {
        let mut req = self.client.request(method, self.url(path)).json(body);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        req.send().await.unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Response {
        self.send_json(reqwest::Method::POST, path, None, body).await
    }

    pub async fn put_json(&self, path: &str, token: &str, body: &Value) -> Response {
        self.send_json(reqwest::Method::PUT, path, Some(token), body).await
    }

    pub async fn register(&self, username: &str, password: &str) -> Response {
        self.post_json(
            "/api/auth/register",
            &json!({"username": username, "email": format!("{username}@example.com"), "password": password, "confirmPassword": password}),
        )
        .await
    }

    pub async fn login(&self, username: &str, password: &str) -> Response {
        self.post_json("/api/auth/login", &json!({"username": username, "password": password})).await
    }

    /// Registers and signs in; returns the token.
    pub async fn signed_in(&self, username: &str) -> String {
        let registered = self.register(username, "secret1").await;
        assert_eq!(registered.status(), StatusCode::CREATED, "register {username}");
        let body = json_of(self.login(username, "secret1").await, StatusCode::OK).await;
        body["token"].as_str().unwrap_or_default().to_owned()
    }
}

/// Asserts the status and returns the JSON body.
pub async fn json_of(response: Response, status: StatusCode) -> Value {
    let actual = response.status();
    let text = response.text().await.unwrap_or_default();
    assert_eq!(actual, status, "body: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Asserts an error response: status, `{error, code}` and nothing else.
pub async fn error_of(response: Response, status: StatusCode, code: &str) -> String {
    assert_eq!(
        response.headers().get("content-type").and_then(|v| v.to_str().ok()),
        Some("application/json"),
        "errors are JSON"
    );
    let body = json_of(response, status).await;
    assert_eq!(body["code"], code, "{body}");
    let object = body.as_object().map(|o| o.len());
    assert_eq!(object, Some(2), "only error and code: {body}");
    body["error"].as_str().unwrap_or_default().to_owned()
}

/// The claims of a token, without checking it.
pub fn claims_of(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap_or_default();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap_or_default();
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

/// Declares each test on both backends.
#[macro_export]
macro_rules! api_tests {
    ($(async fn $name:ident($backend:ident: Backend) $body:block)*) => {
        $(
            mod $name {
                use super::*;
                async fn run($backend: Backend) $body

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    run(Backend::Sqlite).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
                async fn postgres() {
                    run(Backend::Postgres).await;
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
    /// Uploads `bytes` as `file` (named `name`) with the form as `gifData`.
    pub async fn upload(
        &self,
        token: &str,
        name: &str,
        bytes: Vec<u8>,
        title: &str,
        description: &str,
        tags: &[&str],
    ) -> Response {
        let data = json!({"title": title, "description": description, "tags": tags});
        let form = reqwest::multipart::Form::new()
            .part(
                "file",
                reqwest::multipart::Part::bytes(bytes)
                    .file_name(name.to_owned())
                    .mime_str("image/gif")
                    .unwrap_or_else(|e| panic!("{e}")),
            )
            .part(
                "gifData",
                reqwest::multipart::Part::text(data.to_string())
                    .mime_str("application/json")
                    .unwrap_or_else(|e| panic!("{e}")),
            );
        self.client
            .post(self.url("/api/gifs"))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .unwrap_or_else(|e| panic!("upload: {e}"))
    }

    /// Uploads a small animated GIF and returns its JSON.
    pub async fn upload_gif(&self, token: &str, title: &str, description: &str, tags: &[&str]) -> Value {
        json_of(
            self.upload(token, "cat.gif", animated_gif(64, 48, 3), title, description, tags).await,
            StatusCode::CREATED,
        )
        .await
    }

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

/// A `w`×`h` animated GIF with `frames` frames of different colours, 10 cs apart, looping forever.
pub fn animated_gif(w: u16, h: u16, frames: u8) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, w, h, &palette).unwrap_or_else(|e| panic!("{e}"));
        encoder.set_repeat(gif::Repeat::Infinite).unwrap_or_else(|e| panic!("{e}"));
        for k in 0..frames {
            let pixels: Vec<u8> =
                (0..usize::from(w) * usize::from(h)).map(|i| (i as u8).wrapping_add(k.wrapping_mul(40))).collect();
            let mut frame = gif::Frame::from_indexed_pixels(w, h, pixels, None);
            frame.delay = 10;
            encoder.write_frame(&frame).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    out
}

/// A `w`×`h` PNG.
pub fn png(w: u32, h: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba([x as u8, y as u8, 128, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap_or_else(|e| panic!("{e}"));
    out.into_inner()
}

/// 62-ish bytes declaring a 65535×65535 canvas with one 1×1 frame.
pub fn canvas_bomb() -> Vec<u8> {
    let mut bytes = b"GIF89a".to_vec();
    bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x80, 0, 0]);
    bytes.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
    bytes.extend_from_slice(&[0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b]);
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
