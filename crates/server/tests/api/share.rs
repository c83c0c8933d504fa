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
}
