use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{error_of, json_of, Backend};
use crate::{api_tests, app};

api_tests! {
    async fn profile_is_read_and_renaming_ends_old_sessions(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        app.signed_in("bob").await;
        let profile = json_of(app.get("/api/settings/profile", Some(&token)).await, StatusCode::OK).await;
        assert_eq!(profile, json!({"username": "alice", "email": "alice@example.com"}));

        let taken = app.put_json("/api/settings/profile", &token, &json!({"username": "Bob", "email": null})).await;
        assert_eq!(error_of(taken, StatusCode::CONFLICT, "conflict").await, "Username is already taken");
        let short = app.put_json("/api/settings/profile", &token, &json!({"username": "al"})).await;
        assert_eq!(error_of(short, StatusCode::BAD_REQUEST, "validation").await, "Username must be between 3 and 50 characters");
        let bad_email = app.put_json("/api/settings/profile", &token, &json!({"username": "alice", "email": "nope"})).await;
        error_of(bad_email, StatusCode::BAD_REQUEST, "validation").await;
        let bobs_email = app.put_json("/api/settings/profile", &token, &json!({"username": "alice", "email": "bob@example.com"})).await;
        assert_eq!(error_of(bobs_email, StatusCode::CONFLICT, "conflict").await, "Email is already registered");

        // Settings allow up to 50 characters, registration only 20.
        let long_name = "a".repeat(50);
        let renamed = app.put_json("/api/settings/profile", &token, &json!({"username": long_name, "email": null})).await;
        assert_eq!(json_of(renamed, StatusCode::OK).await, json!({"username": long_name, "email": "alice@example.com"}));

        // The old token names a user that no longer exists under that name.
        error_of(app.get("/api/settings/profile", Some(&token)).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        error_of(app.login("alice", "secret1").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        let fresh = json_of(app.login(&long_name, "secret1").await, StatusCode::OK).await;
        let fresh = fresh["token"].as_str().unwrap_or_default().to_owned();
        let profile = json_of(app.get("/api/settings/profile", Some(&fresh)).await, StatusCode::OK).await;
        assert_eq!(profile["username"], long_name.as_str());
    }

    async fn password_change_ends_other_sessions_and_keeps_this_one(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        let mismatch = app.put_json("/api/settings/password", &token, &json!({"newPassword": "newsecret", "confirmPassword": "newsecreT"})).await;
        assert_eq!(error_of(mismatch, StatusCode::BAD_REQUEST, "validation").await, "New passwords do not match");
        let short = app.put_json("/api/settings/password", &token, &json!({"newPassword": "abc", "confirmPassword": "abc"})).await;
        assert_eq!(error_of(short, StatusCode::BAD_REQUEST, "validation").await, "Password must be at least 6 characters");

        // Tokens carry whole seconds: let the old one be strictly older than the change.
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let changed = app.put_json("/api/settings/password", &token, &json!({"newPassword": "newsecret", "confirmPassword": "newsecret"})).await;
        let fresh = json_of(changed, StatusCode::OK).await["token"].as_str().unwrap_or_default().to_owned();

        error_of(app.get("/api/settings/profile", Some(&token)).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        json_of(app.get("/api/settings/profile", Some(&fresh)).await, StatusCode::OK).await;
        error_of(app.login("alice", "secret1").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        json_of(app.login("alice", "newsecret").await, StatusCode::OK).await;
    }
}
