//! Renditions made after the upload by the job workers: every kind listed by
//! `GET /api/gifs/{id}/renditions`, each file served to signed-in people only, the smaller video
//! preferred for a photo-like GIF, the share page's `og:video`, and 100 uploads in a row all
//! served by the queue.

use std::time::{Duration, Instant};

use gifshelf_http::dto::{GifDto, RenditionDto};
use gifshelf_media::testing::photo_gif;
use reqwest::StatusCode;

use crate::helpers::{dto_of, Backend, Client};
use crate::{app, on_both_backends};

pub(crate) const WITH_WORKERS: &[(&str, &str)] = &[("GIFSHELF_WORKERS", "1"), ("GIFSHELF_JOB_POLL_MS", "50")];

/// Whether the app makes videos: with the `ffmpeg` found when the tests were built (the cfg
/// `ffmpeg_tests`; without it the app runs with `GIFSHELF_FFMPEG=off`, and `ffmpeg_in_ci.rs` fails
/// a CI run).
pub(crate) fn video_available() -> bool {
    cfg!(ffmpeg_tests)
}

/// Waits until the GIF lists every kind in `kinds`.
pub(crate) async fn renditions_of(client: &Client, id: i64, kinds: &[&str]) -> Vec<RenditionDto> {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let list: Vec<RenditionDto> =
            dto_of(client.get(&format!("/api/gifs/{id}/renditions")).await, StatusCode::OK).await;
        if kinds.iter().all(|k| list.iter().any(|r| r.kind == *k)) {
            return list;
        }
        assert!(Instant::now() < deadline, "GIF {id} still lacks some of {kinds:?}: {list:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_photo_like_gif_gets_every_kind_and_plays_as_the_smaller_video(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    let response = alice.upload("photo.gif", photo_gif(240, 160, 12), "Sunset", "", &[]).await;
    let gif: GifDto = dto_of(response, StatusCode::CREATED).await;
    let video = video_available();
    let mut kinds = vec!["original", "thumbnail", "still", "tiny", "nano", "fixed_height"];
    if video {
        kinds.extend(["mp4", "mp4_small", "webm", "webm_small", "poster"]);
    }
    let list = renditions_of(&alice, gif.id, &kinds).await;
    let of = |kind: &str| list.iter().find(|r| r.kind == kind).unwrap_or_else(|| panic!("no {kind}"));
    assert_eq!((of("tiny").width, of("nano").height, of("fixed_height").height), (220, 90, 160), "{list:?}");
    assert_eq!(of("thumbnail").frames, 12);
    for rendition in &list {
        // Every file for a signed-in reader, with its type and size; nothing for anyone else.
        let file = alice.get(&rendition.url).await;
        assert_eq!(file.status(), StatusCode::OK, "{}", rendition.url);
        let content_type = file.headers().get("content-type").and_then(|v| v.to_str().ok()).map(str::to_owned);
        assert_eq!(content_type.as_deref(), Some(rendition.content_type.as_str()));
        assert_eq!(file.bytes().await.map(|b| b.len() as i64).unwrap_or(-1), rendition.size);
        assert_eq!(app.anonymous().get(&rendition.url).await.status(), StatusCode::UNAUTHORIZED);
    }
    // A name that is not one of its files: another extension, an unknown kind, a kind it lacks,
    // another GIF's id.
    let mut wrong = vec![
        (format!("/api/gifs/{}/files/thumbnail.png", gif.id), "This GIF has no such file."),
        (format!("/api/gifs/{}/files/huge.gif", gif.id), "This GIF has no such file."),
        (format!("/api/gifs/{}/files/thumbnail.gif", gif.id + 1000), "GIF not found"),
    ];
    let lacking = ["medium", "webp", "mp4", "webm"].into_iter().find(|kind| list.iter().all(|r| r.kind != *kind));
    wrong.extend(lacking.map(|kind| (format!("/api/gifs/{}/files/{kind}.gif", gif.id), "This GIF has no such file.")));
    for (path, message) in wrong {
        let answer = alice.get(&path).await;
        assert_eq!(answer.status(), StatusCode::NOT_FOUND, "{path}");
        let body = answer.text().await.unwrap_or_default();
        assert!(body.contains(message) && body.contains("not_found"), "{path}: {body}");
    }
    // The GIF as every screen sees it carries the same list.
    let detail: GifDto = dto_of(alice.get(&format!("/api/gifs/dto/{}", gif.id)).await, StatusCode::OK).await;
    assert_eq!(detail.renditions.len(), list.len());
    assert_eq!(
        app.anonymous().get(&format!("/api/gifs/{}/renditions", gif.id)).await.status(),
        StatusCode::UNAUTHORIZED
    );
    if video {
        let mp4 = of("mp4");
        assert_eq!((mp4.codec.as_deref(), mp4.content_type.as_str()), (Some("h264"), "video/mp4"));
        assert!(mp4.duration_ms.is_some_and(|ms| ms > 0));
        // Photo-like: a video is the file to play at both sizes, and far smaller than the GIF.
        let full =
            list.iter().find(|r| r.preferred && ["original", "medium", "mp4", "webm"].contains(&r.kind.as_str()));
        let full = full.unwrap_or_else(|| panic!("nothing preferred at full size: {list:?}"));
        assert!(full.codec.is_some() && full.size * 4 <= of("original").size, "{full:?}");
        assert!(list.iter().any(|r| r.preferred && r.kind.ends_with("_small")), "{list:?}");
        // Under the share id the MP4 is public, and the share page offers it as og:video.
        let shared = app.anonymous().get(&format!("/s/{}/mp4.mp4", gif.share_id)).await;
        assert_eq!(shared.status(), StatusCode::OK);
        let page = app.anonymous().get(&format!("/s/{}", gif.share_id)).await.text().await.unwrap_or_default();
        assert!(page.contains(&format!("/s/{}/mp4.mp4\">", gif.share_id)) && page.contains("og:video:type"), "{page}");
    }
    // Deleting the GIF takes every file with it.
    assert_eq!(alice.delete(&format!("/api/gifs/{}", gif.id)).await.status(), StatusCode::NO_CONTENT);
    let left = walk(&app.data_dir.join("media"));
    assert!(left.is_empty(), "files left after the delete: {left:?}");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .flat_map(|e| if e.path().is_dir() { walk(&e.path()) } else { vec![e.path()] })
        .filter(|p| !p.components().any(|c| c.as_os_str() == ".partial"))
        .collect()
}

async fn a_hundred_uploads_in_a_row_all_get_their_renditions(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    let mut ids = Vec::new();
    for n in 0..100 {
        ids.push(alice.upload_gif(&format!("GIF {n}"), "", &[]).await.id);
    }
    let kinds: &[&str] =
        if video_available() { &["tiny", "nano", "fixed_height", "mp4_small", "webm"] } else { &["tiny"] };
    for id in ids {
        renditions_of(&alice, id, kinds).await;
    }
}

on_both_backends!(
    a_photo_like_gif_gets_every_kind_and_plays_as_the_smaller_video,
    a_hundred_uploads_in_a_row_all_get_their_renditions
);
