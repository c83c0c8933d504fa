use gifshelf_http::dto::{CreatedApiKeyDto, ProfileDto, TokenResponse};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{dto_of, error_of, json_of, Backend, Client, TestApp};
use crate::{app, on_both_backends};

async fn profile_is_read_and_renaming_ends_old_sessions(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    app.user("bob").await;
    // The exact wire shape of a profile.
    let profile = json_of(alice.get("/api/settings/profile").await, StatusCode::OK).await;
    assert_eq!(profile, json!({"username": "alice", "email": "alice@example.com", "hasPassword": true}));

    let taken = alice.put_json("/api/settings/profile", &json!({"username": "Bob", "email": null})).await;
    assert_eq!(error_of(taken, StatusCode::CONFLICT, "username_taken").await, "Username is already taken");
    let short = alice.put_json("/api/settings/profile", &json!({"username": "al"})).await;
    assert_eq!(
        error_of(short, StatusCode::BAD_REQUEST, "validation").await,
        "Username must be between 3 and 50 characters"
    );
    let bad_email = alice.put_json("/api/settings/profile", &json!({"username": "alice", "email": "nope"})).await;
    error_of(bad_email, StatusCode::BAD_REQUEST, "validation").await;
    let bobs_email =
        alice.put_json("/api/settings/profile", &json!({"username": "alice", "email": "bob@example.com"})).await;
    assert_eq!(error_of(bobs_email, StatusCode::CONFLICT, "email_taken").await, "Email is already registered");

    // Settings allow up to 50 characters, registration only 20.
    let long_name = "a".repeat(50);
    let renamed = alice.put_json("/api/settings/profile", &json!({"username": long_name, "email": null})).await;
    let renamed: ProfileDto = dto_of(renamed, StatusCode::OK).await;
    assert_eq!((renamed.username.as_str(), renamed.email.as_str()), (long_name.as_str(), "alice@example.com"));

    // The old token names a user that no longer exists under that name.
    error_of(alice.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    error_of(app.login("alice", "secret1").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let fresh = app.sign_in(&long_name, "secret1").await;
    let profile: ProfileDto = fresh.read("/api/settings/profile").await;
    assert_eq!(profile.username, long_name);
}

async fn password_change_ends_other_sessions_and_keeps_this_one(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let mismatch = alice
        .put_json(
            "/api/settings/password",
            &json!({"currentPassword": "secret1", "newPassword": "newsecret", "confirmPassword": "newsecreT"}),
        )
        .await;
    assert_eq!(error_of(mismatch, StatusCode::BAD_REQUEST, "validation").await, "New passwords do not match");
    let short = alice
        .put_json(
            "/api/settings/password",
            &json!({"currentPassword": "secret1", "newPassword": "abc", "confirmPassword": "abc"}),
        )
        .await;
    assert_eq!(error_of(short, StatusCode::BAD_REQUEST, "validation").await, "Password must be at least 6 characters");
    // The current password is asked for, and must be right.
    let missing = alice
        .put_json("/api/settings/password", &json!({"newPassword": "newsecret", "confirmPassword": "newsecret"}))
        .await;
    assert_eq!(error_of(missing, StatusCode::BAD_REQUEST, "validation").await, "Enter your current password");
    let wrong = alice
        .put_json(
            "/api/settings/password",
            &json!({"currentPassword": "secret2", "newPassword": "newsecret", "confirmPassword": "newsecret"}),
        )
        .await;
    assert_eq!(error_of(wrong, StatusCode::BAD_REQUEST, "validation").await, "Current password is incorrect");
    app.sign_in("alice", "secret1").await;
    let profile: ProfileDto = alice.read("/api/settings/profile").await;
    assert!(profile.has_password);
    let old_key = chat_key(&alice).await;
    chat_search(&app, &old_key, StatusCode::OK).await;

    // Tokens carry whole seconds: the old one is strictly older than the change.
    app.pass_seconds(2);
    let changed = alice
        .put_json(
            "/api/settings/password",
            &json!({"currentPassword": "secret1", "newPassword": "newsecret", "confirmPassword": "newsecret"}),
        )
        .await;
    let fresh: TokenResponse = dto_of(changed, StatusCode::OK).await;

    error_of(alice.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let fresh = app.with_token(&fresh.token);
    let profile: ProfileDto = fresh.read("/api/settings/profile").await;
    assert_eq!(profile.username, "alice");
    error_of(app.login("alice", "secret1").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    app.sign_in("alice", "newsecret").await;
    // A key made before the change no longer opens the chat APIs; one made after does.
    chat_search(&app, &old_key, StatusCode::UNAUTHORIZED).await;
    app.pass_seconds(1);
    chat_search(&app, &chat_key(&fresh).await, StatusCode::OK).await;
}

async fn chat_key(client: &Client) -> String {
    let created: CreatedApiKeyDto =
        dto_of(client.post_json("/api/keys", &json!({"name": "chat"})).await, StatusCode::CREATED).await;
    created.key
}

async fn chat_search(app: &TestApp, key: &str, status: StatusCode) {
    let answer = app.anonymous().get(&format!("/api/tenor/v2/search?q=party&key={key}")).await;
    assert_eq!(answer.status(), status, "key {key}");
}

on_both_backends!(
    profile_is_read_and_renaming_ends_old_sessions,
    password_change_ends_other_sessions_and_keeps_this_one
);
