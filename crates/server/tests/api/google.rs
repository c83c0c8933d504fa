//! `POST /api/auth/google` against the fake OpenID provider on loopback.

use gifshelf_auth::testing::FakeOidcProvider;
use gifshelf_auth::Claims;
use gifshelf_http::dto::{GoogleLoginRequest, IdentityDto, ProfileDto, TokenResponse};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{claims_of, dto_of, error_of, Backend, Client, TestApp};
use crate::{app, on_both_backends};

const CLIENT: &str = "gifshelf-e2e.apps.example.com";

async fn google(app: &TestApp, id_token: &str) -> reqwest::Response {
    app.anonymous()
        .post_json("/api/auth/google", &GoogleLoginRequest { token: id_token.to_owned(), invite: None })
        .await
}

/// Signs in with an ID token; returns the client holding our own token.
async fn google_session(app: &TestApp, id_token: &str) -> Client {
    let session: TokenResponse = dto_of(google(app, id_token).await, StatusCode::OK).await;
    app.with_token(&session.token)
}

/// Signs in with an ID token; returns our token's claims.
async fn signs_in(app: &TestApp, id_token: &str) -> Claims {
    let client = google_session(app, id_token).await;
    // Our own token, usable like a password login's.
    let profile: ProfileDto = client.read("/api/settings/profile").await;
    let claims = claims_of(client.token());
    assert_eq!(claims.sub, profile.username);
    claims
}

macro_rules! google_app {
    ($backend:expr, $provider:expr) => {
        app!($backend, &[("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT), ("GIFSHELF_OIDC_ISSUER", $provider.issuer())])
    };
}

async fn without_a_client_id_the_server_says_so(backend: Backend) {
    let app = app!(backend);
    let message = error_of(google(&app, "a.b.c").await, StatusCode::NOT_FOUND, "not_configured").await;
    assert_eq!(message, "Google sign-in is not enabled on this server");
}

async fn a_first_sign_in_creates_the_account_and_the_next_finds_it(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = google_app!(backend, provider);
    let first =
        signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-1", "Dana.Scully@Example.com", true))).await;
    assert_eq!(first.sub, "dana.scully");
    assert_eq!(first.roles, "ROLE_USER,ROLE_ADMIN", "the first account of the server is its admin");
    let again = signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-1", "dana@changed.example", true))).await;
    assert_eq!(again.sub, "dana.scully", "the same identity is the same account, whatever its email now");
    // The account has no password anyone could guess.
    assert_eq!(app.login("dana.scully", "").await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.login("dana.scully", "!external").await.status(), StatusCode::UNAUTHORIZED);
    let dana =
        google_session(&app, &provider.mint(&provider.claims(CLIENT, "sub-1", "ignored@example.com", true))).await;
    let profile: ProfileDto = dana.read("/api/settings/profile").await;
    assert_eq!(profile.email, "dana.scully@example.com");
}

async fn refused_tokens_are_401_and_create_nothing(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = google_app!(backend, provider);
    let valid = provider.claims(CLIENT, "sub-1", "eve@example.com", true);
    let now = chrono::Utc::now().timestamp();
    // The provider's claims as JSON, untyped on purpose: each case forges one of them.
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
    assert_eq!((first.sub.as_str(), first.roles.as_str()), ("eve", "ROLE_USER,ROLE_ADMIN"));
    // A body without a token is a validation error, not a 500.
    let response = app.anonymous().post_json("/api/auth/google", &json!({"credential": 1})).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

async fn a_local_account_is_never_taken_over_by_its_email(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = google_app!(backend, provider);
    app.user("frank").await;
    // Whether or not the provider vouches for the email: refused, nothing linked or created.
    for verified in [false, true] {
        let token = provider.mint(&provider.claims(CLIENT, "sub-f", "FRANK@example.com", verified));
        let message = error_of(google(&app, &token).await, StatusCode::CONFLICT, "email_taken").await;
        assert_eq!(
            message,
            "An account with this email already exists. Sign in with your username and password, \
             then connect Google in Settings."
        );
    }
    // frank's password still works, and the identity stays unlinked.
    assert_eq!(app.login("frank", "secret1").await.status(), StatusCode::OK);
    let again = provider.mint(&provider.claims(CLIENT, "sub-f", "frank@example.com", true));
    error_of(google(&app, &again).await, StatusCode::CONFLICT, "email_taken").await;
}

async fn usernames_of_new_accounts_are_made_unique(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = google_app!(backend, provider);
    app.user("grace").await;
    let token = provider.mint(&provider.claims(CLIENT, "sub-1", "grace@elsewhere.example", true));
    let claims = signs_in(&app, &token).await;
    assert_eq!((claims.sub.as_str(), claims.roles.as_str()), ("grace2", "ROLE_USER"));
}

async fn a_signed_in_person_connects_and_disconnects_google_from_settings(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = google_app!(backend, provider);
    let frank = app.user("frank").await;
    let issuer = provider.issuer().to_owned();
    let connect = |client: &Client, id_token: String| {
        let client = client.clone();
        async move {
            client.post_json("/api/settings/identities", &GoogleLoginRequest { token: id_token, invite: None }).await
        }
    };
    assert!(frank.read::<Vec<IdentityDto>>("/api/settings/identities").await.is_empty());

    // Connect: frank's Google identity, whatever email it carries.
    let id_token = provider.mint(&provider.claims(CLIENT, "sub-frank", "frank@gmail.example", true));
    let linked: Vec<IdentityDto> = dto_of(connect(&frank, id_token).await, StatusCode::CREATED).await;
    assert_eq!(linked[0].issuer, issuer);
    assert_eq!(linked[0].email.as_deref(), Some("frank@gmail.example"));
    // Now Google signs frank in.
    let claims =
        signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-frank", "frank@gmail.example", true))).await;
    assert_eq!(claims.sub, "frank");

    // Another account cannot connect the same identity, nor frank a second one of this provider.
    let grace = app.user("grace").await;
    let again = provider.mint(&provider.claims(CLIENT, "sub-frank", "frank@gmail.example", true));
    error_of(connect(&grace, again).await, StatusCode::CONFLICT, "identity_taken").await;
    let second = provider.mint(&provider.claims(CLIENT, "sub-other", "frank2@gmail.example", true));
    error_of(connect(&frank, second).await, StatusCode::CONFLICT, "provider_already_linked").await;
    // A forged token connects nothing.
    error_of(connect(&grace, "a.b.c".to_owned()).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert!(grace.read::<Vec<IdentityDto>>("/api/settings/identities").await.is_empty());

    // Disconnect (frank has a password): Google no longer signs him in; it would make a new account.
    let path = format!("/api/settings/identities?issuer={}", urlencode(&issuer));
    assert_eq!(frank.delete(&path).await.status(), StatusCode::NO_CONTENT);
    assert!(frank.read::<Vec<IdentityDto>>("/api/settings/identities").await.is_empty());
    error_of(frank.delete(&path).await, StatusCode::NOT_FOUND, "not_found").await;
}

async fn the_only_way_in_cannot_be_disconnected(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = google_app!(backend, provider);
    // An account made by Google has no password: its identity is its only way in.
    let gina = google_session(&app, &provider.mint(&provider.claims(CLIENT, "sub-g", "gina@example.com", true))).await;
    let path = format!("/api/settings/identities?issuer={}", urlencode(provider.issuer()));
    let refused = gina.delete(&path).await;
    let message = error_of(refused, StatusCode::CONFLICT, "last_sign_in_method").await;
    assert_eq!(message, "This is your only way to sign in. Set a password in Settings before you disconnect it.");
    signs_in(&app, &provider.mint(&provider.claims(CLIENT, "sub-g", "gina@example.com", true))).await;
    // Her first password needs no current one (she has none), and then the profile says so.
    let profile: ProfileDto = gina.read("/api/settings/profile").await;
    assert!(!profile.has_password);
    let first = json!({"newPassword": "first-pw", "confirmPassword": "first-pw"});
    let fresh: TokenResponse = dto_of(gina.put_json("/api/settings/password", &first).await, StatusCode::OK).await;
    let profile: ProfileDto = app.with_token(&fresh.token).read("/api/settings/profile").await;
    assert!(profile.has_password);
}

async fn without_signup_a_first_google_sign_in_creates_nothing(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = app!(
        backend,
        &[
            ("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT),
            ("GIFSHELF_OIDC_ISSUER", provider.issuer()),
            ("GIFSHELF_OIDC_SIGNUP", "false")
        ]
    );
    let refused = google(&app, &provider.mint(&provider.claims(CLIENT, "sub-new", "new@example.com", true))).await;
    let message = error_of(refused, StatusCode::FORBIDDEN, "forbidden").await;
    assert!(message.starts_with("No gifshelf account is connected to this Google account."), "{message}");
    // Nothing was created: the next registration is still the server's first account.
    let first = app.user("first").await;
    assert_eq!(claims_of(first.token()).roles, "ROLE_USER,ROLE_ADMIN");
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

on_both_backends!(
    without_a_client_id_the_server_says_so,
    a_first_sign_in_creates_the_account_and_the_next_finds_it,
    refused_tokens_are_401_and_create_nothing,
    a_local_account_is_never_taken_over_by_its_email,
    usernames_of_new_accounts_are_made_unique,
    a_signed_in_person_connects_and_disconnects_google_from_settings,
    the_only_way_in_cannot_be_disconnected,
    without_signup_a_first_google_sign_in_creates_nothing
);
