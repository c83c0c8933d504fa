use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{animated_gif, canvas_bomb, error_of, json_of, png, Backend, TestApp};
use crate::{api_tests, app};

fn titles(page: &Value) -> Vec<String> {
    page["content"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|g| g["title"].as_str().unwrap_or_default().to_owned())
        .collect()
}

async fn list(app: &TestApp, token: &str, path: &str) -> Value {
    json_of(app.get(path, Some(token)).await, StatusCode::OK).await
}

api_tests! {
    async fn upload_returns_the_gif_and_it_is_listed_viewed_and_served(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        let gif = app.upload_gif(&token, "  Dancing cat ", "It dances", &["Cats", "funny", "cats"]).await;
        assert_eq!(gif["title"], "Dancing cat");
        assert_eq!(gif["description"], "It dances");
        assert_eq!(gif["uploadedBy"], "alice");
        assert_eq!(gif["contentType"], "image/gif");
        assert_eq!((gif["contentWidth"].as_i64(), gif["contentHeight"].as_i64(), gif["frameCount"].as_i64()), (Some(64), Some(48), Some(3)));
        assert_eq!(gif["thumbnailWidth"], 64, "never upscaled");
        assert_eq!(gif["thumbnailStaticWidth"], 64);
        assert_eq!(gif["viewCount"], 0);
        assert_eq!(gif["tags"].as_array().map(|t| t.iter().map(|t| t["name"].as_str().unwrap_or_default().to_owned()).collect::<Vec<_>>()), Some(vec!["cats".to_owned(), "funny".to_owned()]));
        assert!(gif["shareId"].as_str().is_some_and(|s| s.len() >= 16));
        assert!(gif["uploadedAt"].as_str().is_some_and(|s| s.ends_with('Z')));
        assert!(gif["contentSize"].as_i64().unwrap_or(0) > 0 && gif["thumbnailSize"].as_i64().unwrap_or(0) > 0);
        let id = gif["id"].as_i64().unwrap_or_default();

        let all = list(&app, &token, "/api/gifs/dtos").await;
        assert_eq!(titles(&all), ["Dancing cat"]);
        assert_eq!(all["totalElements"], 1);

        let first = json_of(app.get(&format!("/api/gifs/dto/{id}"), Some(&token)).await, StatusCode::OK).await;
        let second = json_of(app.get(&format!("/api/gifs/dto/{id}"), Some(&token)).await, StatusCode::OK).await;
        assert_eq!((first["viewCount"].as_i64(), second["viewCount"].as_i64()), (Some(1), Some(2)));
        error_of(app.get("/api/gifs/dto/99999", Some(&token)).await, StatusCode::NOT_FOUND, "not_found").await;
        error_of(app.get(&format!("/api/gifs/dto/{id}"), None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        error_of(app.get("/api/gifs/dtos", None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;

        for (path, content_type) in [("content", "image/gif"), ("thumbnail", "image/gif"), ("static-thumbnail", "image/png")] {
            let response = app.get(&format!("/api/gifs/{path}/{id}"), Some(&token)).await;
            assert_eq!(response.status(), StatusCode::OK, "{path}");
            let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
            assert_eq!(header("content-type"), content_type, "{path}");
            assert_eq!(header("x-content-type-options"), "nosniff");
            assert_eq!(header("content-security-policy"), "sandbox; default-src 'none'");
            assert_eq!(header("cache-control"), "private, max-age=86400");
            assert!(header("content-disposition").starts_with("inline; filename=\"gif-"), "{path}");
            assert!(header("etag").starts_with('"'), "strong etag");
            let etag = header("etag");
            let bytes = response.bytes().await.unwrap_or_default();
            assert!(bytes.starts_with(b"GIF89a") || bytes.starts_with(b"\x89PNG"), "{path}");
            let again = app.client.get(app.url(&format!("/api/gifs/{path}/{id}"))).bearer_auth(&token).header("if-none-match", &etag).send().await.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
        }
        let original = animated_gif(64, 48, 3);
        let ranged = app.client.get(app.url(&format!("/api/gifs/content/{id}"))).bearer_auth(&token).header("range", "bytes=0-5").send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ranged.status(), StatusCode::PARTIAL_CONTENT);
        assert_eq!(ranged.headers().get("content-range").and_then(|v| v.to_str().ok()), Some(format!("bytes 0-5/{}", original.len()).as_str()));
        assert_eq!(ranged.bytes().await.unwrap_or_default().as_ref(), b"GIF89a");
        let past_end = app.client.get(app.url(&format!("/api/gifs/content/{id}"))).bearer_auth(&token).header("range", "bytes=999999-").send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(past_end.status(), StatusCode::RANGE_NOT_SATISFIABLE);
        let whole = app.get(&format!("/api/gifs/content/{id}"), Some(&token)).await.bytes().await.unwrap_or_default();
        assert_eq!(whole.as_ref(), original.as_slice(), "the original is kept byte for byte");
        error_of(app.get("/api/gifs/content/424242", Some(&token)).await, StatusCode::NOT_FOUND, "not_found").await;
    }

    async fn bad_uploads_are_clear_4xx_and_store_nothing(backend: Backend) {
        let app = app!(backend, &[("GIFSHELF_MAX_UPLOAD_MB", "1")]);
        let token = app.signed_in("alice").await;
        let cases: Vec<(&str, Vec<u8>, &str, StatusCode, &str)> = vec![
            ("x.gif", b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".to_vec(), "svg", StatusCode::BAD_REQUEST, "unsupported_type"),
            ("x.gif", b"<!doctype html><html><body>hi</body></html>".to_vec(), "html", StatusCode::BAD_REQUEST, "unsupported_type"),
            ("x.png", b"BM\x3e\0\0\0\0\0\0\0\x36\0\0\0".to_vec(), "bmp", StatusCode::BAD_REQUEST, "unsupported_type"),
            ("x.gif", animated_gif(64, 48, 3)[..40].to_vec(), "truncated", StatusCode::BAD_REQUEST, "invalid_image"),
            ("bomb.gif", canvas_bomb(), "bomb", StatusCode::BAD_REQUEST, "image_too_large"),
            ("big.gif", vec![b'G'; 1024 * 1024 + 1], "too big", StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        ];
        for (name, bytes, title, status, code) in cases {
            let message = error_of(app.upload(&token, name, bytes, title, "", &[]).await, status, code).await;
            assert!(message.ends_with('.'), "{title}: a sentence: {message}");
        }
        let no_title = app.upload(&token, "x.gif", animated_gif(8, 8, 2), "  ", "", &[]).await;
        assert_eq!(error_of(no_title, StatusCode::BAD_REQUEST, "validation").await, "Please enter a title for your GIF.");
        let long_description = "d".repeat(501);
        let too_long = app.upload(&token, "x.gif", animated_gif(8, 8, 2), "ok", &long_description, &[]).await;
        assert_eq!(error_of(too_long, StatusCode::BAD_REQUEST, "validation").await, "Description must be at most 500 characters");

        let no_file = reqwest::multipart::Form::new().text("gifData", json!({"title": "t"}).to_string());
        let response = app.client.post(app.url("/api/gifs")).bearer_auth(&token).multipart(no_file).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(error_of(response, StatusCode::BAD_REQUEST, "bad_request").await, "Please select a file to upload.");

        // A chunked body with no Content-Length is cut off at the limit too.
        let chunks: Vec<Result<Vec<u8>, std::io::Error>> = (0..20).map(|_| Ok(vec![b'x'; 100 * 1024])).collect();
        let body = reqwest::Body::wrap_stream(futures_util_stream(chunks));
        let part = reqwest::multipart::Part::stream(body).file_name("big.gif");
        let form = reqwest::multipart::Form::new().part("file", part).text("gifData", json!({"title": "t"}).to_string());
        let response = app.client.post(app.url("/api/gifs")).bearer_auth(&token).multipart(form).send().await.unwrap_or_else(|e| panic!("{e}"));
        error_of(response, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;

        assert_eq!(list(&app, &token, "/api/gifs/dtos").await["totalElements"], 0);
        assert!(app.stored_files().is_empty(), "nothing stored: {:?}", app.stored_files());
        // The server still answers.
        app.upload_gif(&token, "fine", "", &[]).await;
    }

    async fn the_type_comes_from_the_bytes_not_the_name(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        let gif = json_of(app.upload(&token, "x.gif", png(400, 200), "a png", "", &[]).await, StatusCode::CREATED).await;
        assert_eq!(gif["contentType"], "image/png");
        assert_eq!((gif["contentWidth"].as_i64(), gif["thumbnailWidth"].as_i64(), gif["frameCount"].as_i64()), (Some(400), Some(320), Some(1)));
        let id = gif["id"].as_i64().unwrap_or_default();
        let served = app.get(&format!("/api/gifs/content/{id}"), Some(&token)).await;
        assert_eq!(served.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("image/png"));
        // The file name never reaches the file system.
        let long = format!("{}.gif", "n".repeat(300));
        for name in ["../../etc/passwd.gif", "\u{202e}fig.exe.gif", long.as_str()] {
            let named = json_of(app.upload(&token, name, animated_gif(8, 8, 2), "odd name", "", &[]).await, StatusCode::CREATED).await;
            assert!(named["id"].is_number());
        }
        // A CRLF in the name breaks the part's header: a clean 400, nothing stored.
        let crlf = app.upload(&token, "x\r\nContent-Type: text/html\r\n.gif", animated_gif(8, 8, 2), "crlf", "", &[]).await;
        assert!(crlf.status().is_client_error() || crlf.status() == StatusCode::CREATED, "{}", crlf.status());
        assert!(app.stored_files().iter().all(|f| f.contains("/media/gifs/") && !f.contains("passwd")), "{:?}", app.stored_files());
    }

    async fn paging_is_newest_first_and_consistent(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        for n in 1..=7 {
            app.upload_gif(&token, &format!("gif {n}"), "", &[]).await;
        }
        let default = list(&app, &token, "/api/gifs/dtos").await;
        assert_eq!(default["content"].as_array().map(Vec::len), Some(6), "API default page size is 6");
        let mut seen = Vec::new();
        for page in 0..3 {
            let body = list(&app, &token, &format!("/api/gifs/dtos?page={page}&size=3")).await;
            assert_eq!(body["currentPage"], page);
            assert_eq!((body["totalPages"].as_i64(), body["totalElements"].as_i64()), (Some(3), Some(7)));
            assert_eq!(body["hasNext"], page < 2);
            assert_eq!(body["hasPrevious"], page > 0);
            seen.extend(titles(&body));
        }
        assert_eq!(seen, ["gif 7", "gif 6", "gif 5", "gif 4", "gif 3", "gif 2", "gif 1"]);
        assert!(titles(&list(&app, &token, "/api/gifs/dtos?page=9&size=3").await).is_empty());
        error_of(app.get("/api/gifs/dtos?size=0", Some(&token)).await, StatusCode::BAD_REQUEST, "validation").await;
        error_of(app.get("/api/gifs/dtos?page=-1", Some(&token)).await, StatusCode::BAD_REQUEST, "bad_request").await;
        error_of(app.get("/api/gifs/dtos?size=abc", Some(&token)).await, StatusCode::BAD_REQUEST, "bad_request").await;
    }

    async fn search_tag_and_user_galleries(backend: Backend) {
        let app = app!(backend);
        let alice = app.signed_in("alice").await;
        let bob = app.signed_in("bob").await;
        app.upload_gif(&alice, "Happy cat", "jumps over the fence", &["animals"]).await;
        app.upload_gif(&bob, "Sad dog", "a rainy day", &["animals", "weather"]).await;
        app.upload_gif(&bob, "Sunny beach", "waves", &["weather"]).await;
        let search = |q: &str| format!("/api/gifs/dtos/search?q={}&size=12", urlencode(q));
        assert_eq!(titles(&list(&app, &alice, &search("HAPPY")).await), ["Happy cat"]);
        assert_eq!(titles(&list(&app, &alice, &search("fence cat")).await), ["Happy cat"]);
        assert_eq!(titles(&list(&app, &alice, &search("animals")).await), ["Sad dog", "Happy cat"]);
        assert_eq!(titles(&list(&app, &alice, &search("weather rain")).await), ["Sad dog"]);
        assert_eq!(titles(&list(&app, &alice, &search("nothing")).await), Vec::<String>::new());
        assert_eq!(list(&app, &alice, &search("   ")).await["totalElements"], 3, "an empty search lists everything");
        assert_eq!(titles(&list(&app, &alice, "/api/gifs/dtos/tag/Weather").await), ["Sunny beach", "Sad dog"]);
        assert_eq!(titles(&list(&app, &alice, "/api/gifs/dtos/tag/none").await), Vec::<String>::new());
        assert_eq!(titles(&list(&app, &alice, "/api/gifs/dtos/user/bob").await), ["Sunny beach", "Sad dog"]);
        assert_eq!(list(&app, &alice, "/api/gifs/dtos/user/nobody").await["totalElements"], 0);
    }

    async fn owners_edit_and_delete_others_cannot_admins_only_edit(backend: Backend) {
        let app = app!(backend);
        let admin = app.signed_in("admin").await;
        let alice = app.signed_in("alice").await;
        let bob = app.signed_in("bob").await;
        let gif = app.upload_gif(&alice, "Mine", "original", &["cats"]).await;
        let id = gif["id"].as_i64().unwrap_or_default();
        let path = format!("/api/gifs/{id}");
        let edit = json!({"title": "Hijacked", "description": "x", "tags": [], "uploadedBy": "bob", "viewCount": 999});

        error_of(app.put_json(&path, &bob, &edit).await, StatusCode::FORBIDDEN, "forbidden").await;
        let delete = app.client.delete(app.url(&path)).bearer_auth(&bob).send().await.unwrap_or_else(|e| panic!("{e}"));
        error_of(delete, StatusCode::FORBIDDEN, "forbidden").await;
        let unchanged = json_of(app.get(&format!("/api/gifs/dto/{id}"), Some(&alice)).await, StatusCode::OK).await;
        assert_eq!((unchanged["title"].as_str(), unchanged["description"].as_str()), (Some("Mine"), Some("original")));

        let by_owner = json_of(app.put_json(&path, &alice, &json!({"title": " Still mine ", "description": "edited", "tags": ["Dogs", "new tag"]})).await, StatusCode::OK).await;
        assert_eq!(by_owner["title"], "Still mine");
        assert_eq!(by_owner["uploadedBy"], "alice");
        assert_eq!(by_owner["tags"].as_array().map(|t| t.len()), Some(2));
        let by_admin = json_of(app.put_json(&path, &admin, &edit).await, StatusCode::OK).await;
        assert_eq!((by_admin["title"].as_str(), by_admin["uploadedBy"].as_str()), (Some("Hijacked"), Some("alice")), "uploadedBy in the body is ignored");
        assert!(by_admin["viewCount"].as_i64().unwrap_or(0) < 999, "viewCount in the body is ignored");
        error_of(app.put_json(&path, &alice, &json!({"title": " ", "description": "", "tags": []})).await, StatusCode::BAD_REQUEST, "validation").await;
        error_of(app.put_json("/api/gifs/99999", &alice, &edit).await, StatusCode::NOT_FOUND, "not_found").await;

        let by_admin = app.client.delete(app.url(&path)).bearer_auth(&admin).send().await.unwrap_or_else(|e| panic!("{e}"));
        error_of(by_admin, StatusCode::FORBIDDEN, "forbidden").await;
        assert_eq!(app.stored_files().len(), 3);
        let by_owner = app.client.delete(app.url(&path)).bearer_auth(&alice).send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(by_owner.status(), StatusCode::NO_CONTENT);
        assert!(app.stored_files().is_empty(), "all three blobs are gone: {:?}", app.stored_files());
        error_of(app.get(&format!("/api/gifs/dto/{id}"), Some(&alice)).await, StatusCode::NOT_FOUND, "not_found").await;
        error_of(app.get(&format!("/api/gifs/content/{id}"), Some(&alice)).await, StatusCode::NOT_FOUND, "not_found").await;
        assert_eq!(list(&app, &alice, "/api/gifs/dtos").await["totalElements"], 0);
    }

    async fn tags_are_listed_with_counts_and_created(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        app.upload_gif(&token, "one", "", &["cats"]).await;
        app.upload_gif(&token, "two", "", &["cats", "dogs"]).await;
        let created = json_of(app.client.post(app.url("/api/tags?name=%20Birds%20")).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}")), StatusCode::CREATED).await;
        assert_eq!((created["name"].as_str(), created["count"].as_i64()), (Some("birds"), Some(0)));
        let duplicate = app.client.post(app.url("/api/tags?name=CATS")).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}"));
        error_of(duplicate, StatusCode::CONFLICT, "conflict").await;
        let blank = app.client.post(app.url("/api/tags?name=%20%20")).bearer_auth(&token).send().await.unwrap_or_else(|e| panic!("{e}"));
        error_of(blank, StatusCode::BAD_REQUEST, "validation").await;
        let tags = json_of(app.get("/api/tags", Some(&token)).await, StatusCode::OK).await;
        let summary: Vec<(String, i64)> = tags.as_array().into_iter().flatten().map(|t| (t["name"].as_str().unwrap_or_default().to_owned(), t["count"].as_i64().unwrap_or(-1))).collect();
        assert_eq!(summary, [("cats".to_owned(), 2), ("dogs".to_owned(), 1), ("birds".to_owned(), 0)]);
        let one = json_of(app.get("/api/tags/Cats", Some(&token)).await, StatusCode::OK).await;
        assert_eq!(one["count"], 2);
        error_of(app.get("/api/tags/unknown", Some(&token)).await, StatusCode::NOT_FOUND, "not_found").await;
        error_of(app.get("/api/tags", None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

fn futures_util_stream(
    chunks: Vec<Result<Vec<u8>, std::io::Error>>,
) -> impl futures_core_stream::Stream<Item = Result<Vec<u8>, std::io::Error>> {
    futures_core_stream::iter(chunks)
}

mod futures_core_stream {
    pub use futures_util::stream::{iter, Stream};
}
