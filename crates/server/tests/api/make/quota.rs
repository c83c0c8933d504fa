//! Quotas hold for made GIFs too: a made GIF counts as an upload, and a member with no room left
//! is refused when submitting (429 `quota_exceeded`), before any work or anything stored.

use gifshelf_http::dto::UsageDto;
use reqwest::StatusCode;
use serde_json::json;

use super::{made, recipe, start, test_mp4, WITH_WORKERS};
use crate::helpers::{error_of, Backend};
use crate::{app, with_ffmpeg_on_both_backends};

async fn made_gifs_count_against_the_quota_and_a_full_one_refuses_the_next(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let set = admin.put_json("/api/admin/quotas", &json!({"uploadsPerDay": 1})).await;
    assert_eq!(set.status(), StatusCode::OK);

    made(&alice, Some(test_mp4()), &recipe(json!({}))).await;
    let usage: UsageDto = alice.read("/api/settings/usage").await;
    assert_eq!((usage.uploads_today, usage.uploads_per_day), (1, Some(1)), "the made GIF counts");

    let refused = start(&alice, Some(test_mp4()), "Another", &recipe(json!({}))).await;
    let message = error_of(refused, StatusCode::TOO_MANY_REQUESTS, "quota_exceeded").await;
    assert!(message.contains("Upload limit of 1"), "{message}");
    let sources: Vec<String> = app.stored_files().into_iter().filter(|f| f.contains("/make/")).collect();
    assert!(sources.is_empty(), "no source kept: {sources:?}");
    let page: serde_json::Value = alice.read("/api/gifs/dtos?page=0&size=10").await;
    assert_eq!(page["totalElements"], 1);
}

with_ffmpeg_on_both_backends!(made_gifs_count_against_the_quota_and_a_full_one_refuses_the_next);
