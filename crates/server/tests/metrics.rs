//! `GET /metrics` of a `gifshelf serve` process (the counters are the process's own): after a
//! known sequence of requests and one queued job, the counters say so; a connection from an
//! address not allowed is refused (whatever `X-Forwarded-For` claims) unless it has the token.
#![allow(clippy::unwrap_used)]

use gifshelf_media::testing::animated_gif;
use gifshelf_testkit::{ServerEnv, ServerProcess};
use reqwest::StatusCode;
use serde_json::json;

fn start(dir: &std::path::Path, extra: &[(&str, &str)]) -> ServerProcess {
    let data = dir.join("data");
    let web = gifshelf_testkit::bare_web_dir(dir).unwrap();
    let env = extra
        .iter()
        .fold(ServerEnv::new(&data, &web, &gifshelf_testkit::sqlite_url(&data)), |env, (k, v)| env.set(k, *v));
    env.spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.join("gifshelf.log")).unwrap()
}

/// The value of the sample `name{labels}` (labels in the exporter's order), if present.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test]
async fn counters_follow_the_requests_and_the_job_queue() {
    let dir = tempfile::tempdir().unwrap();
    // Only the renditions job is counted here: the text reading's job is another test's.
    let server = start(dir.path(), &[("GIFSHELF_TESSERACT", "off")]);
    let client = reqwest::Client::new();
    let url = |path: &str| format!("{}{path}", server.url());
    for _ in 0..3 {
        assert_eq!(client.get(url("/api/health/live")).send().await.unwrap().status(), StatusCode::OK);
    }
    assert_eq!(client.get(url("/api/gifs/dto/12345")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
    let body = json!({"username": "alice", "email": "alice@example.com", "password": "correct-horse-1", "confirmPassword": "correct-horse-1"});
    let registered = client.post(url("/api/auth/register")).json(&body).send().await.unwrap();
    assert_eq!(registered.status(), StatusCode::CREATED);
    let login = json!({"username": "alice", "password": "correct-horse-1"});
    let session: serde_json::Value =
        client.post(url("/api/auth/login")).json(&login).send().await.unwrap().json().await.unwrap();
    let token = session["token"].as_str().unwrap().to_owned();
    let file = reqwest::multipart::Part::bytes(animated_gif(64, 48, 3)).file_name("cat.gif").mime_str("image/gif");
    let data = json!({"title": "cat", "description": "", "tags": []}).to_string();
    let data = reqwest::multipart::Part::text(data).mime_str("application/json").unwrap();
    let form = reqwest::multipart::Form::new().part("file", file.unwrap()).part("gifData", data);
    let upload = client.post(url("/api/gifs")).bearer_auth(&token).multipart(form).send().await.unwrap();
    assert_eq!(upload.status(), StatusCode::CREATED);

    let text = client.get(url("/metrics")).send().await.unwrap().text().await.unwrap();
    let count = |series: &str| sample(&text, series).unwrap_or_else(|| panic!("no {series} in\n{text}"));
    assert_eq!(count(r#"http_requests_total{method="GET",route="/api/health/live",status="200"}"#), 3.0);
    assert_eq!(count(r#"http_requests_total{method="GET",route="/api/gifs/dto/{id}",status="401"}"#), 1.0);
    assert_eq!(count(r#"http_requests_total{method="POST",route="/api/gifs",status="201"}"#), 1.0);
    assert_eq!(count(r#"gifshelf_uploads_total{status="201"}"#), 1.0);
    assert_eq!(count("gifshelf_upload_duration_seconds_count"), 1.0);
    assert_eq!(
        count(r#"http_request_duration_seconds_count{method="GET",route="/api/health/live"}"#),
        3.0,
        "a latency histogram per route"
    );
    assert_eq!(count(r#"gifshelf_jobs{state="queued"}"#), 1.0, "the upload's renditions job (no workers)");
    assert_eq!(count(r#"gifshelf_jobs_by_kind{kind="make_renditions",state="queued"}"#), 1.0);
    assert_eq!(count(r#"gifshelf_jobs_by_kind{kind="make_renditions",state="running"}"#), 0.0);
    let age = count(r#"gifshelf_job_oldest_queued_seconds{kind="make_renditions"}"#);
    assert!((0.0..600.0).contains(&age), "the job waits since the upload: {age} s");
    assert!(count(r#"gifshelf_db_pool_connections{state="idle"}"#) >= 1.0);
    assert!(!text.contains("12345"), "route patterns, never raw paths");

    // The dashboard reads these series (those counted on a first error or chat call aside).
    let dashboard =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/grafana-dashboard.json")).unwrap();
    let names = dashboard
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with("http_") || word.starts_with("gifshelf_"))
        .filter(|name| {
            !matches!(
                *name,
                "gifshelf_db_errors_total"
                    | "gifshelf_chat_api_requests_total"
                    | "gifshelf_storage_errors_total"
                    | "gifshelf_program_run_seconds_bucket"
                    | "gifshelf_program_run_seconds_count"
                    | "gifshelf_program_run_seconds_sum"
            )
        });
    for name in names {
        assert!(text.lines().any(|line| line.starts_with(name)), "the dashboard reads {name}, not in\n{text}");
    }
}

#[tokio::test]
async fn other_addresses_need_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(
        dir.path(),
        &[
            ("GIFSHELF_METRICS_ALLOW", "10.9.9.9, 192.168.0.0/16"),
            ("GIFSHELF_METRICS_TOKEN", "metrics-token-0123456789"),
        ],
    );
    let client = reqwest::Client::new();
    let get = || client.get(format!("{}/metrics", server.url()));
    let refused = get().header("x-forwarded-for", "10.9.9.9").send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN, "judged by the connection, not a header");
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "forbidden");
    assert_eq!(get().bearer_auth("wrong-token").send().await.unwrap().status(), StatusCode::FORBIDDEN);
    let allowed = get().bearer_auth("metrics-token-0123456789").send().await.unwrap();
    assert_eq!(allowed.status(), StatusCode::OK);
    assert!(allowed.text().await.unwrap().contains("http_requests_total"));
}

/// Signs up and signs in `alice`; answers her token.
async fn alice(client: &reqwest::Client, base: &str) -> String {
    let body = json!({"username": "alice", "email": "alice@example.com", "password": "correct-horse-1", "confirmPassword": "correct-horse-1"});
    let registered = client.post(format!("{base}/api/auth/register")).json(&body).send().await.unwrap();
    assert_eq!(registered.status(), StatusCode::CREATED);
    let login = json!({"username": "alice", "password": "correct-horse-1"});
    let session: serde_json::Value =
        client.post(format!("{base}/api/auth/login")).json(&login).send().await.unwrap().json().await.unwrap();
    session["token"].as_str().unwrap().to_owned()
}

async fn upload(client: &reqwest::Client, base: &str, token: &str) -> reqwest::Response {
    let file = reqwest::multipart::Part::bytes(animated_gif(64, 48, 3)).file_name("cat.gif").mime_str("image/gif");
    let data = json!({"title": "cat", "description": "", "tags": []}).to_string();
    let data = reqwest::multipart::Part::text(data).mime_str("application/json").unwrap();
    let form = reqwest::multipart::Form::new().part("file", file.unwrap()).part("gifData", data);
    client.post(format!("{base}/api/gifs")).bearer_auth(token).multipart(form).send().await.unwrap()
}

/// A job run by a worker: ffmpeg's run times by outcome, and the queue of its kind empty again.
#[tokio::test]
#[cfg_attr(not(ffmpeg_tests), ignore = "no ffmpeg when the tests were built")]
async fn ffmpeg_runs_are_timed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), &[("GIFSHELF_WORKERS", "1"), ("GIFSHELF_JOB_POLL_MS", "50")]);
    let client = reqwest::Client::new();
    let token = alice(&client, &server.url()).await;
    assert_eq!(upload(&client, &server.url(), &token).await.status(), StatusCode::CREATED);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let text = client.get(format!("{}/metrics", server.url())).send().await.unwrap().text().await.unwrap();
        let ran = sample(&text, r#"gifshelf_program_run_seconds_count{program="ffmpeg",outcome="ok"}"#);
        let queued = sample(&text, r#"gifshelf_jobs_by_kind{kind="make_renditions",state="queued"}"#);
        let running = sample(&text, r#"gifshelf_jobs_by_kind{kind="make_renditions",state="running"}"#);
        if ran.is_some_and(|n| n >= 1.0) && queued == Some(0.0) && running == Some(0.0) {
            assert!(sample(&text, r#"gifshelf_program_run_seconds_sum{program="ffmpeg",outcome="ok"}"#) > Some(0.0));
            assert_eq!(sample(&text, r#"gifshelf_job_oldest_queued_seconds{kind="make_renditions"}"#), Some(0.0));
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the renditions job never showed in\n{text}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// A store that fails (its folder replaced by a file) is counted by operation.
#[tokio::test]
async fn storage_failures_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), &[]);
    let client = reqwest::Client::new();
    let token = alice(&client, &server.url()).await;
    let media = dir.path().join("data/media");
    std::fs::remove_dir_all(&media).unwrap();
    std::fs::write(&media, b"not a folder").unwrap();
    let refused = upload(&client, &server.url(), &token).await;
    assert!(refused.status().is_server_error(), "the store cannot keep it: {}", refused.status());
    let text = client.get(format!("{}/metrics", server.url())).send().await.unwrap().text().await.unwrap();
    let failures = sample(&text, r#"gifshelf_storage_errors_total{operation="put"}"#);
    assert!(failures >= Some(1.0), "no put failure counted in\n{text}");
}
