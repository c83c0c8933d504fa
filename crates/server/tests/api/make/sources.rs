//! Every kind of source: a WebM video, a GIF file, a GIF of the library ("Edit a copy", which
//! links the copy to it) and a link; and who may read a job.

use std::sync::Arc;

use gifshelf_http::dto::{GifDto, MakeStartedDto, MakeStatusDto};
use gifshelf_media::testing::animated_gif;
use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::{frames_of, made, recipe, settled, start, test_mp4, video, WITH_WORKERS};
use crate::helpers::{dto_of, error_of, png, Backend};
use crate::{app, with_ffmpeg_on_both_backends};

async fn a_webm_and_a_gif_file_are_sources_too(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    let webm = video("testsrc=size=320x180:rate=30:duration=2", "libvpx-vp9", "webm");
    let gif = made(&alice, Some(webm), &recipe(json!({"end": 1.0, "width": 240}))).await;
    assert_eq!((gif.content_width, gif.content_height), (240, 135));
    assert!(frames_of(&alice, &gif).await.len().abs_diff(10) <= 1);

    // A GIF file: 64×48, 3 frames of 10 cs; all of it, at its own width, every frame.
    let asked = json!({"start": 0.0, "end": 0.3, "width": 240, "fps": 10, "speed": 1.0, "direction": "reverse"});
    let copy = made(&alice, Some(animated_gif(64, 48, 3)), &asked).await;
    assert_eq!((copy.content_width, copy.content_height), (64, 48));
    assert_eq!(frames_of(&alice, &copy).await.len(), 3);
}

async fn edit_a_copy_links_the_copy_to_its_source_and_leaves_the_source_alone(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let source = bob.upload_gif("Dancing cat", "", &["cat"]).await;
    let before: GifDto = bob.gif(source.id).await;
    let before_bytes = bob.get(&format!("/api/gifs/content/{}", source.id)).await.bytes().await.unwrap_or_default();

    // Anyone of the library may copy it; the copy is theirs.
    let asked =
        recipe(json!({"gifId": source.id, "end": 0.3, "caption": {"text": "mood", "position": "bottom", "size": "m"}}));
    let copy = made(&alice, None, &asked).await;
    assert_eq!(copy.uploaded_by, "alice");
    let link = copy.made_from.as_ref().unwrap_or_else(|| panic!("no madeFrom: {copy:?}"));
    assert_eq!((link.id, link.title.as_str()), (source.id, "Dancing cat"));
    let after = bob.gif(source.id).await;
    assert_eq!((after.title, after.content_size, after.made_from.is_none()), (before.title, before.content_size, true));
    let after_bytes = bob.get(&format!("/api/gifs/content/{}", source.id)).await.bytes().await.unwrap_or_default();
    assert_eq!(after_bytes, before_bytes, "the source is never changed");
    // The copy outlives its source.
    assert_eq!(bob.delete(&format!("/api/gifs/{}", source.id)).await.status(), StatusCode::NO_CONTENT);
    let orphan = alice.gif(copy.id).await;
    assert!(orphan.made_from.is_none(), "{orphan:?}");
}

/// A one-route HTTP server on loopback serving `body` as `content_type` at `/clip`.
async fn serve(body: Vec<u8>, content_type: &'static str) -> String {
    format!("{}/clip", serve_routes(vec![("/clip", content_type, body)]).await)
}

/// An HTTP server on loopback answering each `(path, content type, body)` (any other path: 404);
/// its origin, `http://127.0.0.1:PORT`.
async fn serve_routes(routes: Vec<(&'static str, &'static str, Vec<u8>)>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap_or_else(|e| panic!("{e}"));
    let port = listener.local_addr().unwrap_or_else(|e| panic!("{e}")).port();
    let routes = Arc::new(routes);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let routes = routes.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0_u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let line = String::from_utf8_lossy(&request);
                let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let (status, content_type, body): (&str, &str, &[u8]) =
                    match routes.iter().find(|(route, ..)| *route == path) {
                        Some((_, content_type, body)) => ("200 OK", content_type, body),
                        None => ("404 Not Found", "text/plain", b"no such file"),
                    };
                let head = format!(
                    "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(body).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    format!("http://127.0.0.1:{port}")
}

async fn a_link_to_a_video_is_fetched_under_the_link_rules(backend: Backend) {
    let allowed = [WITH_WORKERS, &[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.0/8")]].concat();
    let app = app!(backend, &allowed);
    let alice = app.user("alice").await;
    let url = serve(test_mp4(), "video/mp4").await;
    let gif = made(&alice, None, &recipe(json!({"sourceUrl": url, "end": 1.0, "width": 240}))).await;
    assert_eq!((gif.content_width, gif.content_height), (240, 180));

    // Without the allowance loopback is a private address: refused before anything is queued.
    let strict = app!(backend, WITH_WORKERS);
    let bob = strict.user("bob").await;
    let refused = start(&bob, None, "Linked", &recipe(json!({"sourceUrl": url}))).await;
    error_of(refused, StatusCode::BAD_REQUEST, "url_refused").await;
}

/// A page that names its video in one of the tags link previews use.
fn page_naming(tags: &str) -> Vec<u8> {
    format!(
        "<!doctype html><html><head><title>A clip</title><meta property=\"og:title\" content=\"A clip\">\
         <meta property=\"og:image\" content=\"/poster.png\">{tags}</head><body>A clip</body></html>"
    )
    .into_bytes()
}

async fn a_link_to_a_page_that_names_its_video_makes_a_gif_of_the_video(backend: Backend) {
    let allowed =
        [WITH_WORKERS, &[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.0/8"), ("GIFSHELF_MAX_VIDEO_MB", "1")]].concat();
    let app = app!(backend, &allowed);
    let alice = app.user("alice").await;
    let poster = png(8, 8);
    let origin = serve_routes(vec![
        ("/clip.mp4", "video/mp4", test_mp4()),
        ("/player", "text/html", page_naming("")),
        ("/poster.png", "image/png", poster),
        ("/huge.mp4", "video/mp4", vec![0_u8; 1024 * 1024 + 1]),
        ("/og-video", "text/html", page_naming(r#"<meta property="og:video" content="/clip.mp4">"#)),
        ("/og-video-url", "text/html", page_naming(r#"<meta property="og:video:url" content="clip.mp4">"#)),
        // The first video named is a player page: the next one is fetched.
        (
            "/og-video-secure",
            "text/html",
            page_naming(
                r#"<meta property="og:video" content="/player"><meta property="og:video:secure_url" content="/clip.mp4">"#,
            ),
        ),
        ("/twitter", "text/html", page_naming(r#"<meta name="twitter:player:stream" content="/clip.mp4">"#)),
        ("/huge", "text/html", page_naming(r#"<meta property="og:video" content="/huge.mp4">"#)),
        ("/private", "text/html", page_naming(r#"<meta property="og:video" content="http://10.0.0.1/clip.mp4">"#)),
        ("/poster-only", "text/html", page_naming("")),
    ])
    .await;
    // Each one a little longer (the same GIF twice would be a duplicate).
    for (page, frames) in [("/og-video", 10_u32), ("/og-video-url", 12), ("/og-video-secure", 14), ("/twitter", 16)] {
        let end = f64::from(frames) / 10.0;
        let asked = recipe(json!({"sourceUrl": format!("{origin}{page}"), "end": end, "width": 240}));
        let gif = made(&alice, None, &asked).await;
        assert_eq!((gif.content_width, gif.content_height), (240, 180), "{page}");
        assert!(frames_of(&alice, &gif).await.len().abs_diff(frames as usize) <= 1, "{page}");
    }
    // The link's rules hold for the video a page names: its address, and the video size cap.
    for (page, status, code) in [
        ("/private", StatusCode::BAD_REQUEST, "url_refused"),
        ("/huge", StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        // A page with no video gives its image: a still is no source.
        ("/poster-only", StatusCode::BAD_REQUEST, "unsupported_type"),
    ] {
        let asked = recipe(json!({"sourceUrl": format!("{origin}{page}")}));
        error_of(start(&alice, None, "Linked", &asked).await, status, code).await;
    }
    let gifs: serde_json::Value = alice.read("/api/gifs/dtos?page=0&size=10").await;
    assert_eq!(gifs["totalElements"], 4, "nothing stored for the refused links: {gifs}");
}

async fn only_its_maker_and_admins_read_a_job(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let started: MakeStartedDto =
        dto_of(start(&alice, Some(test_mp4()), "Mine", &recipe(json!({}))).await, StatusCode::ACCEPTED).await;
    let path = format!("/api/make/{}", started.job_id);
    error_of(bob.get(&path).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(bob.get("/api/make/999999").await, StatusCode::NOT_FOUND, "not_found").await;
    assert_eq!(app.anonymous().get(&path).await.status(), StatusCode::UNAUTHORIZED);
    let done = settled(&alice, started.job_id).await;
    assert_eq!(done.state, "done");
    let seen: MakeStatusDto = dto_of(admin.get(&path).await, StatusCode::OK).await;
    assert_eq!((seen.state.as_str(), seen.gif_id), ("done", done.gif_id));
    error_of(bob.get(&path).await, StatusCode::NOT_FOUND, "not_found").await;
}

with_ffmpeg_on_both_backends!(
    a_webm_and_a_gif_file_are_sources_too,
    edit_a_copy_links_the_copy_to_its_source_and_leaves_the_source_alone,
    a_link_to_a_video_is_fetched_under_the_link_rules,
    a_link_to_a_page_that_names_its_video_makes_a_gif_of_the_video,
    only_its_maker_and_admins_read_a_job,
);
