//! Every bad request is refused before anything is stored: a 400 with its code (or a 413), no
//! source kept in the blob store, no job queued.

use gifshelf_domain::ports::JobQueue;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{recipe, start, test_mp4};
use crate::helpers::{error_of, png, send, Backend, Client, TestApp};
use crate::{app, with_ffmpeg_on_both_backends};

/// Nothing of a make is stored: no source blob, no job, no GIF.
async fn nothing_stored(app: &TestApp, client: &Client) {
    let sources: Vec<String> = app.stored_files().into_iter().filter(|f| f.contains("/make/")).collect();
    assert!(sources.is_empty(), "sources left behind: {sources:?}");
    let counts = app.database().counts().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((counts.queued, counts.running, counts.failed), (0, 0, 0), "a job was queued");
    let gifs: Value = client.read("/api/gifs/dtos?page=0&size=10").await;
    assert_eq!(gifs["totalElements"], 0, "{gifs}");
}

/// An MP4 with a sound track and no picture.
fn sound_only() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("sound.mp4");
    let ffmpeg = option_env!("GIFSHELF_TEST_FFMPEG").unwrap_or("ffmpeg");
    let status = std::process::Command::new(ffmpeg)
        .args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i"])
        .args(["anullsrc=r=44100:cl=mono", "-t", "1", "-c:a", "aac"])
        .arg(&out)
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success());
    std::fs::read(&out).unwrap_or_else(|e| panic!("{e}"))
}

async fn bad_sources_and_recipes_are_refused_and_nothing_is_stored(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_MAX_VIDEO_MB", "1"), ("GIFSHELF_MAX_VIDEO_SECS", "2")]);
    let alice = app.user("alice").await;
    let mp4 = test_mp4();
    let short = super::video("testsrc=size=320x240:rate=25:duration=1", "libx264", "mp4");
    let mut damaged = mp4[..mp4.len() / 3].to_vec();
    damaged.extend(std::iter::repeat_n(0x55, 4096));
    let file_cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("a still image", png(64, 48), "unsupported_type"),
        ("text", b"just some words, not a video".to_vec(), "unsupported_type"),
        ("a damaged video", damaged, "invalid_image"),
        ("no video stream", sound_only(), "unsupported_type"),
        ("a video longer than GIFSHELF_MAX_VIDEO_SECS", mp4, "validation"),
    ];
    for (what, bytes, code) in file_cases {
        let response = start(&alice, Some(bytes), "Bad", &recipe(json!({"end": 0.5}))).await;
        let message = error_of(response, StatusCode::BAD_REQUEST, code).await;
        assert!(!message.is_empty(), "{what}");
    }
    let big = vec![0_u8; 1024 * 1024 + 10];
    error_of(start(&alice, Some(big), "Big", &recipe(json!({}))).await, StatusCode::PAYLOAD_TOO_LARGE, "too_large")
        .await;

    let recipe_cases: Vec<(&str, Value)> = vec![
        ("end before start", json!({"start": 0.8, "end": 0.5})),
        ("end at start", json!({"start": 0.5, "end": 0.5})),
        ("a clip over 60 s", json!({"start": 0.0, "end": 61.0})),
        ("a start past the end", json!({"start": 1.5, "end": 2.0})),
        ("a crop outside the frame", json!({"crop": {"x": 300, "y": 0, "width": 40, "height": 40}})),
        ("a crop under 16 px", json!({"crop": {"x": 0, "y": 0, "width": 15, "height": 40}})),
        ("a width off the list", json!({"width": 300})),
        ("a frame rate off the list", json!({"fps": 30})),
        ("too slow", json!({"speed": 0.25})),
        ("too fast", json!({"speed": 2.5})),
        ("an unknown direction", json!({"direction": "sideways"})),
        ("a caption too long", json!({"caption": {"text": "x".repeat(101), "position": "top", "size": "s"}})),
        ("a caption with control characters", json!({"caption": {"text": "a\u{7}b", "position": "top", "size": "s"}})),
        ("an unknown gifId", json!({"gifId": 424242})),
        ("two sources", json!({"sourceUrl": "http://example.com/a.mp4"})),
    ];
    for (what, changes) in recipe_cases {
        let response = start(&alice, Some(short.clone()), "Bad", &recipe(changes)).await;
        let message = error_of(response, StatusCode::BAD_REQUEST, "validation").await;
        assert!(!message.is_empty(), "{what}");
    }
    error_of(start(&alice, None, "No source", &recipe(json!({}))).await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(start(&alice, Some(short.clone()), " ", &recipe(json!({}))).await, StatusCode::BAD_REQUEST, "validation")
        .await;

    // Malformed parts.
    let form = reqwest::multipart::Form::new().text("gifData", json!({"title": "t"}).to_string()).text("recipe", "{");
    let response = send(alice.request(Method::POST, "/api/make").multipart(form)).await;
    error_of(response, StatusCode::BAD_REQUEST, "bad_request").await;
    let form = reqwest::multipart::Form::new().text("gifData", json!({"title": "t"}).to_string());
    let response = send(alice.request(Method::POST, "/api/make").multipart(form)).await;
    error_of(response, StatusCode::BAD_REQUEST, "bad_request").await;
    let unknown = recipe(json!({"colour": "red"}));
    error_of(start(&alice, Some(short), "t", &unknown).await, StatusCode::BAD_REQUEST, "bad_request").await;
    assert_eq!(app.anonymous().post("/api/make").await.status(), StatusCode::UNAUTHORIZED);

    nothing_stored(&app, &alice).await;
}

with_ffmpeg_on_both_backends!(bad_sources_and_recipes_are_refused_and_nothing_is_stored);
