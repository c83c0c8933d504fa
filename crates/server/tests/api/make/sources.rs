//! Every kind of source: a WebM video, a GIF file, a GIF of the library ("Edit a copy", which
//! links the copy to it) and a link; and who may read a job.

use std::sync::Arc;

use gifshelf_http::dto::{GifDto, MakeStartedDto, MakeStatusDto};
use gifshelf_media::testing::animated_gif;
use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::{frames_of, made, recipe, settled, start, test_mp4, video, WITH_WORKERS};
use crate::helpers::{dto_of, error_of, Backend};
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap_or_else(|e| panic!("{e}"));
    let port = listener.local_addr().unwrap_or_else(|e| panic!("{e}")).port();
    let body = Arc::new(body);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let body = body.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0_u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&body).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    format!("http://127.0.0.1:{port}/clip")
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
    only_its_maker_and_admins_read_a_job,
);
