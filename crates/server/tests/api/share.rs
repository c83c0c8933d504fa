use reqwest::StatusCode;

use crate::helpers::{json_of, Backend};
use crate::{api_tests, app};

api_tests! {
    async fn share_page_unfurls_and_serves_the_raw_image_without_sign_in(backend: Backend) {
        let app = app!(backend, &[("GIFSHELF_PUBLIC_URL", "https://gifs.example.com/")]);
        let token = app.signed_in("alice").await;
        let gif = app.upload_gif(&token, "<b>Bold</b> & \"quoted\"", "A <script>alert(1)</script> test", &[]).await;
        let share = gif["shareId"].as_str().unwrap_or_default().to_owned();
        let id = gif["id"].as_i64().unwrap_or_default();

        let page = app.get(&format!("/s/{share}"), None).await;
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

        let raw = app.get(&format!("/s/{share}.gif"), None).await;
        assert_eq!(raw.status(), StatusCode::OK);
        assert_eq!(raw.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("image/gif"));
        assert!(raw.bytes().await.unwrap_or_default().starts_with(b"GIF89a"));

        // The page view counted.
        let detail = json_of(app.get(&format!("/api/gifs/dto/{id}"), Some(&token)).await, StatusCode::OK).await;
        assert_eq!(detail["viewCount"], 2);

        for missing in ["/s/doesnotexist", "/s/doesnotexist.gif", "/s/..%2F..%2Fetc", "/s/x.exe"] {
            let response = app.get(missing, None).await;
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{missing}");
            assert!(response.text().await.unwrap_or_default().contains("GIF not found"), "{missing}");
        }

        // A deleted GIF's link looks exactly like one that never existed.
        app.client.delete(app.url(&format!("/api/gifs/{id}"))).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}"));
        let gone = app.get(&format!("/s/{share}"), None).await;
        assert_eq!(gone.status(), StatusCode::NOT_FOUND);
        let never = app.get("/s/AAAAAAAAAAAAAAAAAAAAAA", None).await;
        assert_eq!(gone.text().await.unwrap_or_default(), never.text().await.unwrap_or_default());
    }

    async fn share_links_use_the_request_origin_when_no_public_url_is_set(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        let gif = app.upload_gif(&token, "Origin", "", &[]).await;
        let share = gif["shareId"].as_str().unwrap_or_default().to_owned();
        let html = app.get(&format!("/s/{share}"), None).await.text().await.unwrap_or_default();
        let host = app.address.trim_start_matches("http://");
        assert!(html.contains(&format!("content=\"http://{host}/s/{share}.gif\"")), "{html}");
    }

    async fn media_is_private_except_under_share_ids(backend: Backend) {
        let app = app!(backend);
        app.signed_in("alice").await;
        let login = app.login("alice", "secret1").await;
        let set_cookie = login.headers().get("set-cookie").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        assert!(set_cookie.starts_with("gifshelf_session=") && set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"), "{set_cookie}");
        assert!(!set_cookie.contains("Secure"), "plain HTTP: {set_cookie}");
        let cookie = set_cookie.split(';').next().unwrap_or_default().to_owned();
        let token = json_of(login, StatusCode::OK).await["token"].as_str().unwrap_or_default().to_owned();
        let gif = app.upload_gif(&token, "Private", "", &[]).await;
        let id = gif["id"].as_i64().unwrap_or_default();
        let share = gif["shareId"].as_str().unwrap_or_default().to_owned();
        let with_cookie = |path: String, cookie: String| {
            let request = app.client.get(app.url(&path)).header("cookie", cookie);
            async move { request.send().await.unwrap_or_else(|e| panic!("{e}")) }
        };

        for route in ["content", "thumbnail", "static-thumbnail"] {
            let path = format!("/api/gifs/{route}/{id}");
            // Anonymous: 401 and not one byte of the image.
            let anonymous = app.get(&path, None).await;
            assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED, "{path}");
            let body = anonymous.bytes().await.unwrap_or_default();
            assert!(!body.starts_with(b"GIF") && !body.starts_with(b"\x89PNG"), "{path}");
            // Signed in, by bearer token or by the cookie <img> tags send.
            let by_bearer = app.get(&path, Some(&token)).await;
            assert_eq!(by_bearer.status(), StatusCode::OK, "{path}");
            assert_eq!(by_bearer.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("private, max-age=86400"));
            assert_eq!(with_cookie(path.clone(), cookie.clone()).await.status(), StatusCode::OK, "{path} by cookie");
            assert_eq!(with_cookie(path.clone(), "gifshelf_session=forged.token.here".into()).await.status(), StatusCode::UNAUTHORIZED);
        }
        // The cookie opens media only, never the JSON API.
        assert_eq!(with_cookie("/api/gifs/dtos".into(), cookie.clone()).await.status(), StatusCode::UNAUTHORIZED);

        // The SPA restores the cookie from its stored token; logging out clears it.
        let restored = app.client.post(app.url("/api/auth/session")).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(restored.status(), StatusCode::NO_CONTENT);
        assert!(restored.headers().get("set-cookie").and_then(|v| v.to_str().ok()).is_some_and(|c| c.starts_with(&format!("gifshelf_session={token};"))));
        let refused = app.client.post(app.url("/api/auth/session")).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
        let logout = app.client.post(app.url("/api/auth/logout")).header("cookie", &cookie).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(logout.status(), StatusCode::NO_CONTENT);
        let cleared = logout.headers().get("set-cookie").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        assert!(cleared.starts_with("gifshelf_session=;") && cleared.contains("Max-Age=0"), "{cleared}");
        // A browser applies that: its next request carries no session, and gets nothing.
        assert_eq!(with_cookie(format!("/api/gifs/content/{id}"), "gifshelf_session=".into()).await.status(), StatusCode::UNAUTHORIZED);

        // Public reading goes through the share id only, named after it, never after the row id.
        let public = [
            (format!("/s/{share}.gif"), "image/gif"),
            (format!("/s/{share}/original.gif"), "image/gif"),
            (format!("/s/{share}/thumbnail.gif"), "image/gif"),
            (format!("/s/{share}/still.png"), "image/png"),
        ];
        for (path, content_type) in &public {
            let response = app.get(path, None).await;
            assert_eq!(response.status(), StatusCode::OK, "{path}");
            let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
            assert_eq!(header("content-type"), *content_type, "{path}");
            assert_eq!(header("cache-control"), "public, max-age=31536000, immutable");
            let disposition = header("content-disposition");
            assert!(disposition.contains(&share) && !disposition.contains(&format!("gif-{id}")), "{path}: {disposition}");
        }
        for wrong in [format!("/s/{share}/thumbnail.png"), format!("/s/{share}/other.gif"), "/s/nope/thumbnail.gif".to_owned()] {
            assert_eq!(app.get(&wrong, None).await.status(), StatusCode::NOT_FOUND, "{wrong}");
        }
        // Deleted: every share URL answers 404 at once.
        app.client.delete(app.url(&format!("/api/gifs/{id}"))).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}"));
        for (path, _) in &public {
            assert_eq!(app.get(path, None).await.status(), StatusCode::NOT_FOUND, "{path}");
        }
    }
}
