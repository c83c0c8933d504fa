//! What the process-level tests (crash, jobs, logs) share: the `gifshelf` binary with a quiet,
//! isolated configuration, a free port, a child killed on drop, and waiting for health.
//! Each test file uses a part of it.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process, killed (SIGKILL: nothing graceful) and reaped on drop.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// `GIFSHELF_FFMPEG` for a server under test: the `ffmpeg` found when the tests were built (the
/// cfg `ffmpeg_tests`), else `off`, so what the tests expect of videos is fixed at build time.
pub const FFMPEG: &str = match option_env!("GIFSHELF_TEST_FFMPEG") {
    Some(path) => path,
    None => "off",
};

/// `gifshelf` with nothing from the test's environment but `PATH`: its data (and web) folder,
/// `secret` to sign sessions, cheap password hashes, two HTTP workers, no job workers, and the
/// [`FFMPEG`] of the tests.
pub fn gifshelf(data: &Path, secret: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gifshelf"));
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("GIFSHELF_DATA_DIR", data)
        .env("GIFSHELF_WEB_DIR", data)
        .env("GIFSHELF_JWT_SECRET", secret)
        .env("GIFSHELF_BCRYPT_COST", "4")
        .env("GIFSHELF_HTTP_WORKERS", "2")
        .env("GIFSHELF_WORKERS", "0")
        .env("GIFSHELF_FFMPEG", FFMPEG)
        .stdin(Stdio::null());
    command
}

/// Waits (at most a minute) until `GET {url}/api/health` answers 2xx.
pub async fn wait_healthy(url: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !reqwest::get(format!("{url}/api/health")).await.is_ok_and(|r| r.status().is_success()) {
        assert!(Instant::now() < deadline, "the server did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Registers alice (once; a second call only signs in) and answers her session token.
pub async fn sign_in_alice(client: &reqwest::Client, url: &str) -> String {
    let body = serde_json::json!({
        "username": "alice", "email": "alice@example.com", "password": "secret1", "confirmPassword": "secret1"
    });
    let _ = client.post(format!("{url}/api/auth/register")).json(&body).send().await;
    let login = client
        .post(format!("{url}/api/auth/login"))
        .json(&serde_json::json!({"username": "alice", "password": "secret1"}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(login.status().is_success(), "alice could not sign in: {}", login.status());
    let body: gifshelf_http::dto::TokenResponse = login.json().await.unwrap_or_else(|e| panic!("{e}"));
    body.token
}
