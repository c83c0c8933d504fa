//! Log hygiene: a whole session against a real `gifshelf serve` process, then its log is searched
//! for every secret that went over the wire (passwords, session tokens, a third-party ID token) and
//! checked to hold the request id of every 5xx response.

use std::path::Path;

use gifshelf_auth::testing::FakeOidcProvider;
use gifshelf_http::dto::{ApiErrorBody, ErrorCode, TokenResponse};
use gifshelf_media::testing::tiny_gif;
use gifshelf_testkit::{free_port, ServerEnv, ServerProcess, SECRET as JWT_SECRET};
use serde_json::{json, Value};

const CLIENT_ID: &str = "log-test.apps.example.com";
const PASSWORD: &str = "hunter2-Sup3r-Secret";
const NEW_PASSWORD: &str = "c0rrect-H0rse-Battery";
const S3_SECRET: &str = "s3-secret-key-never-logged-0123456789";

/// The server, its log at `debug` in `log`, its sessions signed with [`JWT_SECRET`], signing in
/// with `issuer`, and its media on an S3 endpoint nobody listens on.
fn start(log: &Path, data: &Path, issuer: &str) -> ServerProcess {
    ServerEnv::new(data, data, &gifshelf_testkit::sqlite_url(data))
        // As chatty as an operator would run it when debugging.
        .set("GIFSHELF_LOG", "debug")
        .set("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT_ID)
        .set("GIFSHELF_OIDC_ISSUER", issuer)
        // Media go to an S3 endpoint nobody listens on: uploads fail with a 500.
        .set("GIFSHELF_STORAGE_URL", "s3://media-bucket/gifs")
        .set("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{}", free_port()))
        .set("AWS_ACCESS_KEY_ID", "AKIALOGTEST")
        .set("AWS_SECRET_ACCESS_KEY", S3_SECRET)
        .set("GIFSHELF_S3_FORCE_PATH_STYLE", "true")
        .set("GIFSHELF_S3_ALLOW_HTTP", "true")
        .spawn(env!("CARGO_BIN_EXE_gifshelf"), log)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Two uploads that fail on the dead object store: each a 5xx with an internal error code, no
/// internals in the answer, and an X-Request-Id, whose values are returned.
async fn failed_upload_request_ids(client: &reqwest::Client, base: &str, fresh: &str) -> Vec<String> {
    let mut failed_ids = Vec::new();
    for _ in 0..2 {
        let part = reqwest::multipart::Part::bytes(tiny_gif(2))
            .file_name("x.gif")
            .mime_str("image/gif")
            .unwrap_or_else(|e| panic!("{e}"));
        let form = reqwest::multipart::Form::new()
            .part("file", part)
            .text("gifData", json!({"title": "t", "description": "", "tags": []}).to_string());
        let response = client
            .post(format!("{base}/api/gifs"))
            .bearer_auth(fresh)
            .multipart(form)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(response.status().is_server_error(), "{}", response.status());
        let id = response.headers().get("x-request-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let body: ApiErrorBody = response.json().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(body.code, ErrorCode::Internal, "{body:?}");
        assert!(!body.error.contains("127.0.0.1"), "no internals in the answer: {body:?}");
        failed_ids.push(id.unwrap_or_else(|| panic!("a 5xx without X-Request-Id")));
    }
    failed_ids
}

/// An API key, then chat API requests carrying it in the query (Tenor's `key`, GIPHY's `api_key`)
/// and in the path (`/api/k/{key}/…`), answered and refused: returns the key.
async fn chat_requests_with_a_key(client: &reqwest::Client, base: &str, token: &str) -> String {
    let created: Value = client
        .post(format!("{base}/api/keys"))
        .bearer_auth(token)
        .json(&json!({"name": "log test"}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .json()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let key = created["key"].as_str().unwrap_or_default().to_owned();
    assert!(key.starts_with("gs_"), "{created}");
    for path in [
        format!("/api/tenor/v2/search?q=cat&key={key}"),
        format!("/api/giphy/v1/gifs/trending?api_key={key}"),
        format!("/api/k/{key}/gifbox/trending"),
        format!("/api/k/{key}x/tenor/v2/featured"),
        format!("/api/tenor/v2/featured?key={key}x"),
    ] {
        let answer = client.get(format!("{base}{path}")).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert!(answer.status().is_success() || answer.status() == 401, "{path}: {}", answer.status());
    }
    key
}

/// The captured log holds none of the secrets, and every 5xx request id on an error line.
fn assert_log_is_clean(log: &Path, secrets: &[(String, String)], failed_ids: Vec<String>) {
    let text = std::fs::read_to_string(log).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.contains("signed in"), "the log was captured: {} bytes", text.len());
    assert!(text.contains("/api/k/[redacted]/") && text.contains("key=[redacted]"), "request targets are logged");
    for (name, secret) in secrets {
        assert!(!secret.is_empty() && !text.contains(secret.as_str()), "the log contains the {name}");
    }
    for id in failed_ids {
        assert!(
            text.lines().any(|line| line.contains(&id) && (line.contains("ERROR") || line.contains("500"))),
            "the 5xx with request id {id} is not in the log"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_hold_no_secrets_and_every_5xx_request_id() {
    let provider = FakeOidcProvider::start().await;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let log = dir.path().join("server.log");
    let server = start(&log, dir.path(), provider.issuer());
    let base = server.url();
    let client = reqwest::Client::new();

    let post = |path: &str, body: Value, token: Option<&str>| {
        let mut request = client.post(format!("{base}{path}")).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let token_of = |body: Option<TokenResponse>| body.map(|b| b.token).unwrap_or_default();
    let mut secrets: Vec<(String, String)> =
        vec![("password".into(), PASSWORD.into()), ("new password".into(), NEW_PASSWORD.into())];
    secrets.push(("S3 secret".into(), S3_SECRET.into()));
    secrets.push(("JWT secret".into(), JWT_SECRET.into()));

    // Register, a failed and a good login, a password change, a third-party sign-in.
    let registered = post(
        "/api/auth/register",
        json!({"username": "mallory", "email": "m@example.com", "password": PASSWORD, "confirmPassword": PASSWORD}),
        None,
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(registered.status(), 201);
    let bad = post("/api/auth/login", json!({"username": "mallory", "password": "wrong-Guess-123"}), None).await;
    assert!(bad.is_ok_and(|r| r.status() == 401));
    secrets.push(("wrong password".into(), "wrong-Guess-123".into()));
    let login = post("/api/auth/login", json!({"username": "mallory", "password": PASSWORD}), None)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let token = token_of(login.json().await.ok());
    assert!(!token.is_empty());
    let change = client
        .put(format!("{base}/api/settings/password"))
        .bearer_auth(&token)
        .json(&json!({"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(change.status(), 200);
    let fresh = token_of(change.json().await.ok());
    // Requests that carry tokens in headers, good and forged.
    for bearer in [token.clone(), fresh.clone(), format!("{fresh}x")] {
        let answer = client.get(format!("{base}/api/settings/profile")).bearer_auth(bearer).send().await;
        assert!(answer.is_ok());
    }
    let id_token = provider.mint(&provider.claims(CLIENT_ID, "sub-log", "log@example.com", true));
    let google = post("/api/auth/google", json!({"token": id_token}), None).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(google.status(), 200);
    let google_token = token_of(google.json().await.ok());
    let refused = post("/api/auth/google", json!({"token": format!("{id_token}x")}), None).await;
    assert!(refused.is_ok_and(|r| r.status() == 401));
    for (name, token) in [("session token", &token), ("fresh token", &fresh), ("Google session", &google_token)] {
        secrets.push((name.into(), token.clone()));
        // A signature alone is as good as the token for forging nothing, but it identifies it.
        secrets.push((format!("{name} signature"), token.rsplit('.').next().unwrap_or_default().to_owned()));
    }
    secrets.push(("ID token".into(), id_token.clone()));
    secrets.push(("ID token signature".into(), id_token.rsplit('.').next().unwrap_or_default().to_owned()));

    secrets.push(("API key".into(), chat_requests_with_a_key(&client, &base, &fresh).await));
    // Uploads fail on the dead object store: 5xx responses with request ids.
    let failed_ids = failed_upload_request_ids(&client, &base, &fresh).await;
    drop(server);

    assert_log_is_clean(&log, &secrets, failed_ids);
}

/// `GIFSHELF_LOG_FORMAT=json`: every line is one JSON object, and a line logged while a request
/// is handled carries that request's id (the `X-Request-Id` it was answered with).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_carry_the_request_id_on_every_line_of_a_request() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (data, log) = (dir.path().join("data"), dir.path().join("server.log"));
    let server = ServerEnv::new(&data, dir.path(), &gifshelf_testkit::sqlite_url(&data))
        .set("GIFSHELF_LOG_FORMAT", "json")
        .set("GIFSHELF_LOG", "info")
        .spawn(env!("CARGO_BIN_EXE_gifshelf"), &log)
        .unwrap_or_else(|e| panic!("{e}"));
    // A store that refuses writes: the readiness check logs a warning inside the request.
    let media = data.join("media");
    std::fs::remove_dir_all(&media).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&media, "not a folder").unwrap_or_else(|e| panic!("{e}"));
    let answer = reqwest::get(format!("{}/api/health/ready", server.url())).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(answer.status(), 503);
    let id = answer.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert_eq!(id.len(), 36, "a request id");
    let text = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<Value> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    assert!(lines.iter().any(|l| l["message"].as_str().is_some_and(|m| m.contains("listening"))), "{text}");
    let of_request: Vec<&Value> =
        lines.iter().filter(|l| l["message"].as_str().is_some_and(|m| m.starts_with("readiness:"))).collect();
    assert!(!of_request.is_empty(), "the readiness warning is logged: {text}");
    for line in of_request {
        assert_eq!(line["span"]["request_id"].as_str(), Some(id.as_str()), "{line}");
        assert_eq!(line["level"], "WARN", "{line}");
    }
}
