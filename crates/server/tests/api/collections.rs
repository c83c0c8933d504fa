use gifshelf_http::dto::{BulkResponse, BulkStatus, CollectionDto, GifDto, PagedGifs};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{dto_of, error_of, Backend, TestApp};
use crate::{app, on_both_backends};

async fn create(app: &TestApp, token: &str, name: &str, visibility: &str) -> CollectionDto {
    let body = json!({"name": name, "description": "", "visibility": visibility});
    dto_of(app.send_json(Method::POST, "/api/collections", Some(token), &body).await, StatusCode::CREATED).await
}

async fn send(app: &TestApp, method: Method, path: &str, token: &str) -> StatusCode {
    app.send_json(method, path, Some(token), &json!({})).await.status()
}

async fn add(app: &TestApp, token: &str, collection: i64, gif: i64) -> StatusCode {
    send(app, Method::PUT, &format!("/api/collections/{collection}/gifs/{gif}"), token).await
}

async fn gif_ids(app: &TestApp, token: &str, collection: i64) -> Vec<i64> {
    let page: PagedGifs =
        dto_of(app.get(&format!("/api/collections/{collection}/gifs?size=100"), Some(token)).await, StatusCode::OK)
            .await;
    page.content.iter().map(|g| g.id).collect()
}

/// The body untyped: some tests send malformed ones on purpose.
async fn bulk(app: &TestApp, token: &str, body: &Value) -> reqwest::Response {
    app.send_json(Method::POST, "/api/gifs/bulk", Some(token), body).await
}

/// `(id, status)` of each result of a bulk answer.
fn statuses(body: &BulkResponse) -> Vec<(i64, BulkStatus)> {
    body.results.iter().map(|r| (r.id, r.status)).collect()
}

async fn tag_names(app: &TestApp, token: &str, gif: i64) -> Vec<String> {
    let detail: GifDto = dto_of(app.get(&format!("/api/gifs/dto/{gif}"), Some(token)).await, StatusCode::OK).await;
    detail.tags.into_iter().map(|t| t.name).collect()
}

/// Names are 1 to 80 characters; visibility is team or private; anonymous callers are refused.
async fn collection_input_is_validated(app: &TestApp, owner: &str) {
    for body in [json!({"name": "   ", "visibility": "team"}), json!({"name": "n".repeat(81), "visibility": "team"})] {
        error_of(
            app.send_json(Method::POST, "/api/collections", Some(owner), &body).await,
            StatusCode::BAD_REQUEST,
            "validation",
        )
        .await;
    }
    let public = json!({"name": "x", "visibility": "public"});
    error_of(
        app.send_json(Method::POST, "/api/collections", Some(owner), &public).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    error_of(app.get("/api/collections", None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

async fn owner_admin_and_others_on_team_and_private_collections(backend: Backend) {
    let app = app!(backend);
    let admin = app.signed_in("alice").await; // the first account is an admin
    let owner = app.signed_in("bob").await;
    let other = app.signed_in("carol").await;
    let gif = app.upload_gif(&other, "Wave", "", &[]).await.id;
    let team = create(&app, &owner, "  Reactions ", "team").await.id;
    let private = create(&app, &owner, "Drafts", "private").await.id;

    // Everyone signed in reads a team collection; only its owner (or an admin) writes it.
    let seen: CollectionDto =
        dto_of(app.get(&format!("/api/collections/{team}"), Some(&other)).await, StatusCode::OK).await;
    assert_eq!((seen.name.as_str(), seen.owner.as_str(), seen.can_edit), ("Reactions", "bob", false));
    let rename = json!({"name": "Mine now", "description": "", "visibility": "team"});
    let path = format!("/api/collections/{team}");
    error_of(app.send_json(Method::PUT, &path, Some(&other), &rename).await, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(add(&app, &other, team, gif).await, StatusCode::FORBIDDEN);
    assert_eq!(send(&app, Method::DELETE, &path, &other).await, StatusCode::FORBIDDEN);
    let order = json!({"gifIds": []});
    let order_path = format!("/api/collections/{team}/order");
    error_of(app.send_json(Method::PUT, &order_path, Some(&other), &order).await, StatusCode::FORBIDDEN, "forbidden")
        .await;

    // Someone else's private collection does not exist for them, admins included.
    for stranger in [&other, &admin] {
        for (method, path) in [
            (Method::GET, format!("/api/collections/{private}")),
            (Method::GET, format!("/api/collections/{private}/gifs")),
            (Method::PUT, format!("/api/collections/{private}/gifs/{gif}")),
            (Method::DELETE, format!("/api/collections/{private}")),
        ] {
            let response = app.send_json(method.clone(), &path, Some(stranger), &json!({})).await;
            error_of(response, StatusCode::NOT_FOUND, "not_found").await;
        }
    }
    let listed: Vec<CollectionDto> = dto_of(app.get("/api/collections", Some(&other)).await, StatusCode::OK).await;
    let names: Vec<&str> = listed.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Reactions"]);
    let listed: Vec<CollectionDto> = dto_of(app.get("/api/collections", Some(&owner)).await, StatusCode::OK).await;
    assert_eq!(listed.len(), 2);

    // The owner adds anyone's GIF (twice: still once) to the private one.
    assert_eq!(add(&app, &owner, private, gif).await, StatusCode::NO_CONTENT);
    assert_eq!(add(&app, &owner, private, gif).await, StatusCode::NO_CONTENT);
    assert_eq!(gif_ids(&app, &owner, private).await, [gif]);
    error_of(
        app.send_json(Method::PUT, &format!("/api/collections/{private}/gifs/999999"), Some(&owner), &json!({})).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;

    // An admin edits and deletes a team collection of someone else.
    let edited: CollectionDto = dto_of(
        app.send_json(
            Method::PUT,
            &path,
            Some(&admin),
            &json!({"name": "Curated", "description": "By the team", "visibility": "team"}),
        )
        .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!((edited.name.as_str(), edited.owner.as_str(), edited.can_edit), ("Curated", "bob", true));
    assert_eq!(send(&app, Method::DELETE, &path, &admin).await, StatusCode::NO_CONTENT);
    error_of(app.get(&path, Some(&owner)).await, StatusCode::NOT_FOUND, "not_found").await;

    collection_input_is_validated(&app, &owner).await;
}

async fn the_order_survives_a_reload_and_must_be_a_permutation(backend: Backend) {
    let app = app!(backend);
    let token = app.signed_in("alice").await;
    let mut gifs = Vec::new();
    for title in ["One", "Two", "Three"] {
        gifs.push(app.upload_gif(&token, title, "", &[]).await.id);
    }
    let collection = create(&app, &token, "Ordered", "private").await.id;
    for gif in &gifs {
        assert_eq!(add(&app, &token, collection, *gif).await, StatusCode::NO_CONTENT);
    }
    assert_eq!(gif_ids(&app, &token, collection).await, gifs);

    let wanted = vec![gifs[2], gifs[0], gifs[1]];
    let path = format!("/api/collections/{collection}/order");
    let response = app.send_json(Method::PUT, &path, Some(&token), &json!({"gifIds": wanted})).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(gif_ids(&app, &token, collection).await, wanted);
    // Adding one already there keeps its place; paging follows the order.
    assert_eq!(add(&app, &token, collection, gifs[2]).await, StatusCode::NO_CONTENT);
    let second: PagedGifs = dto_of(
        app.get(&format!("/api/collections/{collection}/gifs?page=1&size=2"), Some(&token)).await,
        StatusCode::OK,
    )
    .await;
    assert_eq!((second.content.first().map(|g| g.id), second.total_elements), (Some(gifs[1]), 3));

    for bad in [
        json!({"gifIds": [gifs[0], gifs[1]]}),
        json!({"gifIds": [gifs[0], gifs[1], gifs[1]]}),
        json!({"gifIds": [gifs[0], gifs[1], gifs[2], 999_999]}),
    ] {
        error_of(app.send_json(Method::PUT, &path, Some(&token), &bad).await, StatusCode::BAD_REQUEST, "validation")
            .await;
    }
    error_of(
        app.send_json(Method::PUT, &path, Some(&token), &json!({"gifIds": "nope"})).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;
    assert_eq!(gif_ids(&app, &token, collection).await, wanted, "refused orders change nothing");

    // Taking one out leaves the others in order.
    assert_eq!(
        send(&app, Method::DELETE, &format!("/api/collections/{collection}/gifs/{}", gifs[0]), &token).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(gif_ids(&app, &token, collection).await, [gifs[2], gifs[1]]);
    let card: CollectionDto =
        dto_of(app.get(&format!("/api/collections/{collection}"), Some(&token)).await, StatusCode::OK).await;
    assert_eq!((card.gif_count, card.cover), (2, vec![gifs[2], gifs[1]]));
}

async fn a_deleted_gif_leaves_every_collection(backend: Backend) {
    let app = app!(backend);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let doomed = app.upload_gif(&alice, "Doomed", "", &[]).await.id;
    let kept = app.upload_gif(&alice, "Kept", "", &[]).await.id;
    let first = create(&app, &alice, "First", "team").await.id;
    let second = create(&app, &bob, "Second", "private").await.id;
    for (token, collection) in [(&alice, first), (&bob, second)] {
        assert_eq!(add(&app, token, collection, doomed).await, StatusCode::NO_CONTENT);
        assert_eq!(add(&app, token, collection, kept).await, StatusCode::NO_CONTENT);
    }
    assert_eq!(send(&app, Method::DELETE, &format!("/api/gifs/{doomed}"), &alice).await, StatusCode::NO_CONTENT);
    assert_eq!(gif_ids(&app, &alice, first).await, [kept]);
    assert_eq!(gif_ids(&app, &bob, second).await, [kept]);
    let card: CollectionDto =
        dto_of(app.get(&format!("/api/collections/{second}"), Some(&bob)).await, StatusCode::OK).await;
    assert_eq!(card.gif_count, 1);
    // Deleting a collection leaves its GIFs.
    assert_eq!(send(&app, Method::DELETE, &format!("/api/collections/{first}"), &alice).await, StatusCode::NO_CONTENT);
    let _: GifDto = dto_of(app.get(&format!("/api/gifs/dto/{kept}"), Some(&alice)).await, StatusCode::OK).await;
}

async fn the_public_page_works_anonymously_until_sharing_stops(backend: Backend) {
    let app = app!(backend);
    let token = app.signed_in("alice").await;
    let gif = app.upload_gif(&token, "Party <parrot>", "", &[]).await;
    let gif_share = gif.share_id.clone();
    let body = json!({"name": "Best & <brightest>", "description": "Our finest", "visibility": "private"});
    let collection: CollectionDto =
        dto_of(app.send_json(Method::POST, "/api/collections", Some(&token), &body).await, StatusCode::CREATED).await;
    let id = collection.id;
    assert_eq!(collection.share_id, None, "sharing is off by default");
    assert_eq!(add(&app, &token, id, gif.id).await, StatusCode::NO_CONTENT);

    let path = format!("/api/collections/{id}/share");
    let shared: CollectionDto =
        dto_of(app.send_json(Method::PUT, &path, Some(&token), &json!({"enabled": true})).await, StatusCode::OK).await;
    let share = shared.share_id.unwrap_or_default();
    assert!(share.len() >= 16, "an unguessable id: {share}");

    let page = app.get(&format!("/c/{share}"), None).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap_or_default();
    for expected in [
        "<h1>Best &amp; &lt;brightest&gt;</h1>".to_owned(),
        "<meta property=\"og:title\" content=\"Best &amp; &lt;brightest&gt;\">".to_owned(),
        "<meta property=\"og:description\" content=\"Our finest\">".to_owned(),
        format!("/s/{gif_share}.gif\">"),
        format!("<a class=\"cell\" href=\"/s/{gif_share}\"><img src=\"/s/{gif_share}/thumbnail.gif\""),
        "alt=\"Party &lt;parrot&gt;\"".to_owned(),
    ] {
        assert!(html.contains(&expected), "missing {expected} in {html}");
    }
    let thumbnail = app.get(&format!("/s/{gif_share}/thumbnail.gif"), None).await;
    assert_eq!(thumbnail.status(), StatusCode::OK);

    // Sharing off: the page is gone; on again: a new id, the old one stays dead.
    let off =
        json!({"name": "Best & <brightest>", "description": "Our finest", "visibility": "private", "sharing": false});
    let edited: CollectionDto =
        dto_of(app.send_json(Method::PUT, &format!("/api/collections/{id}"), Some(&token), &off).await, StatusCode::OK)
            .await;
    assert_eq!(edited.share_id, None);
    let gone = app.get(&format!("/c/{share}"), None).await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    assert!(gone.text().await.unwrap_or_default().contains("Collection not found"));
    let again: CollectionDto =
        dto_of(app.send_json(Method::PUT, &path, Some(&token), &json!({"enabled": true})).await, StatusCode::OK).await;
    assert_ne!(again.share_id.as_deref(), Some(share.as_str()));
    assert_eq!(app.get(&format!("/c/{share}"), None).await.status(), StatusCode::NOT_FOUND);
    for missing in ["/c/nope", "/c/..%2Fetc"] {
        assert_eq!(app.get(missing, None).await.status(), StatusCode::NOT_FOUND, "{missing}");
    }
}

async fn bulk_answers_per_id_for_mixed_ownership(backend: Backend) {
    let app = app!(backend);
    let admin = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let admins = app.upload_gif(&admin, "Admin's", "", &[]).await.id;
    let bobs = app.upload_gif(&bob, "Bob's", "", &["old"]).await.id;

    let answer =
        bulk(&app, &bob, &json!({"ids": [bobs, admins, 999_999, bobs], "addTags": ["Fresh"], "removeTags": ["old"]}))
            .await;
    let body = dto_of(answer, StatusCode::OK).await;
    assert_eq!(
        statuses(&body),
        [(bobs, BulkStatus::Ok), (admins, BulkStatus::Forbidden), (999_999, BulkStatus::NotFound)]
    );
    assert_eq!(tag_names(&app, &bob, bobs).await, ["fresh"]);
    assert!(tag_names(&app, &bob, admins).await.is_empty());
    let tagged: PagedGifs = dto_of(app.get("/api/gifs/dtos/tag/fresh", Some(&bob)).await, StatusCode::OK).await;
    assert_eq!(tagged.total_elements, 1);
    let found: PagedGifs = dto_of(app.get("/api/gifs/dtos/search?q=fresh", Some(&bob)).await, StatusCode::OK).await;
    assert_eq!(found.total_elements, 1, "search follows the new tags");

    // An admin tags anyone's GIF, but deletes only their own.
    let body = dto_of(bulk(&app, &admin, &json!({"ids": [bobs], "addTags": ["curated"]})).await, StatusCode::OK).await;
    assert_eq!(statuses(&body), [(bobs, BulkStatus::Ok)]);
    let body = dto_of(bulk(&app, &admin, &json!({"ids": [bobs, admins], "delete": true})).await, StatusCode::OK).await;
    assert_eq!(statuses(&body), [(bobs, BulkStatus::Forbidden), (admins, BulkStatus::Ok)]);
    error_of(app.get(&format!("/api/gifs/dto/{admins}"), Some(&admin)).await, StatusCode::NOT_FOUND, "not_found").await;
    let _: GifDto = dto_of(app.get(&format!("/api/gifs/dto/{bobs}"), Some(&admin)).await, StatusCode::OK).await;

    // Anyone adds any GIF to a collection they may edit.
    let collection = create(&app, &admin, "Picks", "team").await.id;
    let body =
        dto_of(bulk(&app, &admin, &json!({"ids": [bobs], "collectionId": collection})).await, StatusCode::OK).await;
    assert_eq!(statuses(&body), [(bobs, BulkStatus::Ok)]);
    assert_eq!(gif_ids(&app, &admin, collection).await, [bobs]);
    error_of(
        bulk(&app, &bob, &json!({"ids": [bobs], "collectionId": collection})).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
}

async fn bulk_is_all_or_nothing_per_action(backend: Backend) {
    let app = app!(backend);
    let token = app.signed_in("alice").await;
    let other = app.signed_in("bob").await;
    let twenty: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
    let twenty: Vec<&str> = twenty.iter().map(String::as_str).collect();
    let full = app.upload_gif(&token, "Full", "", &twenty).await.id;
    let bare = app.upload_gif(&token, "Bare", "", &[]).await.id;

    // One GIF would carry 21 tags: neither changes.
    let refused = bulk(&app, &token, &json!({"ids": [bare, full], "addTags": ["extra"]})).await;
    let message = error_of(refused, StatusCode::BAD_REQUEST, "validation").await;
    assert!(message.contains("Full"), "{message}");
    assert!(tag_names(&app, &token, bare).await.is_empty());
    assert_eq!(tag_names(&app, &token, full).await.len(), 20);

    // A collection the caller may not see refuses the whole request, tags included.
    let hidden = create(&app, &other, "Hidden", "private").await.id;
    let refused = bulk(&app, &token, &json!({"ids": [bare], "addTags": ["extra"], "collectionId": hidden})).await;
    error_of(refused, StatusCode::NOT_FOUND, "not_found").await;
    assert!(tag_names(&app, &token, bare).await.is_empty());

    // Bad tags, no action, no ids, too many ids.
    for body in [
        json!({"ids": [bare], "addTags": [" "]}),
        json!({"ids": [bare]}),
        json!({"ids": [], "delete": true}),
        json!({"ids": (1..=501).collect::<Vec<i64>>(), "delete": true}),
    ] {
        error_of(bulk(&app, &token, &body).await, StatusCode::BAD_REQUEST, "validation").await;
    }
    let _: GifDto = dto_of(app.get(&format!("/api/gifs/dto/{bare}"), Some(&token)).await, StatusCode::OK).await;
    let body = dto_of(
        bulk(&app, &token, &json!({"ids": (1_000..1_500).collect::<Vec<i64>>(), "delete": true})).await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(statuses(&body).len(), 500, "500 is the most a batch names");
    error_of(bulk(&app, &token, &json!({"ids": "all"})).await, StatusCode::BAD_REQUEST, "bad_request").await;
}

on_both_backends!(
    owner_admin_and_others_on_team_and_private_collections,
    the_order_survives_a_reload_and_must_be_a_permutation,
    a_deleted_gif_leaves_every_collection,
    the_public_page_works_anonymously_until_sharing_stops,
    bulk_answers_per_id_for_mixed_ownership,
    bulk_is_all_or_nothing_per_action
);
