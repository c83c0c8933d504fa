//! Moderation: members report GIFs, admins hide or dismiss, and a hidden GIF is seen only by its
//! owner and admins: gone from every list, search, collection, chat API and share link.

use gifshelf_http::dto::{AuditEventDto, GifDto, PagedAuditEvents, PagedGifs, PagedReports, ReportDto};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{dto_of, error_of, Backend, Client, TestApp};
use crate::{app, on_both_backends};

async fn report(client: &Client, gif: i64, body: serde_json::Value) -> reqwest::Response {
    client.post_json(&format!("/api/gifs/{gif}/reports"), &body).await
}

async fn queue(admin: &Client, query: &str) -> PagedReports {
    dto_of(admin.get(&format!("/api/admin/reports{query}")).await, StatusCode::OK).await
}

async fn resolve(admin: &Client, id: i64, action: &str) -> reqwest::Response {
    admin.put_json(&format!("/api/admin/reports/{id}"), &json!({ "action": action })).await
}

async fn visibility(admin: &Client, gif: i64, body: serde_json::Value) -> reqwest::Response {
    admin.put_json(&format!("/api/admin/gifs/{gif}/visibility"), &body).await
}

async fn listed(client: &Client, path: &str) -> Vec<i64> {
    let page: PagedGifs = dto_of(client.get(path).await, StatusCode::OK).await;
    page.content.iter().map(|g| g.id).collect()
}

async fn audit_actions(admin: &Client) -> Vec<(String, String, String)> {
    let page: PagedAuditEvents = dto_of(admin.get("/api/admin/audit?size=100").await, StatusCode::OK).await;
    page.content.iter().map(|e: &AuditEventDto| (e.action.clone(), e.target.clone(), e.detail.clone())).collect()
}

async fn members_report_and_bad_reports_are_refused(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let gif = alice.upload_gif("Cat", "", &[]).await;

    let filed: ReportDto =
        dto_of(report(&bob, gif.id, json!({"reason": "spam", "note": " buy now "})).await, StatusCode::CREATED).await;
    assert_eq!((filed.reason.as_str(), filed.note.as_str(), filed.status.as_str()), ("spam", "buy now", "open"));
    assert_eq!((filed.reporter.as_str(), filed.gif.owner.as_str(), filed.gif.title.as_str()), ("bob", "alice", "Cat"));
    assert_eq!(filed.gif.thumbnail_url, format!("/api/gifs/thumbnail/{}", gif.id));
    // Idempotent while open: the same report answers, nothing new is stored.
    let again: ReportDto = dto_of(report(&bob, gif.id, json!({"reason": "other"})).await, StatusCode::OK).await;
    assert_eq!((again.id, again.reason.as_str()), (filed.id, "spam"));
    assert_eq!(queue(&admin, "").await.total_elements, 1);

    let own = error_of(report(&alice, gif.id, json!({"reason": "spam"})).await, StatusCode::CONFLICT, "own_gif").await;
    assert!(own.contains("your own GIF"), "{own}");
    error_of(report(&bob, gif.id, json!({"reason": "boring"})).await, StatusCode::BAD_REQUEST, "validation").await;
    let long = json!({"reason": "other", "note": "x".repeat(501)});
    error_of(report(&admin, gif.id, long).await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(report(&bob, gif.id, json!({"note": "no reason"})).await, StatusCode::BAD_REQUEST, "bad_request").await;
    error_of(report(&bob, 999_999, json!({"reason": "spam"})).await, StatusCode::NOT_FOUND, "not_found").await;
    let anonymous = report(&app.anonymous(), gif.id, json!({"reason": "spam"})).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(queue(&admin, "").await.total_elements, 1, "refused reports store nothing");
}

async fn the_queue_is_for_admins_oldest_first(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let first = alice.upload_gif("First", "", &[]).await;
    let second = alice.upload_gif("Second", "", &[]).await;
    dto_of::<ReportDto>(report(&bob, second.id, json!({"reason": "copyright"})).await, StatusCode::CREATED).await;
    app.pass_seconds(60);
    dto_of::<ReportDto>(report(&bob, first.id, json!({"reason": "offensive"})).await, StatusCode::CREATED).await;

    let open = queue(&admin, "?status=open&page=0&size=10").await;
    let titles: Vec<&str> = open.content.iter().map(|r| r.gif.title.as_str()).collect();
    assert_eq!(titles, ["Second", "First"], "oldest first");
    assert_eq!(queue(&admin, "?status=closed").await.total_elements, 0);

    error_of(admin.get("/api/admin/reports?status=pending").await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(admin.get("/api/admin/reports?size=0").await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(bob.get("/api/admin/reports").await, StatusCode::FORBIDDEN, "forbidden").await;
    let id = open.content[0].id;
    error_of(resolve(&bob, id, "hide").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(visibility(&bob, first.id, json!({"hidden": true})).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(bob.get("/api/admin/gifs/hidden").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(resolve(&admin, id, "delete").await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(resolve(&admin, 999_999, "hide").await, StatusCode::NOT_FOUND, "not_found").await;
    let long = json!({"hidden": true, "reason": "x".repeat(201)});
    error_of(visibility(&admin, first.id, long).await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(visibility(&admin, 999_999, json!({"hidden": true})).await, StatusCode::NOT_FOUND, "not_found").await;
    assert_eq!(queue(&admin, "").await.total_elements, 2, "nothing was closed");
}

async fn hiding_closes_every_open_report_and_dismissing_one(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let carol = app.user("carol").await;
    let gif = alice.upload_gif("Cat", "", &[]).await;
    let other = alice.upload_gif("Dog", "", &[]).await;
    let by_bob: ReportDto =
        dto_of(report(&bob, gif.id, json!({"reason": "offensive"})).await, StatusCode::CREATED).await;
    let by_carol: ReportDto =
        dto_of(report(&carol, gif.id, json!({"reason": "spam"})).await, StatusCode::CREATED).await;
    let on_dog: ReportDto =
        dto_of(report(&carol, other.id, json!({"reason": "other"})).await, StatusCode::CREATED).await;

    let dismissed: ReportDto = dto_of(resolve(&admin, on_dog.id, "dismiss").await, StatusCode::OK).await;
    assert_eq!((dismissed.status.as_str(), dismissed.resolution.as_deref()), ("closed", Some("dismissed")));
    assert_eq!(dismissed.resolved_by.as_deref(), Some("admin"));
    assert!(alice.gif(other.id).await.hidden.is_none(), "dismissing hides nothing");

    let hidden: ReportDto = dto_of(resolve(&admin, by_bob.id, "hide").await, StatusCode::OK).await;
    assert_eq!(hidden.resolution.as_deref(), Some("hidden"));
    assert!(hidden.gif.hidden);
    let closed = queue(&admin, "?status=closed").await;
    assert_eq!(closed.total_elements, 3);
    let carols = closed.content.iter().find(|r| r.id == by_carol.id).map(|r| r.resolution.clone());
    assert_eq!(carols, Some(Some("hidden".to_owned())), "every open report of the GIF closes");
    assert_eq!(queue(&admin, "").await.total_elements, 0);
    error_of(resolve(&admin, by_carol.id, "dismiss").await, StatusCode::CONFLICT, "report_closed").await;

    // The owner is shown the report's reason.
    let seen = alice.gif(gif.id).await;
    assert_eq!(seen.hidden.map(|h| h.reason), Some("Offensive content".to_owned()));
    let actions = audit_actions(&admin).await;
    let hidden_entry = actions.iter().find(|(a, _, _)| a == "report.hidden");
    assert!(hidden_entry.is_some_and(|(_, t, d)| t.contains("Cat") && d.contains("bob")), "{actions:?}");
    assert!(actions.iter().any(|(a, t, _)| a == "report.dismissed" && t.contains("Dog")), "{actions:?}");
}

/// Every way a member could reach a GIF, each answering whether this one is there.
async fn reachable(app: &TestApp, member: &Client, gif: &GifDto) -> Vec<(&'static str, bool)> {
    let id = gif.id;
    let share = &gif.share_id;
    let chat = |path: String| async move {
        let response = app.anonymous().get(&path).await;
        response.text().await.unwrap_or_default()
    };
    let status = |response: reqwest::Response| response.status() == StatusCode::OK;
    vec![
        ("gallery", listed(member, "/api/gifs/dtos?size=100").await.contains(&id)),
        ("search", listed(member, "/api/gifs/dtos/search?q=moonlit&size=100").await.contains(&id)),
        ("tag", listed(member, "/api/gifs/dtos/tag/night?size=100").await.contains(&id)),
        ("uploader", listed(member, "/api/gifs/dtos/user/alice?size=100").await.contains(&id)),
        ("favourites", listed(member, "/api/gifs/dtos/favourites?size=100").await.contains(&id)),
        ("detail", status(member.get(&format!("/api/gifs/dto/{id}")).await)),
        ("image", status(member.get(&format!("/api/gifs/content/{id}")).await)),
        ("thumbnail", status(member.get(&format!("/api/gifs/thumbnail/{id}")).await)),
        ("renditions", status(member.get(&format!("/api/gifs/{id}/renditions")).await)),
        ("share page", status(app.anonymous().get(&format!("/s/{share}")).await)),
        ("share image", status(app.anonymous().get(&format!("/s/{share}.gif")).await)),
        ("share file", status(app.anonymous().get(&format!("/s/{share}/thumbnail.gif")).await)),
        ("oembed", status(app.anonymous().get(&format!("/api/oembed?url={}", app.url(&format!("/s/{share}")))).await)),
        ("tenor search", chat("/api/tenor/v2/search?q=moonlit".into()).await.contains(share.as_str())),
        ("tenor featured", chat("/api/tenor/v2/featured".into()).await.contains(share.as_str())),
        ("tenor posts", chat(format!("/api/tenor/v2/posts?ids={share}")).await.contains(share.as_str())),
        ("giphy search", chat("/api/giphy/v1/gifs/search?q=moonlit".into()).await.contains(share.as_str())),
        ("giphy by id", status(app.anonymous().get(&format!("/api/giphy/v1/gifs/{share}")).await)),
        ("gifbox search", chat("/api/gifbox/search?query=moonlit".into()).await.contains(share.as_str())),
    ]
}

async fn a_hidden_gif_is_seen_only_by_its_owner_and_admins(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let gif = alice.upload_gif("Moonlit cat", "", &["night"]).await;
    for client in [&alice, &bob] {
        assert_eq!(client.put(&format!("/api/gifs/{}/favourite", gif.id)).await.status(), StatusCode::OK);
    }
    let before = reachable(&app, &bob, &gif).await;
    assert!(before.iter().all(|(_, seen)| *seen), "everything reaches it first: {before:?}");
    let overview = |admin: Client| async move {
        let stats: serde_json::Value = admin.read("/api/stats").await;
        stats["totalGifs"].as_i64()
    };
    let counted = overview(admin.clone()).await;

    let hidden: GifDto =
        dto_of(visibility(&admin, gif.id, json!({"hidden": true, "reason": "Not for work"})).await, StatusCode::OK)
            .await;
    assert_eq!(hidden.hidden.as_ref().map(|h| h.reason.as_str()), Some("Not for work"));

    let after = reachable(&app, &bob, &gif).await;
    let leaks: Vec<_> = after.iter().filter(|(_, seen)| *seen).collect();
    assert!(leaks.is_empty(), "a hidden GIF reached another member or the public through {leaks:?}");
    error_of(bob.get(&format!("/api/gifs/dto/{}", gif.id)).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(report(&bob, gif.id, json!({"reason": "spam"})).await, StatusCode::NOT_FOUND, "not_found").await;
    let star = bob.put(&format!("/api/gifs/{}/favourite", gif.id)).await;
    error_of(star, StatusCode::NOT_FOUND, "not_found").await;
    let alike = bob.get(&format!("/api/gifs/{}/looks-like", gif.id)).await;
    error_of(alike, StatusCode::NOT_FOUND, "not_found").await;

    // Its owner: their library lists it, marked, and it opens with the reason; an admin opens it.
    let own = alice.gif(gif.id).await;
    assert_eq!(own.hidden.map(|h| h.reason), Some("Not for work".to_owned()));
    assert!(listed(&alice, "/api/gifs/dtos").await.contains(&gif.id), "the owner's library still lists it");
    assert_eq!(alice.get(&format!("/api/gifs/content/{}", gif.id)).await.status(), StatusCode::OK);
    assert_eq!(admin.get(&format!("/api/gifs/dto/{}", gif.id)).await.status(), StatusCode::OK);
    let hidden_list: PagedGifs = dto_of(admin.get("/api/admin/gifs/hidden").await, StatusCode::OK).await;
    assert_eq!(hidden_list.content.iter().map(|g| g.id).collect::<Vec<_>>(), [gif.id]);
    assert_eq!(overview(admin.clone()).await, counted, "statistics count hidden GIFs too");
    let page: PagedGifs = dto_of(bob.get("/api/gifs/dtos").await, StatusCode::OK).await;
    assert_eq!(page.total_elements, 0, "totals leave it out for others");

    // Restored: everything reaches it again.
    let restored: GifDto = dto_of(visibility(&admin, gif.id, json!({"hidden": false})).await, StatusCode::OK).await;
    assert!(restored.hidden.is_none());
    let back = reachable(&app, &bob, &gif).await;
    assert!(back.iter().all(|(_, seen)| *seen), "restored: {back:?}");
    let actions = audit_actions(&admin).await;
    assert!(actions.iter().any(|(a, _, d)| a == "gif.hidden" && d.contains("Not for work")), "{actions:?}");
    assert!(actions.iter().any(|(a, t, _)| a == "gif.restored" && t.contains("Moonlit cat")), "{actions:?}");
}

async fn collections_leave_hidden_gifs_out(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let shown = alice.upload_gif("Shown", "", &[]).await;
    let gif = alice.upload_gif("Hidden soon", "", &[]).await;
    let collection: serde_json::Value = dto_of(
        alice.post_json("/api/collections", &json!({"name": "Mine", "description": "", "visibility": "team"})).await,
        StatusCode::CREATED,
    )
    .await;
    let id = collection["id"].as_i64().unwrap_or_default();
    for g in [shown.id, gif.id] {
        assert_eq!(alice.put(&format!("/api/collections/{id}/gifs/{g}")).await.status(), StatusCode::NO_CONTENT);
    }
    let shared: serde_json::Value = dto_of(
        alice.put_json(&format!("/api/collections/{id}/share"), &json!({"enabled": true})).await,
        StatusCode::OK,
    )
    .await;
    let share = shared["shareId"].as_str().unwrap_or_default().to_owned();
    dto_of::<GifDto>(visibility(&admin, gif.id, json!({"hidden": true})).await, StatusCode::OK).await;

    let path = format!("/api/collections/{id}/gifs");
    assert_eq!(listed(&alice, &path).await, [shown.id], "not in collections, even its owner's");
    let read: serde_json::Value = alice.read(&format!("/api/collections/{id}")).await;
    assert_eq!(read["gifCount"].as_i64(), Some(1));
    let page = app.anonymous().get(&format!("/c/{share}")).await.text().await.unwrap_or_default();
    assert!(page.contains(&shown.share_id) && !page.contains(&gif.share_id), "{page}");
    // Reordering names the GIFs it shows.
    let order = json!({"gifIds": [shown.id]});
    assert_eq!(alice.put_json(&format!("/api/collections/{id}/order"), &order).await.status(), StatusCode::NO_CONTENT);
}

on_both_backends!(
    members_report_and_bad_reports_are_refused,
    the_queue_is_for_admins_oldest_first,
    hiding_closes_every_open_report_and_dismissing_one,
    a_hidden_gif_is_seen_only_by_its_owner_and_admins,
    collections_leave_hidden_gifs_out
);
