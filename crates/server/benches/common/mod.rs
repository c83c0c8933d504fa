//! What the server's benches share: an account on the server they started.

use serde_json::{json, Value};

/// Registers `username` (password `secret1`).
pub async fn register(client: &reqwest::Client, base: &str, username: &str) {
    let body = json!({"username": username, "email": format!("{username}@example.com"), "password": "secret1", "confirmPassword": "secret1"});
    let registered = client.post(format!("{base}/api/auth/register")).json(&body).send().await.unwrap();
    assert!(registered.status().is_success(), "register: {}", registered.status());
}

/// Signs `username` in; returns the token.
pub async fn log_in(client: &reqwest::Client, base: &str, username: &str) -> String {
    let login: Value = client
        .post(format!("{base}/api/auth/login"))
        .json(&json!({"username": username, "password": "secret1"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    login["token"].as_str().unwrap().to_owned()
}

/// [`register`] then [`log_in`].
#[allow(dead_code, reason = "the api bench makes its account an admin between the two steps")]
pub async fn sign_in(client: &reqwest::Client, base: &str, username: &str) -> String {
    register(client, base, username).await;
    log_in(client, base, username).await
}
