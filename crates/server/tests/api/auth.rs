use gifshelf_http::dto::{ProfileDto, RegisterRequest, TokenResponse};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{claims_of, dto_of, error_of, json_of, Backend};
use crate::{app, on_both_backends};

fn registration(username: &str, email: &str, password: &str, confirm_password: &str) -> RegisterRequest {
    RegisterRequest {
        username: username.to_owned(),
        email: email.to_owned(),
        password: password.to_owned(),
        confirm_password: confirm_password.to_owned(),
        invite: None,
    }
}

async fn register_then_login_and_first_account_is_admin(backend: Backend) {
    let app = app!(backend);
    // The exact answer of a registration, keys included.
    let body = json_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
    assert_eq!(body, json!({"username": "alice", "email": "alice@example.com", "hasPassword": true}));
    let _: ProfileDto = dto_of(app.register("bob", "secret1").await, StatusCode::CREATED).await;

    let alice: TokenResponse = dto_of(app.login("alice", "secret1").await, StatusCode::OK).await;
    let claims = claims_of(&alice.token);
    assert_eq!(claims.sub, "alice");
    assert_eq!(claims.roles, "ROLE_USER,ROLE_ADMIN");
    assert_eq!(claims.exp - claims.iat, 24 * 3600);

    let bob = app.sign_in("bob", "secret1").await;
    assert_eq!(claims_of(bob.token()).roles, "ROLE_USER");
}

async fn every_registration_rule_is_checked_on_the_server(backend: Backend) {
    let app = app!(backend);
    let anonymous = app.anonymous();
    let (name_21, password_73) = ("a".repeat(21), "x".repeat(73));
    let cases = [
        (registration("ab", "a@b.co", "secret1", "secret1"), "Username must be between 3 and 20 characters"),
        (registration(&name_21, "a@b.co", "secret1", "secret1"), "Username must be between 3 and 20 characters"),
        (registration("alice", "not-an-email", "secret1", "secret1"), "Please enter a valid email address"),
        (registration("alice", "a@b.co", "12345", "12345"), "Password must be at least 6 characters"),
        (registration("alice", "a@b.co", &password_73, &password_73), "Password must be at most 72 bytes"),
        (registration("alice", "a@b.co", "secret1", "secret2"), "Passwords do not match"),
    ];
    for (body, expected) in cases {
        let response = anonymous.post_json("/api/auth/register", &body).await;
        let message = error_of(response, StatusCode::BAD_REQUEST, "validation").await;
        assert_eq!(message, expected, "{body:?}");
    }
    // Nothing was created by the refused registrations: the first real one is still the admin.
    let alice = app.user("alice").await;
    assert_eq!(claims_of(alice.token()).roles, "ROLE_USER,ROLE_ADMIN");
}

async fn taken_usernames_and_emails_are_conflicts(backend: Backend) {
    let app = app!(backend);
    app.user("alice").await;
    let anonymous = app.anonymous();
    let same_name = registration("ALICE", "other@example.com", "secret1", "secret1");
    let response = anonymous.post_json("/api/auth/register", &same_name).await;
    let message = error_of(response, StatusCode::CONFLICT, "username_taken").await;
    assert_eq!(message, "Username is already taken");
    let same_email = registration("other", "Alice@Example.com", "secret1", "secret1");
    let response = anonymous.post_json("/api/auth/register", &same_email).await;
    let message = error_of(response, StatusCode::CONFLICT, "email_taken").await;
    assert_eq!(message, "Email is already registered");
}

async fn unknown_user_and_wrong_password_look_the_same(backend: Backend) {
    let app = app!(backend);
    app.user("alice").await;
    let wrong = error_of(app.login("alice", "wrong-password").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let unknown = error_of(app.login("nobody", "wrong-password").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert_eq!(wrong, "Invalid username or password");
    assert_eq!(wrong, unknown);
    // Usernames are case-insensitive at login.
    let alice = app.sign_in("ALICE", "secret1").await;
    assert_eq!(claims_of(alice.token()).sub, "alice");
}

async fn failed_logins_are_throttled_per_account_with_retry_after(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_LOGIN_MAX_FAILURES", "3"), ("GIFSHELF_LOGIN_LOCKOUT_SECS", "60")]);
    app.user("alice").await;
    app.user("bob").await;
    for _ in 0..3 {
        error_of(app.login("alice", "nope-nope").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    let locked = app.login("alice", "secret1").await;
    assert_eq!(locked.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("60"));
    let message = error_of(locked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    assert_eq!(message, "Too many failed login attempts. Try again in 60 seconds.");
    // Another account from the same address is not locked out.
    app.sign_in("bob", "secret1").await;
    // A second before the minute is up alice is still locked out; once it is, she signs in.
    app.pass_seconds(59);
    error_of(app.login("alice", "secret1").await, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    app.pass_seconds(2);
    app.sign_in("alice", "secret1").await;
}

async fn failed_logins_are_throttled_per_address(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_LOGIN_IP_MAX_FAILURES", "4"), ("GIFSHELF_LOGIN_IP_WINDOW_SECS", "120")]);
    app.user("alice").await;
    for i in 0..4 {
        error_of(app.login(&format!("guess{i}"), "nope-nope").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    let blocked = app.login("alice", "secret1").await;
    assert!(blocked.headers().get("retry-after").is_some());
    error_of(blocked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    // Once the window has passed, the address may sign in again.
    app.pass_seconds(121);
    app.sign_in("alice", "secret1").await;
}

on_both_backends!(
    register_then_login_and_first_account_is_admin,
    every_registration_rule_is_checked_on_the_server,
    taken_usernames_and_emails_are_conflicts,
    unknown_user_and_wrong_password_look_the_same,
    failed_logins_are_throttled_per_account_with_retry_after,
    failed_logins_are_throttled_per_address
);
