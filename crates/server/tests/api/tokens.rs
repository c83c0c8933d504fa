use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::{encode, EncodingKey, Header};
use reqwest::StatusCode;
use serde_json::json;

use gifshelf_http::dto::ProfileDto;

use crate::helpers::{claims_of, error_of, Backend, SECRET};
use crate::{app, on_both_backends};

/// Claims as JSON, untyped on purpose: the tests forge tokens with claims ours never have.
fn mint(claims: &serde_json::Value, secret: &str) -> String {
    encode(&Header::default(), claims, &EncodingKey::from_secret(secret.as_bytes())).unwrap_or_default()
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

async fn protected_calls_refuse_missing_and_bad_tokens(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let message =
        error_of(app.anonymous().get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert_eq!(message, "No authentication token");

    let valid_claims = json!({"sub": "alice", "roles": "ROLE_USER,ROLE_ADMIN", "iat": now(), "exp": now() + 3600});
    let parts: Vec<&str> = alice.token().split('.').collect();
    let tampered_payload = URL_SAFE_NO_PAD
        .encode(json!({"sub": "bob", "roles": "ROLE_USER", "iat": now(), "exp": now() + 3600}).to_string());
    let alg_none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#),
        URL_SAFE_NO_PAD.encode(valid_claims.to_string())
    );
    let bad = [
        "garbage".to_owned(),
        "a.b.c".to_owned(),
        format!("{}.{}.{}", parts[0], tampered_payload, parts[2]),
        alg_none,
        mint(&valid_claims, "another-secret-another-secret-another-secret"),
        mint(&json!({"sub": "alice", "roles": "ROLE_USER", "iat": now()}), SECRET),
        mint(&json!({"sub": "alice", "roles": "ROLE_USER", "iat": now(), "exp": "later"}), SECRET),
    ];
    for bad_token in &bad {
        let forger = app.with_token(bad_token);
        error_of(forger.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    let expired =
        mint(&json!({"sub": "alice", "roles": "ROLE_USER", "iat": now() - 7200, "exp": now() - 3600}), SECRET);
    let expired = app.with_token(&expired);
    let message = error_of(expired.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "token_expired").await;
    assert_eq!(message, "Token expired");

    // The real token still works, and a correctly signed token is trusted for its subject.
    let profile: ProfileDto = alice.read("/api/settings/profile").await;
    assert_eq!(profile.username, "alice");
    let minted: ProfileDto = app.with_token(&mint(&valid_claims, SECRET)).read("/api/settings/profile").await;
    assert_eq!(minted.username, "alice");
}

async fn a_session_expires_when_its_lifetime_has_passed(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_TOKEN_TTL_HOURS", "1")]);
    let alice = app.user("alice").await;
    let claims = claims_of(alice.token());
    assert_eq!(claims.exp - claims.iat, 3600, "the configured lifetime");
    app.pass_seconds(3600 - 60);
    let _: ProfileDto = alice.read("/api/settings/profile").await;
    app.pass_seconds(120);
    let message = error_of(alice.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "token_expired").await;
    assert_eq!(message, "Token expired");
    // Signing in again gives a session of the full lifetime from the server's time.
    let again = app.sign_in("alice", "secret1").await;
    let _: ProfileDto = again.read("/api/settings/profile").await;
}

async fn token_of_an_unknown_user_is_refused(backend: Backend) {
    let app = app!(backend);
    app.user("alice").await;
    let ghost = app
        .with_token(&mint(&json!({"sub": "ghost", "roles": "ROLE_USER", "iat": now(), "exp": now() + 3600}), SECRET));
    error_of(ghost.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

on_both_backends!(
    protected_calls_refuse_missing_and_bad_tokens,
    a_session_expires_when_its_lifetime_has_passed,
    token_of_an_unknown_user_is_refused
);
