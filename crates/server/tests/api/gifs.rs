use gifshelf_http::dto::{GifDto, PagedGifs, TagDto};
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{animated_gif, canvas_bomb, dto_of, error_of, png, send, Backend};
use crate::{app, on_both_backends};

fn titles(page: &PagedGifs) -> Vec<&str> {
    page.content.iter().map(|g| g.title.as_str()).collect()
}

fn tag_names(gif: &GifDto) -> Vec<&str> {
    gif.tags.iter().map(|t| t.name.as_str()).collect()
}

async fn upload_returns_the_gif_and_it_is_listed_viewed_and_served(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("  Dancing cat ", "It dances", &["Cats", "funny", "cats"]).await;
    assert_eq!(gif.title, "Dancing cat");
    assert_eq!(gif.description, "It dances");
    assert_eq!(gif.uploaded_by, "alice");
    assert_eq!(gif.content_type, "image/gif");
    assert_eq!((gif.content_width, gif.content_height, gif.frame_count), (64, 48, 3));
    assert_eq!(gif.thumbnail_width, 64, "never upscaled");
    assert_eq!(gif.thumbnail_static_width, 64);
    assert_eq!(gif.view_count, 0);
    assert_eq!(tag_names(&gif), ["cats", "funny"]);
    assert!(gif.share_id.len() >= 16, "{}", gif.share_id);
    assert!(gif.uploaded_at.ends_with('Z'), "{}", gif.uploaded_at);
    assert!(gif.content_size > 0 && gif.thumbnail_size > 0);
    let id = gif.id;

    let all: PagedGifs = alice.read("/api/gifs/dtos").await;
    assert_eq!(titles(&all), ["Dancing cat"]);
    assert_eq!(all.total_elements, 1);

    let (first, second) = (alice.gif(id).await, alice.gif(id).await);
    assert_eq!((first.view_count, second.view_count), (1, 2));
    error_of(alice.get("/api/gifs/dto/99999").await, StatusCode::NOT_FOUND, "not_found").await;
    let anonymous = app.anonymous();
    error_of(anonymous.get(&format!("/api/gifs/dto/{id}")).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    error_of(anonymous.get("/api/gifs/dtos").await, StatusCode::UNAUTHORIZED, "unauthorized").await;

    for (path, content_type) in
        [("content", "image/gif"), ("thumbnail", "image/gif"), ("static-thumbnail", "image/png")]
    {
        let url = format!("/api/gifs/{path}/{id}");
        let response = alice.get(&url).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let header =
            |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        assert_eq!(header("content-type"), content_type, "{path}");
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(header("content-security-policy"), "sandbox; default-src 'none'");
        assert_eq!(header("cache-control"), "private, max-age=86400");
        assert!(header("content-disposition").starts_with("inline; filename=\"gif-"), "{path}");
        assert!(header("etag").starts_with('"'), "strong etag");
        let etag = header("etag");
        let bytes = response.bytes().await.unwrap_or_default();
        assert!(bytes.starts_with(b"GIF89a") || bytes.starts_with(b"\x89PNG"), "{path}");
        let again = send(alice.request(Method::GET, &url).header("if-none-match", &etag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
    }
    let original = animated_gif(64, 48, 3);
    let content = format!("/api/gifs/content/{id}");
    let ranged = send(alice.request(Method::GET, &content).header("range", "bytes=0-5")).await;
    assert_eq!(ranged.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        ranged.headers().get("content-range").and_then(|v| v.to_str().ok()),
        Some(format!("bytes 0-5/{}", original.len()).as_str())
    );
    assert_eq!(ranged.bytes().await.unwrap_or_default().as_ref(), b"GIF89a");
    let past_end = send(alice.request(Method::GET, &content).header("range", "bytes=999999-")).await;
    assert_eq!(past_end.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    let whole = alice.get(&content).await.bytes().await.unwrap_or_default();
    assert_eq!(whole.as_ref(), original.as_slice(), "the original is kept byte for byte");
    error_of(alice.get("/api/gifs/content/424242").await, StatusCode::NOT_FOUND, "not_found").await;
}

async fn bad_uploads_are_clear_4xx_and_store_nothing(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_MAX_UPLOAD_MB", "1")]);
    let alice = app.user("alice").await;
    let svg = b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".to_vec();
    let cases: Vec<(&str, Vec<u8>, &str, StatusCode, &str)> = vec![
        ("x.gif", svg, "svg", StatusCode::BAD_REQUEST, "unsupported_type"),
        (
            "x.gif",
            b"<!doctype html><html><body>hi</body></html>".to_vec(),
            "html",
            StatusCode::BAD_REQUEST,
            "unsupported_type",
        ),
        ("x.png", b"BM\x3e\0\0\0\0\0\0\0\x36\0\0\0".to_vec(), "bmp", StatusCode::BAD_REQUEST, "unsupported_type"),
        ("x.gif", animated_gif(64, 48, 3)[..40].to_vec(), "truncated", StatusCode::BAD_REQUEST, "invalid_image"),
        ("bomb.gif", canvas_bomb(), "bomb", StatusCode::BAD_REQUEST, "image_too_large"),
        ("big.gif", vec![b'G'; 1024 * 1024 + 1], "too big", StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
    ];
    for (name, bytes, title, status, code) in cases {
        let message = error_of(alice.upload(name, bytes, title, "", &[]).await, status, code).await;
        assert!(message.ends_with('.'), "{title}: a sentence: {message}");
    }
    let no_title = alice.upload("x.gif", animated_gif(8, 8, 2), "  ", "", &[]).await;
    assert_eq!(error_of(no_title, StatusCode::BAD_REQUEST, "validation").await, "Please enter a title for your GIF.");
    let long_description = "d".repeat(501);
    let too_long = alice.upload("x.gif", animated_gif(8, 8, 2), "ok", &long_description, &[]).await;
    assert_eq!(
        error_of(too_long, StatusCode::BAD_REQUEST, "validation").await,
        "Description must be at most 500 characters"
    );

    let no_file = reqwest::multipart::Form::new().text("gifData", json!({"title": "t"}).to_string());
    let response = send(alice.request(Method::POST, "/api/gifs").multipart(no_file)).await;
    assert_eq!(error_of(response, StatusCode::BAD_REQUEST, "bad_request").await, "Please select a file to upload.");

    // A chunked body with no Content-Length is cut off at the limit too.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = (0..20).map(|_| Ok(vec![b'x'; 100 * 1024])).collect();
    let body = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
    let part = reqwest::multipart::Part::stream(body).file_name("big.gif");
    let form = reqwest::multipart::Form::new().part("file", part).text("gifData", json!({"title": "t"}).to_string());
    let response = send(alice.request(Method::POST, "/api/gifs").multipart(form)).await;
    error_of(response, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;

    assert_eq!(alice.read::<PagedGifs>("/api/gifs/dtos").await.total_elements, 0);
    assert!(app.stored_files().is_empty(), "nothing stored: {:?}", app.stored_files());
    // The server still answers.
    alice.upload_gif("fine", "", &[]).await;
}

async fn the_type_comes_from_the_bytes_not_the_name(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let gif: GifDto = dto_of(alice.upload("x.gif", png(400, 200), "a png", "", &[]).await, StatusCode::CREATED).await;
    assert_eq!(gif.content_type, "image/png");
    assert_eq!((gif.content_width, gif.thumbnail_width, gif.frame_count), (400, 320, 1));
    let served = alice.get(&format!("/api/gifs/content/{}", gif.id)).await;
    assert_eq!(served.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("image/png"));
    // The file name never reaches the file system.
    let long = format!("{}.gif", "n".repeat(300));
    for name in ["../../etc/passwd.gif", "\u{202e}fig.exe.gif", long.as_str()] {
        let response = alice.upload(name, alice.fresh_gif(), "odd name", "", &[]).await;
        let named: GifDto = dto_of(response, StatusCode::CREATED).await;
        assert!(named.id > 0);
    }
    // A CRLF in the name breaks the part's header: a clean 400, nothing stored.
    let crlf = alice.upload("x\r\nContent-Type: text/html\r\n.gif", alice.fresh_gif(), "crlf", "", &[]).await;
    assert!(crlf.status().is_client_error() || crlf.status() == StatusCode::CREATED, "{}", crlf.status());
    assert!(
        app.stored_files().iter().all(|f| f.contains("/media/gifs/") && !f.contains("passwd")),
        "{:?}",
        app.stored_files()
    );
}

async fn paging_is_newest_first_and_consistent(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    for n in 1..=7 {
        alice.upload_gif(&format!("gif {n}"), "", &[]).await;
    }
    let default: PagedGifs = alice.read("/api/gifs/dtos").await;
    assert_eq!(default.content.len(), 6, "API default page size is 6");
    let mut seen = Vec::new();
    for page in 0..3 {
        let body: PagedGifs = alice.read(&format!("/api/gifs/dtos?page={page}&size=3")).await;
        assert_eq!(body.current_page, page);
        assert_eq!((body.total_pages, body.total_elements), (3, 7));
        assert_eq!(body.has_next, page < 2);
        assert_eq!(body.has_previous, page > 0);
        seen.extend(body.content.into_iter().map(|g| g.title));
    }
    assert_eq!(seen, ["gif 7", "gif 6", "gif 5", "gif 4", "gif 3", "gif 2", "gif 1"]);
    assert!(alice.read::<PagedGifs>("/api/gifs/dtos?page=9&size=3").await.content.is_empty());
    error_of(alice.get("/api/gifs/dtos?size=0").await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(alice.get("/api/gifs/dtos?page=-1").await, StatusCode::BAD_REQUEST, "bad_request").await;
    error_of(alice.get("/api/gifs/dtos?size=abc").await, StatusCode::BAD_REQUEST, "bad_request").await;
}

async fn search_tag_and_user_galleries(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    alice.upload_gif("Happy cat", "jumps over the fence", &["animals"]).await;
    bob.upload_gif("Sad dog", "a rainy day", &["animals", "weather"]).await;
    bob.upload_gif("Sunny beach", "waves", &["weather"]).await;
    let list = |path: String| {
        let alice = alice.clone();
        async move { alice.read::<PagedGifs>(&path).await }
    };
    let search = |q: &str| list(format!("/api/gifs/dtos/search?q={}&size=12", urlencode(q)));
    assert_eq!(titles(&search("HAPPY").await), ["Happy cat"]);
    assert_eq!(titles(&search("fence cat").await), ["Happy cat"]);
    assert_eq!(titles(&search("animals").await), ["Sad dog", "Happy cat"]);
    assert_eq!(titles(&search("weather rain").await), ["Sad dog"]);
    assert_eq!(titles(&search("nothing").await), Vec::<&str>::new());
    assert_eq!(search("   ").await.total_elements, 3, "an empty search lists everything");
    assert_eq!(titles(&list("/api/gifs/dtos/tag/Weather".into()).await), ["Sunny beach", "Sad dog"]);
    assert_eq!(titles(&list("/api/gifs/dtos/tag/none".into()).await), Vec::<&str>::new());
    assert_eq!(titles(&list("/api/gifs/dtos/user/bob".into()).await), ["Sunny beach", "Sad dog"]);
    assert_eq!(list("/api/gifs/dtos/user/nobody".into()).await.total_elements, 0);
}

async fn owners_edit_and_delete_others_cannot_admins_only_edit(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let gif = alice.upload_gif("Mine", "original", &["cats"]).await;
    let id = gif.id;
    let path = format!("/api/gifs/{id}");
    let edit = json!({"title": "Hijacked", "description": "x", "tags": [], "uploadedBy": "bob", "viewCount": 999});

    error_of(bob.put_json(&path, &edit).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(bob.delete(&path).await, StatusCode::FORBIDDEN, "forbidden").await;
    let unchanged = alice.gif(id).await;
    assert_eq!((unchanged.title.as_str(), unchanged.description.as_str()), ("Mine", "original"));

    let own_edit = json!({"title": " Still mine ", "description": "edited", "tags": ["Dogs", "new tag"]});
    let by_owner: GifDto = dto_of(alice.put_json(&path, &own_edit).await, StatusCode::OK).await;
    assert_eq!(by_owner.title, "Still mine");
    assert_eq!(by_owner.uploaded_by, "alice");
    assert_eq!(by_owner.tags.len(), 2);
    let by_admin: GifDto = dto_of(admin.put_json(&path, &edit).await, StatusCode::OK).await;
    assert_eq!(
        (by_admin.title.as_str(), by_admin.uploaded_by.as_str()),
        ("Hijacked", "alice"),
        "uploadedBy in the body is ignored"
    );
    assert!(by_admin.view_count < 999, "viewCount in the body is ignored");
    let blank = json!({"title": " ", "description": "", "tags": []});
    error_of(alice.put_json(&path, &blank).await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(alice.put_json("/api/gifs/99999", &edit).await, StatusCode::NOT_FOUND, "not_found").await;

    error_of(admin.delete(&path).await, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(app.stored_files().len(), 3);
    assert_eq!(alice.delete(&path).await.status(), StatusCode::NO_CONTENT);
    assert!(app.stored_files().is_empty(), "all three blobs are gone: {:?}", app.stored_files());
    error_of(alice.get(&format!("/api/gifs/dto/{id}")).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(alice.get(&format!("/api/gifs/content/{id}")).await, StatusCode::NOT_FOUND, "not_found").await;
    assert_eq!(alice.read::<PagedGifs>("/api/gifs/dtos").await.total_elements, 0);
}

async fn tags_are_listed_with_counts_and_created(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    alice.upload_gif("one", "", &["cats"]).await;
    alice.upload_gif("two", "", &["cats", "dogs"]).await;
    let created: TagDto = dto_of(alice.post("/api/tags?name=%20Birds%20").await, StatusCode::CREATED).await;
    assert_eq!((created.name.as_str(), created.count), ("birds", 0));
    error_of(alice.post("/api/tags?name=CATS").await, StatusCode::CONFLICT, "tag_name_taken").await;
    error_of(alice.post("/api/tags?name=%20%20").await, StatusCode::BAD_REQUEST, "validation").await;
    let tags: Vec<TagDto> = alice.read("/api/tags").await;
    let summary: Vec<(&str, i64)> = tags.iter().map(|t| (t.name.as_str(), t.count)).collect();
    assert_eq!(summary, [("cats", 2), ("dogs", 1), ("birds", 0)]);
    let one: TagDto = alice.read("/api/tags/Cats").await;
    assert_eq!(one.count, 2);
    error_of(alice.get("/api/tags/unknown").await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(app.anonymous().get("/api/tags").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

on_both_backends!(
    upload_returns_the_gif_and_it_is_listed_viewed_and_served,
    bad_uploads_are_clear_4xx_and_store_nothing,
    the_type_comes_from_the_bytes_not_the_name,
    paging_is_newest_first_and_consistent,
    search_tag_and_user_galleries,
    owners_edit_and_delete_others_cannot_admins_only_edit,
    tags_are_listed_with_counts_and_created
);
