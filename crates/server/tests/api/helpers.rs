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
            (
                "GIFSHELF_DATA_DIR",
                data.path().join("data").display().to_string(),
            ),
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
        let settings = Settings::from_sources(None, |name| vars.get(name).cloned())
            .unwrap_or_else(|e| panic!("{e}"));
        let app = Application::build(&settings).unwrap_or_else(|e| panic!("{e}"));
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        Some(Self {
            address,
            client,
            _data: data,
            _db: db,
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut req = self.client.get(self.url(path));
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        req.send()
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }

    pub async fn send_json(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> Response {
        let mut req = self.client.request(method, self.url(path)).json(body);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        req.send().await.unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Response {
        self.send_json(reqwest::Method::POST, path, None, body)
            .await
    }

    pub async fn put_json(&self, path: &str, token: &str, body: &Value) -> Response {
        self.send_json(reqwest::Method::PUT, path, Some(token), body)
            .await
    }

    pub async fn register(&self, username: &str, password: &str) -> Response {
        self.post_json(
            "/api/auth/register",
            &json!({"username": username, "email": format!("{username}@example.com"), "password": password, "confirmPassword": password}),
        )
        .await
    }

    pub async fn login(&self, username: &str, password: &str) -> Response {
        self.post_json(
            "/api/auth/login",
            &json!({"username": username, "password": password}),
        )
        .await
    }

    /// Registers and signs in; returns the token.
    pub async fn signed_in(&self, username: &str) -> String {
        let registered = self.register(username, "secret1").await;
        assert_eq!(
            registered.status(),
            StatusCode::CREATED,
            "register {username}"
        );
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
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
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
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap_or_default();
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
