use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{claims_of, error_of, json_of, Backend};
use crate::{api_tests, app};

api_tests! {
    async fn register_then_login_and_first_account_is_admin(backend: Backend) {
        let app = app!(backend);
        let body = json_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
        assert_eq!(body, json!({"username": "alice", "email": "alice@example.com"}));
        json_of(app.register("bob", "secret1").await, StatusCode::CREATED).await;

        let alice = json_of(app.login("alice", "secret1").await, StatusCode::OK).await;
        let claims = claims_of(alice["token"].as_str().unwrap_or_default());
        assert_eq!(claims["sub"], "alice");
        assert_eq!(claims["roles"], "ROLE_USER,ROLE_ADMIN");
        let (iat, exp) = (claims["iat"].as_i64().unwrap_or(0), claims["exp"].as_i64().unwrap_or(0));
        assert_eq!(exp - iat, 24 * 3600);

        let bob = json_of(app.login("bob", "secret1").await, StatusCode::OK).await;
        assert_eq!(claims_of(bob["token"].as_str().unwrap_or_default())["roles"], "ROLE_USER");
    }

    async fn every_registration_rule_is_checked_on_the_server(backend: Backend) {
        let app = app!(backend);
        let cases = [
            (json!({"username": "ab", "email": "a@b.co", "password": "secret1", "confirmPassword": "secret1"}), "Username must be between 3 and 20 characters"),
            (json!({"username": "a".repeat(21), "email": "a@b.co", "password": "secret1", "confirmPassword": "secret1"}), "Username must be between 3 and 20 characters"),
            (json!({"username": "alice", "email": "not-an-email", "password": "secret1", "confirmPassword": "secret1"}), "Please enter a valid email address"),
            (json!({"username": "alice", "email": "a@b.co", "password": "12345", "confirmPassword": "12345"}), "Password must be at least 6 characters"),
            (json!({"username": "alice", "email": "a@b.co", "password": "x".repeat(73), "confirmPassword": "x".repeat(73)}), "Password must be at most 72 bytes"),
            (json!({"username": "alice", "email": "a@b.co", "password": "secret1", "confirmPassword": "secret2"}), "Passwords do not match"),
        ];
        for (body, expected) in cases {
            let message = error_of(app.post_json("/api/auth/register", &body).await, StatusCode::BAD_REQUEST, "validation").await;
            assert_eq!(message, expected, "{body}");
        }
        // Nothing was created by the refused registrations: the first real one is still the admin.
        json_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
        let token = json_of(app.login("alice", "secret1").await, StatusCode::OK).await;
        assert_eq!(claims_of(token["token"].as_str().unwrap_or_default())["roles"], "ROLE_USER,ROLE_ADMIN");
    }

    async fn taken_usernames_and_emails_are_conflicts(backend: Backend) {
        let app = app!(backend);
        json_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
        let same_name = json!({"username": "ALICE", "email": "other@example.com", "password": "secret1", "confirmPassword": "secret1"});
        let message = error_of(app.post_json("/api/auth/register", &same_name).await, StatusCode::CONFLICT, "conflict").await;
        assert_eq!(message, "Username is already taken");
        let same_email = json!({"username": "other", "email": "Alice@Example.com", "password": "secret1", "confirmPassword": "secret1"});
        let message = error_of(app.post_json("/api/auth/register", &same_email).await, StatusCode::CONFLICT, "conflict").await;
        assert_eq!(message, "Email is already registered");
    }

    async fn unknown_user_and_wrong_password_look_the_same(backend: Backend) {
        let app = app!(backend);
        json_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
        let wrong = error_of(app.login("alice", "wrong-password").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        let unknown = error_of(app.login("nobody", "wrong-password").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        assert_eq!(wrong, "Invalid username or password");
        assert_eq!(wrong, unknown);
        // Usernames are case-insensitive at login.
        json_of(app.login("ALICE", "secret1").await, StatusCode::OK).await;
    }

    async fn failed_logins_are_throttled_per_account_with_retry_after(backend: Backend) {
        let app = app!(backend, &[("GIFSHELF_LOGIN_MAX_FAILURES", "3"), ("GIFSHELF_LOGIN_LOCKOUT_SECS", "60")]);
        json_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
        json_of(app.register("bob", "secret1").await, StatusCode::CREATED).await;
        for _ in 0..3 {
            error_of(app.login("alice", "nope-nope").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        }
        let locked = app.login("alice", "secret1").await;
        assert_eq!(locked.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("60"));
        let message = error_of(locked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
        assert_eq!(message, "Too many failed login attempts. Try again in 60 seconds.");
        // Another account from the same address is not locked out.
        json_of(app.login("bob", "secret1").await, StatusCode::OK).await;
    }

    async fn failed_logins_are_throttled_per_address(backend: Backend) {
        let app = app!(backend, &[("GIFSHELF_LOGIN_IP_MAX_FAILURES", "4"), ("GIFSHELF_LOGIN_IP_WINDOW_SECS", "120")]);
        json_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
        for i in 0..4 {
            error_of(app.login(&format!("guess{i}"), "nope-nope").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        }
        let blocked = app.login("alice", "secret1").await;
        assert!(blocked.headers().get("retry-after").is_some());
        error_of(blocked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    }
}
