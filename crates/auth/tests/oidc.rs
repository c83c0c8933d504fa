//! The OpenID verifier against the fake provider on loopback: what it accepts and what it refuses.

use std::sync::Arc;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use gifshelf_auth::testing::FakeOidcProvider;
use gifshelf_auth::{OidcVerifier, SystemClock};
use gifshelf_domain::auth::IdentityError;
use gifshelf_domain::ports::IdentityVerifier;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};

const CLIENT: &str = "gifshelf-test.apps.example.com";

async fn setup() -> (FakeOidcProvider, OidcVerifier) {
    let provider = FakeOidcProvider::start().await;
    let verifier =
        OidcVerifier::new(provider.issuer(), CLIENT, Arc::new(SystemClock)).unwrap_or_else(|e| panic!("{e}"));
    (provider, verifier)
}

fn with(mut claims: Value, key: &str, value: Value) -> Value {
    claims[key] = value;
    claims
}

async fn refused(verifier: &OidcVerifier, token: &str) -> String {
    match verifier.verify(token).await {
        Err(IdentityError::Rejected(reason)) => reason.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_valid_token_yields_the_identity() {
    let (provider, verifier) = setup().await;
    let token = provider.mint(&provider.claims(CLIENT, "10769150350006150715113082367", "Alice@Example.com", true));
    let identity = verifier.verify(&token).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(identity.issuer, provider.issuer());
    assert_eq!(identity.subject, "10769150350006150715113082367");
    assert_eq!(identity.email.as_deref(), Some("alice@example.com"));
    assert!(identity.email_verified);
    assert_eq!(identity.name.as_deref(), Some("Test Person"));
    // Discovery and keys are cached: a second token fetches nothing.
    let again = provider.mint(&provider.claims(CLIENT, "other", "bob@example.com", false));
    let identity = verifier.verify(&again).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(!identity.email_verified);
    assert_eq!(provider.jwks_fetches(), 1);
}

#[tokio::test]
async fn wrong_issuer_audience_and_extra_audiences_are_refused() {
    let (provider, verifier) = setup().await;
    let valid = provider.claims(CLIENT, "s", "a@example.com", true);
    let cases = [
        ("wrong issuer", with(valid.clone(), "iss", json!("https://accounts.google.com"))),
        ("wrong audience", with(valid.clone(), "aud", json!("someone-else"))),
        ("extra untrusted audience", with(valid.clone(), "aud", json!([CLIENT, "someone-else"]))),
        ("no audience", with(valid.clone(), "aud", json!([]))),
    ];
    for (case, claims) in cases {
        let reason = refused(&verifier, &provider.mint(&claims)).await;
        assert!(!reason.is_empty(), "{case}");
    }
}

#[tokio::test]
async fn expired_and_future_tokens_are_refused_with_a_small_leeway() {
    let (provider, verifier) = setup().await;
    let now = chrono::Utc::now().timestamp();
    let valid = provider.claims(CLIENT, "s", "a@example.com", true);
    let expired = with(with(valid.clone(), "exp", json!(now - 120)), "iat", json!(now - 3720));
    assert!(refused(&verifier, &provider.mint(&expired)).await.contains("expired"));
    let future = with(valid.clone(), "iat", json!(now + 600));
    refused(&verifier, &provider.mint(&future)).await;
    // Within the leeway: a token that expired a few seconds ago still passes (clock skew).
    let just_expired = with(valid, "exp", json!(now - 5));
    assert!(verifier.verify(&provider.mint(&just_expired)).await.is_ok());
}

#[tokio::test]
async fn forged_signatures_and_weak_algorithms_are_refused() {
    let (provider, verifier) = setup().await;
    let claims = provider.claims(CLIENT, "s", "a@example.com", true);
    let token = provider.mint(&claims);

    // Claims changed after signing.
    let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
    let tampered = with(claims.clone(), "email", json!("admin@example.com"));
    parts[1] = URL_SAFE_NO_PAD.encode(tampered.to_string());
    refused(&verifier, &parts.join(".")).await;

    // A signature from another key under the provider's key id.
    let stranger = FakeOidcProvider::start().await;
    refused(&verifier, &stranger.mint_with_header(&provider.header(), &claims)).await;

    // `alg: none`, with and without a signature.
    let none_header = URL_SAFE_NO_PAD.encode(json!({"alg": "none", "typ": "JWT"}).to_string());
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    refused(&verifier, &format!("{none_header}.{payload}.")).await;
    refused(&verifier, &format!("{none_header}.{payload}.{}", parts[2])).await;

    // HS256 signed with something public (the client id): algorithm confusion.
    let mut hs = Header::new(Algorithm::HS256);
    hs.kid = provider.header().kid;
    let hs_token = jsonwebtoken::encode(&hs, &claims, &EncodingKey::from_secret(CLIENT.as_bytes()))
        .unwrap_or_else(|e| panic!("{e}"));
    refused(&verifier, &hs_token).await;

    // Not a token at all.
    for junk in ["", "abc", "a.b.c", "🙂.🙂.🙂"] {
        refused(&verifier, junk).await;
    }
}

#[tokio::test]
async fn a_rotated_key_is_fetched_once_and_unknown_key_ids_do_not_hammer_the_provider() {
    let (provider, verifier) = setup().await;
    let claims = provider.claims(CLIENT, "s", "a@example.com", true);
    assert!(verifier.verify(&provider.mint(&claims)).await.is_ok());
    assert_eq!(provider.jwks_fetches(), 1);

    // The provider rotates: a token under the new key id makes exactly one refetch, then passes.
    assert_eq!(provider.rotate_key(), "key-2");
    verifier.verify(&provider.mint(&claims)).await.unwrap_or_else(|e| panic!("rotated key: {e}"));
    assert_eq!(provider.jwks_fetches(), 2);
    verifier.verify(&provider.mint(&claims)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(provider.jwks_fetches(), 2, "the new key is cached");

    // Key ids nobody published: refused, and no further fetches within the minute.
    let mut unknown = provider.header();
    unknown.kid = Some("key-404".into());
    for _ in 0..3 {
        refused(&verifier, &provider.mint_with_header(&unknown, &claims)).await;
    }
    assert_eq!(provider.jwks_fetches(), 2);
}

#[tokio::test]
async fn an_unreachable_provider_is_unavailable_not_a_refusal() {
    let closed =
        std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).unwrap_or_else(|e| panic!("{e}"));
    let verifier =
        OidcVerifier::new(&format!("http://{closed}"), CLIENT, Arc::new(SystemClock)).unwrap_or_else(|e| panic!("{e}"));
    let provider = FakeOidcProvider::start().await;
    let token = provider.mint(&provider.claims(CLIENT, "s", "a@example.com", true));
    assert!(matches!(verifier.verify(&token).await, Err(IdentityError::Unavailable(_))));
}

#[test]
fn a_bad_issuer_is_a_configuration_error() {
    assert!(OidcVerifier::new("not a url", CLIENT, Arc::new(SystemClock)).is_err());
}
