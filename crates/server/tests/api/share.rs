use gifshelf_http::dto::TokenResponse;
use reqwest::{Method, StatusCode};

use crate::helpers::{dto_of, send, Backend, TestApp};
use crate::{app, on_both_backends};

async fn share_page_unfurls_and_serves_the_raw_image_without_sign_in(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_PUBLIC_URL", "https://gifs.example.com/")]);
    let anonymous = app.anonymous();
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("<b>Bold</b> & \"quoted\"", "A <script>alert(1)</script> test", &[]).await;
    let share = gif.share_id.clone();
    let id = gif.id;

    let page = anonymous.get(&format!("/s/{share}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(page.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("text/html; charset=utf-8"));
    let html = page.text().await.unwrap_or_default();
    for expected in [
        format!("<meta property=\"og:image\" content=\"https://gifs.example.com/s/{share}.gif\">"),
        format!("<meta property=\"og:url\" content=\"https://gifs.example.com/s/{share}\">"),
        "<meta property=\"og:image:width\" content=\"64\">".to_owned(),
        "<meta property=\"og:image:height\" content=\"48\">".to_owned(),
        "<meta property=\"og:title\" content=\"&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot;\">".to_owned(),
        "<meta name=\"twitter:card\" content=\"summary_large_image\">".to_owned(),
        format!("<meta name=\"twitter:image\" content=\"https://gifs.example.com/s/{share}.gif\">"),
        "Shared by alice".to_owned(),
        "<a href=\"/\">".to_owned(),
    ] {
        assert!(html.contains(&expected), "missing {expected} in {html}");
    }
    assert!(!html.contains("<script>"), "user text is escaped: {html}");

    let raw = anonymous.get(&format!("/s/{share}.gif")).await;
    assert_eq!(raw.status(), StatusCode::OK);
    assert_eq!(raw.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("image/gif"));
    assert!(raw.bytes().await.unwrap_or_default().starts_with(b"GIF89a"));

    // The page view counted.
    assert_eq!(alice.gif(id).await.view_count, 2);

    for missing in ["/s/doesnotexist", "/s/doesnotexist.gif", "/s/..%2F..%2Fetc", "/s/x.exe"] {
        let response = anonymous.get(missing).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{missing}");
        assert!(response.text().await.unwrap_or_default().contains("GIF not found"), "{missing}");
    }

    // A deleted GIF's link looks exactly like one that never existed.
    assert_eq!(alice.delete(&format!("/api/gifs/{id}")).await.status(), StatusCode::NO_CONTENT);
    let gone = anonymous.get(&format!("/s/{share}")).await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    let never = anonymous.get("/s/AAAAAAAAAAAAAAAAAAAAAA").await;
    assert_eq!(gone.text().await.unwrap_or_default(), never.text().await.unwrap_or_default());
}

async fn share_links_use_the_request_origin_when_no_public_url_is_set(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("Origin", "", &[]).await;
    let share = gif.share_id.clone();
    let html = app.anonymous().get(&format!("/s/{share}")).await.text().await.unwrap_or_default();
    let host = app.address.trim_start_matches("http://");
    assert!(html.contains(&format!("content=\"http://{host}/s/{share}.gif\"")), "{html}");
}

/// Every public share URL serves its type, cached for good and named after the share id (never the
/// row id); anything else under the share id is not found.
async fn assert_share_urls_serve_publicly(app: &TestApp, share: &str, id: i64, public: &[(String, &str)]) {
    for (path, content_type) in public {
        let response = app.anonymous().get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let header =
            |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        assert_eq!(header("content-type"), *content_type, "{path}");
        assert_eq!(header("cache-control"), "public, max-age=31536000, immutable");
        let disposition = header("content-disposition");
        assert!(disposition.contains(share) && !disposition.contains(&format!("gif-{id}")), "{path}: {disposition}");
    }
    for wrong in
        [format!("/s/{share}/thumbnail.png"), format!("/s/{share}/other.gif"), "/s/nope/thumbnail.gif".to_owned()]
    {
        assert_eq!(app.anonymous().get(&wrong).await.status(), StatusCode::NOT_FOUND, "{wrong}");
    }
}

async fn media_is_private_except_under_share_ids(backend: Backend) {
    let app = app!(backend);
    app.user("alice").await;
    let login = app.login("alice", "secret1").await;
    let set_cookie = login.headers().get("set-cookie").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert!(
        set_cookie.starts_with("gifshelf_session=")
            && set_cookie.contains("HttpOnly")
            && set_cookie.contains("SameSite=Strict"),
        "{set_cookie}"
    );
    assert!(!set_cookie.contains("Secure"), "plain HTTP: {set_cookie}");
    let cookie = set_cookie.split(';').next().unwrap_or_default().to_owned();
    let session: TokenResponse = dto_of(login, StatusCode::OK).await;
    let (alice, token) = (app.with_token(&session.token), session.token);
    let gif = alice.upload_gif("Private", "", &[]).await;
    let id = gif.id;
    let share = gif.share_id.clone();
    let with_cookie = |path: String, cookie: String| {
        let request = app.anonymous().request(Method::GET, &path).header("cookie", cookie);
        send(request)
    };

    for route in ["content", "thumbnail", "static-thumbnail"] {
        let path = format!("/api/gifs/{route}/{id}");
        // Anonymous: 401 and not one byte of the image.
        let anonymous = app.anonymous().get(&path).await;
        assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED, "{path}");
        let body = anonymous.bytes().await.unwrap_or_default();
        assert!(!body.starts_with(b"GIF") && !body.starts_with(b"\x89PNG"), "{path}");
        // Signed in, by bearer token or by the cookie <img> tags send.
        let by_bearer = alice.get(&path).await;
        assert_eq!(by_bearer.status(), StatusCode::OK, "{path}");
        assert_eq!(
            by_bearer.headers().get("cache-control").and_then(|v| v.to_str().ok()),
            Some("private, max-age=86400")
        );
        assert_eq!(with_cookie(path.clone(), cookie.clone()).await.status(), StatusCode::OK, "{path} by cookie");
        assert_eq!(
            with_cookie(path.clone(), "gifshelf_session=forged.token.here".into()).await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    // The cookie opens media only, never the JSON API.
    assert_eq!(with_cookie("/api/gifs/dtos".into(), cookie.clone()).await.status(), StatusCode::UNAUTHORIZED);

    // The SPA restores the cookie from its stored token; logging out clears it.
    let restored = alice.post("/api/auth/session").await;
    assert_eq!(restored.status(), StatusCode::NO_CONTENT);
    assert!(restored
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with(&format!("gifshelf_session={token};"))));
    let refused = app.anonymous().post("/api/auth/session").await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let logout = send(app.anonymous().request(Method::POST, "/api/auth/logout").header("cookie", &cookie)).await;
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    let cleared = logout.headers().get("set-cookie").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert!(cleared.starts_with("gifshelf_session=;") && cleared.contains("Max-Age=0"), "{cleared}");
    // A browser applies that: its next request carries no session, and gets nothing.
    assert_eq!(
        with_cookie(format!("/api/gifs/content/{id}"), "gifshelf_session=".into()).await.status(),
        StatusCode::UNAUTHORIZED
    );

    // Public reading goes through the share id only, named after it, never after the row id.
    let public = [
        (format!("/s/{share}.gif"), "image/gif"),
        (format!("/s/{share}/original.gif"), "image/gif"),
        (format!("/s/{share}/thumbnail.gif"), "image/gif"),
        (format!("/s/{share}/still.png"), "image/png"),
    ];
    assert_share_urls_serve_publicly(&app, &share, id, &public).await;
    // Deleted: every share URL answers 404 at once.
    assert_eq!(alice.delete(&format!("/api/gifs/{id}")).await.status(), StatusCode::NO_CONTENT);
    for (path, _) in &public {
        assert_eq!(app.anonymous().get(path).await.status(), StatusCode::NOT_FOUND, "{path}");
    }
}

on_both_backends!(
    share_page_unfurls_and_serves_the_raw_image_without_sign_in,
    share_links_use_the_request_origin_when_no_public_url_is_set,
    media_is_private_except_under_share_ids
);
