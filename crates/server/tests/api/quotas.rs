//! Quotas: storage and uploads per day, for everyone (configured, then set by admins) and per
//! member; over one, 429 `quota_exceeded` naming it and nothing stored; a member sees their usage.

use gifshelf_http::dto::{PagedAuditEvents, PagedMembers, QuotaDto, UsageDto};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{dto_of, error_of, Backend, Client};
use crate::{app, on_both_backends};

async fn id_of(admin: &Client, username: &str) -> i64 {
    let page: PagedMembers = admin.read(&format!("/api/admin/users?q={username}")).await;
    page.content.iter().find(|m| m.username == username).map(|m| m.id).unwrap_or_else(|| panic!("{username}"))
}

async fn set_defaults(admin: &Client, body: serde_json::Value) -> reqwest::Response {
    admin.put_json("/api/admin/quotas", &body).await
}

async fn quotas_are_unlimited_until_set_and_refuse_bad_values(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let none: QuotaDto = admin.read("/api/admin/quotas").await;
    assert_eq!((none.storage_bytes, none.uploads_per_day), (None, None));
    let usage: UsageDto = alice.read("/api/settings/usage").await;
    assert_eq!(
        (usage.storage_bytes, usage.storage_limit, usage.uploads_today, usage.uploads_per_day),
        (0, None, 0, None)
    );

    for bad in [json!({"storageBytes": -1}), json!({"uploadsPerDay": -5})] {
        error_of(set_defaults(&admin, bad).await, StatusCode::BAD_REQUEST, "validation").await;
    }
    for bad in [json!({"storageBytes": "lots"}), json!({"other": 1}), json!({"uploadsPerDay": 1.5})] {
        error_of(set_defaults(&admin, bad).await, StatusCode::BAD_REQUEST, "bad_request").await;
    }
    error_of(set_defaults(&alice, json!({})).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(alice.get("/api/admin/quotas").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(app.anonymous().get("/api/settings/usage").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let alice_id = id_of(&admin, "alice").await;
    let own = format!("/api/admin/users/{alice_id}/quota");
    error_of(admin.put_json(&own, &json!({"storageBytes": -3})).await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(admin.put_json("/api/admin/users/999999/quota", &json!({})).await, StatusCode::NOT_FOUND, "not_found")
        .await;

    let set: QuotaDto =
        dto_of(set_defaults(&admin, json!({"storageBytes": 5_000_000, "uploadsPerDay": 20})).await, StatusCode::OK)
            .await;
    assert_eq!((set.storage_bytes, set.uploads_per_day), (Some(5_000_000), Some(20)));
    let mine: QuotaDto = dto_of(admin.put_json(&own, &json!({"uploadsPerDay": 50})).await, StatusCode::OK).await;
    assert_eq!((mine.storage_bytes, mine.uploads_per_day), (None, Some(50)));
    let read: QuotaDto = admin.read(&own).await;
    assert_eq!((read.storage_bytes, read.uploads_per_day), (None, Some(50)));
    let usage: UsageDto = alice.read("/api/settings/usage").await;
    assert_eq!((usage.storage_limit, usage.uploads_per_day), (Some(5_000_000), Some(50)), "her own wins where set");

    let log: PagedAuditEvents = admin.read("/api/admin/audit?size=5").await;
    let changes: Vec<_> =
        log.content.iter().filter(|e| e.action == "user.quota_changed").map(|e| e.target.as_str()).collect();
    assert_eq!(changes, [format!("#{alice_id}").as_str(), "everyone"]);
}

async fn the_configured_quota_holds_until_an_admin_sets_one(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_QUOTA_STORAGE_MB", "50"), ("GIFSHELF_QUOTA_UPLOADS_PER_DAY", "1")]);
    let admin = app.admin().await;
    let got: QuotaDto = admin.read("/api/admin/quotas").await;
    assert_eq!((got.storage_bytes, got.uploads_per_day), (Some(50 * 1024 * 1024), Some(1)));
    admin.upload_gif("One", "", &[]).await;
    let said = error_of(
        admin.upload("b.gif", admin.fresh_gif(), "Two", "", &[]).await,
        StatusCode::TOO_MANY_REQUESTS,
        "quota_exceeded",
    )
    .await;
    assert_eq!(said, "Upload limit of 1 GIFs a day reached");
    let _: QuotaDto =
        dto_of(set_defaults(&admin, json!({"storageBytes": null, "uploadsPerDay": null})).await, StatusCode::OK).await;
    admin.upload_gif("Two", "", &[]).await;
}

async fn uploads_a_day_stop_at_the_limit_and_store_nothing_over_it(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let _: QuotaDto = dto_of(set_defaults(&admin, json!({"uploadsPerDay": 2})).await, StatusCode::OK).await;
    alice.upload_gif("One", "", &[]).await;
    alice.upload_gif("Two", "", &[]).await;
    let files = app.stored_files().len();
    let said = error_of(
        alice.upload("c.gif", alice.fresh_gif(), "Three", "", &[]).await,
        StatusCode::TOO_MANY_REQUESTS,
        "quota_exceeded",
    )
    .await;
    assert_eq!(said, "Upload limit of 2 GIFs a day reached");
    assert_eq!(app.stored_files().len(), files, "nothing stored");
    let usage: UsageDto = alice.read("/api/settings/usage").await;
    assert_eq!((usage.uploads_today, usage.uploads_per_day), (2, Some(2)));
    app.pass_seconds(24 * 3600);
    alice.upload_gif("Tomorrow", "", &[]).await;
}

async fn storage_stops_exactly_at_the_limit(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    // What this file stores (original and renditions), measured on bob's account.
    let bytes = bob.fresh_gif();
    let probe: gifshelf_http::dto::UploadedGifDto =
        dto_of(bob.upload("a.gif", bytes.clone(), "Probe", "", &[]).await, StatusCode::CREATED).await;
    let size: UsageDto = bob.read("/api/settings/usage").await;
    assert_eq!(bob.delete(&format!("/api/gifs/{}", probe.gif.id)).await.status(), StatusCode::NO_CONTENT);
    let alice_id = id_of(&admin, "alice").await;
    let own = format!("/api/admin/users/{alice_id}/quota");
    let _: QuotaDto =
        dto_of(admin.put_json(&own, &json!({"storageBytes": size.storage_bytes})).await, StatusCode::OK).await;

    let _: gifshelf_http::dto::UploadedGifDto =
        dto_of(alice.upload("a.gif", bytes, "Exactly", "", &[]).await, StatusCode::CREATED).await;
    let usage: UsageDto = alice.read("/api/settings/usage").await;
    assert_eq!((usage.storage_bytes, usage.storage_limit), (size.storage_bytes, Some(size.storage_bytes)));
    let files = app.stored_files().len();
    let said = error_of(
        alice.upload("b.gif", alice.fresh_gif(), "Over", "", &[]).await,
        StatusCode::TOO_MANY_REQUESTS,
        "quota_exceeded",
    )
    .await;
    assert!(said.starts_with("Storage quota of ") && said.ends_with(" reached"), "{said}");
    assert_eq!(app.stored_files().len(), files, "nothing stored");
    // Back to the default (unlimited): she uploads again.
    let _: QuotaDto = dto_of(admin.put_json(&own, &json!({})).await, StatusCode::OK).await;
    alice.upload_gif("More", "", &[]).await;
}

/// Uploads at the same moment each check the usage before the others are stored: together they
/// overshoot by at most the ones in flight, and the next one after them is refused.
async fn concurrent_uploads_overshoot_by_at_most_the_ones_in_flight(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let _: QuotaDto = dto_of(set_defaults(&admin, json!({"uploadsPerDay": 1})).await, StatusCode::OK).await;
    let (a, b, c) = (alice.fresh_gif(), alice.fresh_gif(), alice.fresh_gif());
    let (ra, rb, rc) = tokio::join!(
        alice.upload("a.gif", a, "A", "", &[]),
        alice.upload("b.gif", b, "B", "", &[]),
        alice.upload("c.gif", c, "C", "", &[])
    );
    let statuses = [ra.status(), rb.status(), rc.status()];
    let stored = statuses.iter().filter(|s| **s == StatusCode::CREATED).count();
    assert!((1..=3).contains(&stored), "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == StatusCode::CREATED || *s == StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
    error_of(
        alice.upload("d.gif", alice.fresh_gif(), "D", "", &[]).await,
        StatusCode::TOO_MANY_REQUESTS,
        "quota_exceeded",
    )
    .await;
}

on_both_backends!(
    quotas_are_unlimited_until_set_and_refuse_bad_values,
    the_configured_quota_holds_until_an_admin_sets_one,
    uploads_a_day_stop_at_the_limit_and_store_nothing_over_it,
    storage_stops_exactly_at_the_limit,
    concurrent_uploads_overshoot_by_at_most_the_ones_in_flight
);
