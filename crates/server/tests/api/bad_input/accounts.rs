//! Accounts and tokens.

use super::*;

// ---------------------------------------------------------------------------------------------
// Accounts and tokens

/// Claims as JSON, untyped on purpose: the tests forge tokens with claims ours never have.
pub(super) fn mint(claims: &Value, algorithm: jsonwebtoken::Algorithm, secret: &str) -> String {
    let key = jsonwebtoken::EncodingKey::from_secret(secret.as_bytes());
    jsonwebtoken::encode(&jsonwebtoken::Header::new(algorithm), claims, &key).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

pub(super) fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

pub(super) async fn oidc_sign_in(app: &TestApp, id_token: String) -> Response {
    app.anonymous().post_json("/api/auth/google", &json!({ "token": id_token })).await
}

pub(super) fn median(mut values: Vec<Duration>) -> Duration {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

pub(super) async fn accounts_long_passwords_are_refused_never_truncated(backend: Backend) {
    let app = app!(backend);
    let too_long = "p".repeat(73);
    let multibyte = "€".repeat(25); // 25 characters, 75 bytes
    for password in [too_long.as_str(), multibyte.as_str()] {
        let body = RegisterRequest {
            username: "alice".to_owned(),
            email: "alice@example.com".to_owned(),
            password: password.to_owned(),
            confirm_password: password.to_owned(),
            invite: None,
        };
        let response = app.anonymous().post_json("/api/auth/register", &body).await;
        let message = error_of(response, StatusCode::BAD_REQUEST, "validation").await;
        assert_eq!(message, "Password must be at most 72 bytes");
    }
    // 72 bytes is allowed, and every one of them counts: a 73rd byte makes a wrong password.
    let exact = "q".repeat(72);
    let _: ProfileDto = dto_of(app.register("alice", &exact).await, StatusCode::CREATED).await;
    let alice = app.sign_in("alice", &exact).await;
    error_of(app.login("alice", &format!("{exact}x")).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    error_of(app.login("alice", &exact[..71]).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    // The same rule when the password changes.
    let change = json!({"currentPassword": exact, "newPassword": too_long, "confirmPassword": too_long});
    let message =
        error_of(alice.put_json("/api/settings/password", &change).await, StatusCode::BAD_REQUEST, "validation").await;
    assert_eq!(message, "Password must be at most 72 bytes");
    app.sign_in("alice", &exact).await;
    still_serving(&app).await;
}

pub(super) async fn accounts_login_unknown_user_vs_wrong_password_look_the_same(backend: Backend) {
    // A realistic bcrypt cost, so that skipping the hash would show.
    let app = app!(backend, &[("GIFSHELF_BCRYPT_COST", "10"), ("GIFSHELF_LOGIN_MAX_FAILURES", "100")]);
    let _: ProfileDto = dto_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
    let (mut wrong, mut unknown) = (Vec::new(), Vec::new());
    let mut bodies = Vec::new();
    for i in 0..5 {
        for (username, times) in [("alice", &mut wrong), (&*format!("nobody{i}"), &mut unknown)] {
            let started = Instant::now();
            let response = app.login(username, "wrong-password").await;
            times.push(started.elapsed());
            let mut headers: Vec<String> =
                response.headers().keys().map(|k| k.as_str().to_owned()).filter(|k| k != "date").collect();
            headers.sort();
            let status = response.status();
            let body = response.text().await.unwrap_or_default();
            bodies.push((status, body, headers));
        }
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "same status, body and headers: {bodies:?}");
    assert_eq!(bodies[0].0, StatusCode::UNAUTHORIZED);
    let (wrong, unknown) = (median(wrong), median(unknown));
    // A generous bound: an unknown user that skipped bcrypt would be ~100 times faster.
    assert!(unknown * 4 >= wrong && wrong * 4 >= unknown, "wrong password {wrong:?}, unknown user {unknown:?}");
}

pub(super) async fn accounts_brute_force_is_throttled_and_forwarded_for_trusted_only_when_configured(backend: Backend) {
    // Not behind a trusted proxy: X-Forwarded-For is ignored, the peer address counts.
    let app = app!(
        backend,
        &[
            ("GIFSHELF_LOGIN_MAX_FAILURES", "3"),
            ("GIFSHELF_LOGIN_LOCKOUT_SECS", "60"),
            ("GIFSHELF_LOGIN_IP_MAX_FAILURES", "6")
        ]
    );
    let _: ProfileDto = dto_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
    let _: ProfileDto = dto_of(app.register("bob", "secret1").await, StatusCode::CREATED).await;
    let login_from = |username: &'static str, password: &'static str, forwarded: String| {
        let body = json!({"username": username, "password": password});
        app.anonymous().request(Method::POST, "/api/auth/login").header("x-forwarded-for", forwarded).json(&body).send()
    };
    for i in 0..3 {
        let response =
            login_from("alice", "wrong-password", format!("10.0.0.{i}")).await.unwrap_or_else(|e| panic!("{e}"));
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    // The account is locked, even for the right password.
    let locked = login_from("alice", "secret1", "10.0.1.1".into()).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(header(&locked, "retry-after"), "60");
    error_of(locked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    app.sign_in("bob", "secret1").await;
    for i in 0..3 {
        let response =
            login_from("nobody", "wrong-password", format!("10.0.2.{i}")).await.unwrap_or_else(|e| panic!("{e}"));
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    // Six failures from this peer, whatever the header claimed: the address is blocked.
    let blocked = login_from("bob", "secret1", "192.0.2.77".into()).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(!header(&blocked, "retry-after").is_empty());
    error_of(blocked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;

    // Behind a trusted proxy: the forwarded address is the client.
    let proxied = app!(
        backend,
        &[("GIFSHELF_TRUST_PROXY", "true"), ("GIFSHELF_LOGIN_IP_MAX_FAILURES", "3"), ("GIFSHELF_BCRYPT_COST", "6")]
    );
    let _: ProfileDto = dto_of(proxied.register("carol", "secret1").await, StatusCode::CREATED).await;
    let login_via = |username: &str, password: &str, forwarded: &str| {
        let body = json!({"username": username, "password": password});
        proxied
            .anonymous()
            .request(Method::POST, "/api/auth/login")
            .header("x-forwarded-for", forwarded)
            .json(&body)
            .send()
    };
    for i in 0..3 {
        let response =
            login_via(&format!("guess{i}"), "wrong-password", "203.0.113.7").await.unwrap_or_else(|e| panic!("{e}"));
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    let blocked = login_via("carol", "secret1", "203.0.113.7").await.unwrap_or_else(|e| panic!("{e}"));
    error_of(blocked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    let other = login_via("carol", "secret1", "198.51.100.2").await.unwrap_or_else(|e| panic!("{e}"));
    let _: TokenResponse = dto_of(other, StatusCode::OK).await;

    // A login storm runs bcrypt on the blocking pool: the server keeps answering meanwhile.
    // (Sixteen accounts: attempts count before the password check, so one account's burst
    // would be throttled after the fifth.)
    let storm = join_all((0..16).map(|i| {
        let forwarded = format!("198.51.100.{}", 10 + i);
        async move { login_via(&format!("storm{i}"), "secret1", &forwarded).await.map(|r| r.status()) }
    }));
    let (statuses, waited) = probing_while(storm, || still_serving(&proxied)).await;
    assert!(statuses.iter().all(|s| s.as_ref().is_ok_and(|s| *s == StatusCode::UNAUTHORIZED)), "{statuses:?}");
    assert!(waited < Duration::from_secs(10), "health waited {waited:?}");
}

pub(super) async fn accounts_jwt_forged_or_expired_tokens_are_401_and_weak_secrets_stop_startup(backend: Backend) {
    use jsonwebtoken::Algorithm;
    let app = app!(backend);
    let alice = app.user("alice").await;
    app.user("bob").await;
    let claims = |sub: &str, exp: Value| json!({"sub": sub, "roles": "ROLE_USER", "iat": now(), "exp": exp});
    let valid = claims("bob", json!(now() + 3600));
    let parts: Vec<&str> = alice.token().split('.').collect();
    let admin_bob = b64(json!({"sub": "bob", "roles": "ROLE_USER,ROLE_ADMIN", "iat": now(), "exp": now() + 3600})
        .to_string()
        .as_bytes());
    let header_none = b64(br#"{"alg":"none","typ":"JWT"}"#);
    let header_rs256 = b64(br#"{"alg":"RS256","typ":"JWT"}"#);
    let payload = b64(valid.to_string().as_bytes());
    let hs256 = mint(&valid, Algorithm::HS256, SECRET);
    let hs256_signature = hs256.rsplit('.').next().unwrap_or_default().to_owned();
    let mut no_exp = valid.clone();
    if let Some(claims) = no_exp.as_object_mut() {
        claims.remove("exp");
    }
    let cases = [
        ("alg none, no signature", format!("{header_none}.{payload}.")),
        ("alg none, with a signature", format!("{header_none}.{payload}.{hs256_signature}")),
        ("RS256 header on an HMAC signature", format!("{header_rs256}.{payload}.{hs256_signature}")),
        ("HS384 with our secret", mint(&valid, Algorithm::HS384, SECRET)),
        ("HS512 with our secret", mint(&valid, Algorithm::HS512, SECRET)),
        ("tampered claims", format!("{}.{admin_bob}.{}", parts[0], parts[2])),
        ("another secret", mint(&valid, Algorithm::HS256, "another-secret-another-secret-another-secret")),
        ("missing exp", mint(&no_exp, Algorithm::HS256, SECRET)),
        ("non-numeric exp", mint(&claims("bob", json!("tomorrow")), Algorithm::HS256, SECRET)),
        ("object exp", mint(&claims("bob", json!({"at": 1})), Algorithm::HS256, SECRET)),
        ("not a JWT", "a.b.c".to_owned()),
    ];
    for (case, bad) in cases {
        let response = app.with_token(&bad).get("/api/settings/profile").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{case}");
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    // The leeway is seconds, not jsonwebtoken's default minute.
    for seconds_ago in [30, 3600] {
        let expired = mint(&claims("bob", json!(now() - seconds_ago)), Algorithm::HS256, SECRET);
        let response = app.with_token(&expired).get("/api/settings/profile").await;
        let message = error_of(response, StatusCode::UNAUTHORIZED, "token_expired").await;
        assert_eq!(message, "Token expired", "{seconds_ago} s ago");
    }
    // The control: a well-formed token is accepted.
    let profile: ProfileDto = app.with_token(&hs256).read("/api/settings/profile").await;
    assert_eq!(profile.username, "bob");

    // A configured secret under 256 bits stops startup with a clear message.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db_url = gifshelf_testkit::sqlite_url(dir.path());
    let vars = gifshelf_testkit::ServerEnv::new(dir.path(), dir.path(), &db_url)
        .set("GIFSHELF_JWT_SECRET", "short-secret-0123456789");
    let settings = gifshelf_server::Settings::from_sources(None, |name: &str| vars.get(name).map(str::to_owned))
        .unwrap_or_else(|e| panic!("{e}"));
    match gifshelf_server::Application::build(&settings) {
        Ok(_) => panic!("a weak secret was accepted"),
        Err(err) => assert!(err.to_string().contains("too weak") && err.to_string().contains("256 bits"), "{err}"),
    }
    still_serving(&app).await;
}

pub(super) async fn accounts_stale_tokens_of_renamed_unknown_or_repassworded_users_are_401(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    // Renamed: the old token names a user that no longer exists under that name.
    let renamed = alice.put_json("/api/settings/profile", &json!({"username": "alicia", "email": null})).await;
    let _: ProfileDto = dto_of(renamed, StatusCode::OK).await;
    error_of(alice.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    // There is no account deletion; a token for a user that does not exist is what one would look like.
    let ghost = app.with_token(&mint(
        &json!({"sub": "ghost", "roles": "ROLE_USER", "iat": now(), "exp": now() + 3600}),
        jsonwebtoken::Algorithm::HS256,
        SECRET,
    ));
    error_of(ghost.get("/api/gifs/dtos").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    // Issued before a password change: refused (tokens carry whole seconds).
    let second_session = app.sign_in("bob", "secret1").await;
    app.pass_seconds(2);
    let changed = bob
        .put_json(
            "/api/settings/password",
            &json!({"currentPassword": "secret1", "newPassword": "newsecret", "confirmPassword": "newsecret"}),
        )
        .await;
    let fresh: TokenResponse = dto_of(changed, StatusCode::OK).await;
    for stale in [&bob, &second_session] {
        error_of(stale.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    let profile: ProfileDto = app.with_token(&fresh.token).read("/api/settings/profile").await;
    assert_eq!(profile.username, "bob");
    still_serving(&app).await;
}

pub(super) async fn accounts_oidc_bad_id_tokens_are_401_and_emails_never_link(backend: Backend) {
    use gifshelf_auth::testing::FakeOidcProvider;
    const CLIENT: &str = "bad-input.apps.example.com";
    let provider = FakeOidcProvider::start().await;
    let app = app!(backend, &[("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT), ("GIFSHELF_OIDC_ISSUER", provider.issuer())]);
    let valid = provider.claims(CLIENT, "sub-1", "eve@example.com", true);
    // The provider's claims as JSON, untyped on purpose: each case forges one of them.
    let with = |key: &str, value: Value| {
        let mut claims = valid.clone();
        claims[key] = value;
        provider.mint(&claims)
    };
    let stranger = FakeOidcProvider::start().await;
    let mut unknown_kid = provider.header();
    unknown_kid.kid = Some("key-404".into());
    let mut hs256 = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    hs256.kid = provider.header().kid;
    let cases = [
        ("wrong issuer", with("iss", json!("https://accounts.google.com"))),
        ("wrong audience", with("aud", json!("someone-else"))),
        ("extra untrusted audience", with("aud", json!([CLIENT, "someone-else"]))),
        ("expired", with("exp", json!(now() - 300))),
        ("bad signature", stranger.mint_with_header(&provider.header(), &valid)),
        ("unknown key id", provider.mint_with_header(&unknown_kid, &valid)),
        ("alg none", format!("{}.{}.", b64(br#"{"alg":"none"}"#), b64(valid.to_string().as_bytes()))),
        (
            "HS256",
            jsonwebtoken::encode(&hs256, &valid, &jsonwebtoken::EncodingKey::from_secret(CLIENT.as_bytes()))
                .unwrap_or_else(|e| panic!("{e}")),
        ),
    ];
    for (case, token) in cases {
        let message = error_of(oidc_sign_in(&app, token).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        assert_eq!(message, "Google login failed", "{case}");
    }
    // A local account is never taken over through its email, verified by the provider or not.
    app.user("frank").await;
    for verified in [false, true] {
        let token = provider.mint(&provider.claims(CLIENT, "sub-f", "frank@example.com", verified));
        error_of(oidc_sign_in(&app, token).await, StatusCode::CONFLICT, "email_taken").await;
    }
    // Identities are keyed on the subject, not the email: a new email is the same account.
    let first = provider.mint(&provider.claims(CLIENT, "sub-g", "grace@example.com", true));
    let session: TokenResponse = dto_of(oidc_sign_in(&app, first).await, StatusCode::OK).await;
    assert_eq!(claims_of(&session.token).sub, "grace");
    let moved = provider.mint(&provider.claims(CLIENT, "sub-g", "grace@elsewhere.example", true));
    let session: TokenResponse = dto_of(oidc_sign_in(&app, moved).await, StatusCode::OK).await;
    assert_eq!(claims_of(&session.token).sub, "grace");
    still_serving(&app).await;
}

on_both_backends!(
    accounts_long_passwords_are_refused_never_truncated,
    accounts_login_unknown_user_vs_wrong_password_look_the_same,
    accounts_brute_force_is_throttled_and_forwarded_for_trusted_only_when_configured,
    accounts_jwt_forged_or_expired_tokens_are_401_and_weak_secrets_stop_startup,
    accounts_stale_tokens_of_renamed_unknown_or_repassworded_users_are_401,
    accounts_oidc_bad_id_tokens_are_401_and_emails_never_link,
);
