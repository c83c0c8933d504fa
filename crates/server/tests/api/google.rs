//! `POST /api/auth/google` against the fake OpenID provider on loopback.

use gifshelf_auth::testing::FakeOidcProvider;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{claims_of, error_of, json_of, Backend, TestApp};
use crate::{api_tests, app};

const CLIENT: &str = "gifshelf-e2e.apps.example.com";

async fn google(app: &TestApp, token: &str) -> reqwest::Response {
    app.post_json("/api/auth/google", &json!({ "token": token })).await
}

/// Signs in with an ID token; returns our token's claims.
async fn signs_in(app: &TestApp, id_token: &str) -> Value {
    let body = json_of(google(app, id_token).await, StatusCode::OK).await;
    let token = body["token"].as_str().unwrap_or_default().to_owned();
    // Our own token, usable like a password login's.
    json_of(app.get("/api/settings/profile", Some(&token)).await, StatusCode::OK).await;
    claims_of(&token)
}

macro_rules! google_app {
    ($backend:expr, $provider:expr) => {
        app!($backend, &[("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT), ("GIFSHELF_OIDC_ISSUER", $provider.issuer())])
    };
}

api_tests! {
    async fn without_a_client_id_the_server_says_so(backend: Backend) {
        let app = app!(backend);
        let message = error_of(google(&app, "a.b.c").await, StatusCode::NOT_FOUND, "not_configured").await;
        assert_eq!(message, "Google sign-in is not enabled on this server");
    }

    async fn a_first_sign_in_creates_the_account_and_the_next_finds_it(backend: Backend) {
        let provider = FakeOidcProvider::start().await;
        let app = google_app!(backend, provider);
        let first = signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-1", "Dana.Scully@Example.com", true))).await;
        assert_eq!(first["sub"], "dana.scully");
        assert_eq!(first["roles"], "ROLE_USER,ROLE_ADMIN", "the first account of the server is its admin");
        let again = signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-1", "dana@changed.example", true))).await;
        assert_eq!(again["sub"], "dana.scully", "the same identity is the same account, whatever its email now");
        // The account has no password anyone could guess.
        assert_eq!(app.login("dana.scully", "").await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.login("dana.scully", "!external").await.status(), StatusCode::UNAUTHORIZED);
        let profile = json_of(
            app.get("/api/settings/profile", Some(&app_token(&app, &provider, "sub-1").await)).await,
            StatusCode::OK,
        )
        .await;
        assert_eq!(profile["email"], "dana.scully@example.com");
    }

    async fn refused_tokens_are_401_and_create_nothing(backend: Backend) {
        let provider = FakeOidcProvider::start().await;
        let app = google_app!(backend, provider);
        let valid = provider.claims(CLIENT, "sub-1", "eve@example.com", true);
        let now = chrono::Utc::now().timestamp();
        let with = |key: &str, value: Value| {
            let mut claims = valid.clone();
            claims[key] = value;
            provider.mint(&claims)
        };
        let stranger = FakeOidcProvider::start().await;
        let mut unknown_kid = provider.header();
        unknown_kid.kid = Some("key-404".into());
        let none = {
            use base64::Engine;
            let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
            format!("{}.{}.", b64(&json!({"alg": "none"})), b64(&valid))
        };
        let hs256 = {
            let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
            header.kid = provider.header().kid;
            jsonwebtoken::encode(&header, &valid, &jsonwebtoken::EncodingKey::from_secret(CLIENT.as_bytes()))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let cases = [
            ("wrong issuer", with("iss", json!("https://accounts.google.com"))),
            ("wrong audience", with("aud", json!("someone-else"))),
            ("extra audience", with("aud", json!([CLIENT, "someone-else"]))),
            ("expired", with("exp", json!(now - 300))),
            ("bad signature", stranger.mint_with_header(&provider.header(), &valid)),
            ("unknown key id", provider.mint_with_header(&unknown_kid, &valid)),
            ("alg none", none),
            ("HS256", hs256),
            ("garbage", "not-a-token".into()),
        ];
        for (case, token) in cases {
            let message = error_of(google(&app, &token).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
            assert_eq!(message, "Google login failed", "{case}");
        }
        // Nothing was created: the next valid sign-in is still the server's first account.
        let first = signs_in(&app, &provider.mint(&valid)).await;
        assert_eq!((first["sub"].as_str(), first["roles"].as_str()), (Some("eve"), Some("ROLE_USER,ROLE_ADMIN")));
        // A body without a token is a validation error, not a 500.
        let response = app.post_json("/api/auth/google", &json!({"credential": 1})).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    }

    async fn a_local_account_is_never_taken_over_by_its_email(backend: Backend) {
        let provider = FakeOidcProvider::start().await;
        let app = google_app!(backend, provider);
        app.signed_in("frank").await;
        // Whether or not the provider vouches for the email: refused, nothing linked or created.
        for verified in [false, true] {
            let token = provider.mint(&provider.claims(CLIENT, "sub-f", "FRANK@example.com", verified));
            let message = error_of(google(&app, &token).await, StatusCode::CONFLICT, "conflict").await;
            assert_eq!(
                message,
                "An account with this email already exists. Sign in with your username and password, then connect Google in Settings."
            );
        }
        // frank's password still works, and the identity stays unlinked.
        assert_eq!(app.login("frank", "secret1").await.status(), StatusCode::OK);
        let again = provider.mint(&provider.claims(CLIENT, "sub-f", "frank@example.com", true));
        error_of(google(&app, &again).await, StatusCode::CONFLICT, "conflict").await;
    }

    async fn usernames_of_new_accounts_are_made_unique(backend: Backend) {
        let provider = FakeOidcProvider::start().await;
        let app = google_app!(backend, provider);
        app.signed_in("grace").await;
        let token = provider.mint(&provider.claims(CLIENT, "sub-1", "grace@elsewhere.example", true));
        let claims = signs_in(&app, &token).await;
        assert_eq!((claims["sub"].as_str(), claims["roles"].as_str()), (Some("grace2"), Some("ROLE_USER")));
    }
}

async fn app_token(app: &TestApp, provider: &FakeOidcProvider, subject: &str) -> String {
    let id_token = provider.mint(&provider.claims(CLIENT, subject, "ignored@example.com", true));
    let body = json_of(google(app, &id_token).await, StatusCode::OK).await;
    body["token"].as_str().unwrap_or_default().to_owned()
}

api_tests! {
    async fn a_signed_in_person_connects_and_disconnects_google_from_settings(backend: Backend) {
        let provider = FakeOidcProvider::start().await;
        let app = google_app!(backend, provider);
        let frank = app.signed_in("frank").await;
        let issuer = provider.issuer().to_owned();
        let identities = |token: String| {
            let app = &app;
            async move { json_of(app.get("/api/settings/identities", Some(&token)).await, StatusCode::OK).await }
        };
        assert_eq!(identities(frank.clone()).await, json!([]));

        // Connect: frank's Google identity, whatever email it carries.
        let id_token = provider.mint(&provider.claims(CLIENT, "sub-frank", "frank@gmail.example", true));
        let linked = app.send_json(reqwest::Method::POST, "/api/settings/identities", Some(&frank), &json!({"token": id_token})).await;
        let linked = json_of(linked, StatusCode::CREATED).await;
        assert_eq!(linked[0]["issuer"], issuer.as_str());
        assert_eq!(linked[0]["email"], "frank@gmail.example");
        // Now Google signs frank in.
        let claims = signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-frank", "frank@gmail.example", true))).await;
        assert_eq!(claims["sub"], "frank");

        // Another account cannot connect the same identity, nor frank a second one of this provider.
        let grace = app.signed_in("grace").await;
        let again = provider.mint(&provider.claims(CLIENT, "sub-frank", "frank@gmail.example", true));
        let taken = app.send_json(reqwest::Method::POST, "/api/settings/identities", Some(&grace), &json!({"token": again})).await;
        error_of(taken, StatusCode::CONFLICT, "conflict").await;
        let second = provider.mint(&provider.claims(CLIENT, "sub-other", "frank2@gmail.example", true));
        let second = app.send_json(reqwest::Method::POST, "/api/settings/identities", Some(&frank), &json!({"token": second})).await;
        error_of(second, StatusCode::CONFLICT, "conflict").await;
        // A forged token connects nothing.
        let forged = app.send_json(reqwest::Method::POST, "/api/settings/identities", Some(&grace), &json!({"token": "a.b.c"})).await;
        error_of(forged, StatusCode::UNAUTHORIZED, "unauthorized").await;
        assert_eq!(identities(grace.clone()).await, json!([]));

        // Disconnect (frank has a password): Google no longer signs him in; it would make a new account.
        let path = format!("/api/settings/identities?issuer={}", urlencode(&issuer));
        let removed = app.client.delete(app.url(&path)).bearer_auth(&frank).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(removed.status(), StatusCode::NO_CONTENT);
        assert_eq!(identities(frank.clone()).await, json!([]));
        let gone = app.client.delete(app.url(&path)).bearer_auth(&frank).send().await.unwrap_or_else(|e| panic!("{e}"));
        error_of(gone, StatusCode::NOT_FOUND, "not_found").await;
    }

    async fn the_only_way_in_cannot_be_disconnected(backend: Backend) {
        let provider = FakeOidcProvider::start().await;
        let app = google_app!(backend, provider);
        // An account made by Google has no password: its identity is its only way in.
        let body = json_of(google(&app, &provider.mint(&provider.claims(CLIENT, "sub-g", "gina@example.com", true))).await, StatusCode::OK).await;
        let token = body["token"].as_str().unwrap_or_default().to_owned();
        let path = format!("/api/settings/identities?issuer={}", urlencode(provider.issuer()));
        let refused = app.client.delete(app.url(&path)).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}"));
        let message = error_of(refused, StatusCode::CONFLICT, "conflict").await;
        assert_eq!(message, "This is your only way to sign in. Set a password in Settings before you disconnect it.");
        signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-g", "gina@example.com", true))).await;
    }

    async fn without_signup_a_first_google_sign_in_creates_nothing(backend: Backend) {
        let provider = FakeOidcProvider::start().await;
        let app = app!(backend, &[("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT), ("GIFSHELF_OIDC_ISSUER", provider.issuer()), ("GIFSHELF_OIDC_SIGNUP", "false")]);
        let refused = google(&app, &provider.mint(&provider.claims(CLIENT, "sub-new", "new@example.com", true))).await;
        let message = error_of(refused, StatusCode::FORBIDDEN, "forbidden").await;
        assert!(message.starts_with("No gifshelf account is connected to this Google account."), "{message}");
        // Nothing was created: the next registration is still the server's first account.
        json_of(app.register("first", "secret1").await, StatusCode::CREATED).await;
        let token = json_of(app.login("first", "secret1").await, StatusCode::OK).await["token"].as_str().unwrap_or_default().to_owned();
        assert_eq!(claims_of(&token)["roles"], "ROLE_USER,ROLE_ADMIN");
    }
}

/// The query-string form of a value (enough for an issuer URL).
fn urlencode(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
