//! API keys over HTTP: made (shown once, stored as a digest), listed without the secret, revoked
//! by their owner only.

use gifshelf_domain::ports::ApiKeyRepository;
use gifshelf_http::dto::{ApiErrorBody, ApiKeyDto, CreatedApiKeyDto};
use reqwest::StatusCode;
use serde_json::json;
use sha2::Digest;

use crate::helpers::{dto_of, error_of, send, Backend, TestApp};
use crate::{app, on_both_backends};

async fn keys_are_made_once_listed_without_the_secret_and_revoked_by_their_owner(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;

    let created: CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &json!({"name": "  Team chat "})).await, StatusCode::CREATED).await;
    assert_eq!(created.name, "Team chat");
    assert!(created.key.starts_with("gs_") && created.key.len() >= 40, "{}", created.key);

    // Stored as its SHA-256: the digest finds it, the key itself is nowhere in the database.
    let digest = hex::encode(sha2::Sha256::digest(created.key.as_bytes()));
    let stored = app.database().key_by_digest(&digest).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stored.id.0, created.id);
    if let Backend::Sqlite = backend {
        // The database file and its write-ahead log, byte for byte.
        let file = app.database_url().trim_start_matches("sqlite://").to_owned();
        let mut bytes = Vec::new();
        for path in [file.clone(), format!("{file}-wal")] {
            bytes.extend(std::fs::read(&path).unwrap_or_default());
        }
        assert!(!bytes.is_empty(), "the SQLite files were not found");
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(&created.key[3..]), "the key itself is stored");
        assert!(text.contains(&digest), "the digest is not stored");
    }

    let listed: Vec<ApiKeyDto> = dto_of(alice.get("/api/keys").await, StatusCode::OK).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].id, listed[0].name.as_str(), listed[0].last_used_at.as_deref()),
        (created.id, "Team chat", None)
    );
    assert!(created.key.starts_with(&listed[0].prefix) && listed[0].prefix.len() < 12);
    let raw = alice.get("/api/keys").await.text().await.unwrap_or_default();
    assert!(!raw.contains(&created.key), "a list shows the secret");

    // Bob sees none of it and cannot revoke it.
    let bobs: Vec<ApiKeyDto> = dto_of(bob.get("/api/keys").await, StatusCode::OK).await;
    assert!(bobs.is_empty());
    error_of(bob.delete(&format!("/api/keys/{}", created.id)).await, StatusCode::NOT_FOUND, "not_found").await;

    // Bad names and strangers.
    error_of(alice.post_json("/api/keys", &json!({"name": " "})).await, StatusCode::BAD_REQUEST, "validation").await;
    let long = alice.post_json("/api/keys", &json!({"name": "k".repeat(51)})).await;
    assert_eq!(long.status(), StatusCode::BAD_REQUEST);
    assert_eq!(app.anonymous().get("/api/keys").await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.anonymous().post_json("/api/keys", &json!({"name": "x"})).await.status(), StatusCode::UNAUTHORIZED);

    // Revoked: gone at once.
    assert_eq!(alice.delete(&format!("/api/keys/{}", created.id)).await.status(), StatusCode::NO_CONTENT);
    assert!(app.database().key_by_digest(&digest).await.is_err());
    let after: Vec<ApiKeyDto> = dto_of(alice.get("/api/keys").await, StatusCode::OK).await;
    assert!(after.is_empty());
}

async fn a_person_holds_at_most_twenty_keys(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    for n in 0..20 {
        assert_eq!(
            alice.post_json("/api/keys", &json!({"name": format!("key {n}")})).await.status(),
            StatusCode::CREATED
        );
    }
    let over: ApiErrorBody =
        dto_of(alice.post_json("/api/keys", &json!({"name": "one more"})).await, StatusCode::CONFLICT).await;
    assert!(over.error.contains("Revoke one"), "{over:?}");
}

/// A Tenor search with `key` (none when empty) from `address`, as a trusted proxy reports it.
async fn search_from(app: &TestApp, key: &str, address: &str) -> StatusCode {
    let path = if key.is_empty() {
        "/api/tenor/v2/search?q=x".to_owned()
    } else {
        format!("/api/tenor/v2/search?q=x&key={key}")
    };
    let request = app.anonymous().request(reqwest::Method::GET, &path).header("x-forwarded-for", address);
    send(request).await.status()
}

async fn chat_rates_are_per_owner_per_64_and_failed_keys_per_address(backend: Backend) {
    let app = app!(
        backend,
        &[
            ("GIFSHELF_CHAT_API_RATE_LIMIT", "2"),
            ("GIFSHELF_CHAT_API_ANONYMOUS", "true"),
            ("GIFSHELF_TRUST_PROXY", "true")
        ]
    );
    let alice = app.user("alice").await;
    let mut keys = Vec::new();
    for name in ["one", "two"] {
        let created: CreatedApiKeyDto =
            dto_of(alice.post_json("/api/keys", &json!({"name": name})).await, StatusCode::CREATED).await;
        keys.push(created.key);
    }
    // One owner, one rate: a second key does not double it.
    assert_eq!(search_from(&app, &keys[0], "203.0.113.1").await, StatusCode::OK);
    assert_eq!(search_from(&app, &keys[1], "203.0.113.2").await, StatusCode::OK);
    assert_eq!(search_from(&app, &keys[1], "203.0.113.3").await, StatusCode::TOO_MANY_REQUESTS);
    // Anonymous callers count per IPv6 /64: other addresses of the block share its rate.
    assert_eq!(search_from(&app, "", "2001:db8:5:6::1").await, StatusCode::OK);
    assert_eq!(search_from(&app, "", "2001:db8:5:6::2").await, StatusCode::OK);
    assert_eq!(search_from(&app, "", "2001:db8:5:6:ffff::3").await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(search_from(&app, "", "2001:db8:5:7::1").await, StatusCode::OK);
    // Guessed keys count against the guessing block; past twenty a minute even a good key is
    // refused from there (not looked up), and nowhere else.
    app.pass_seconds(61);
    for n in 0..20 {
        let guess = format!("gs_guess{n}");
        assert_eq!(search_from(&app, &guess, &format!("2001:db8:9:9::{n:x}")).await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(search_from(&app, &keys[0], "2001:db8:9:9::abc").await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(search_from(&app, &keys[0], "2001:db8:9:a::1").await, StatusCode::OK);
    app.pass_seconds(61);
    assert_eq!(search_from(&app, &keys[0], "2001:db8:9:9::abc").await, StatusCode::OK);
}

on_both_backends!(
    keys_are_made_once_listed_without_the_secret_and_revoked_by_their_owner,
    a_person_holds_at_most_twenty_keys,
    chat_rates_are_per_owner_per_64_and_failed_keys_per_address
);
