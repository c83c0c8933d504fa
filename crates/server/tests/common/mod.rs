//! What the process-level tests (crash, jobs) share besides `gifshelf_testkit`, which starts their
//! servers: the binary under test, and signing alice in. Each test file uses a part of it.
#![allow(dead_code)]

/// The `gifshelf` binary built for these tests.
pub const GIFSHELF: &str = env!("CARGO_BIN_EXE_gifshelf");

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
