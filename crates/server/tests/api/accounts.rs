//! Accounts (admins): removing a member with their GIFs deleted or handed over, one-time password
//! reset links, storage per member.

use gifshelf_http::dto::{
    CollectionDto, CreatedApiKeyDto, OverviewStats, PagedAuditEvents, PagedGifs, PagedMembers, PasswordResetLinkDto,
};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{dto_of, error_of, Backend, Client, TestApp, PASSWORD};
use crate::{app, on_both_backends};

async fn member(admin: &Client, username: &str) -> gifshelf_http::dto::MemberDto {
    let page: PagedMembers = admin.read(&format!("/api/admin/users?q={username}")).await;
    page.content.into_iter().find(|m| m.username == username).unwrap_or_else(|| panic!("{username}"))
}

async fn remove(admin: &Client, id: i64, query: &str) -> reqwest::Response {
    admin.delete(&format!("/api/admin/users/{id}{query}")).await
}

/// The newest audit events' (action, target, detail).
async fn audited(admin: &Client) -> Vec<(String, String, String)> {
    let log: PagedAuditEvents = admin.read("/api/admin/audit?size=20").await;
    log.content.into_iter().map(|e| (e.action, e.target, e.detail)).collect()
}

async fn storage_is_listed_per_member(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    app.user("bob").await;
    let gif = alice.upload_gif("One", "", &[]).await;
    let stored = member(&admin, "alice").await.storage_bytes;
    assert!(stored > 0, "original and renditions: {stored}");
    assert_eq!(member(&admin, "bob").await.storage_bytes, 0);
    alice.upload_gif("Two", "", &[]).await;
    assert!(member(&admin, "alice").await.storage_bytes > stored);
    assert_eq!(alice.delete(&format!("/api/gifs/{}", gif.id)).await.status(), StatusCode::NO_CONTENT);
    assert!(member(&admin, "alice").await.storage_bytes < 2 * stored + stored / 2);
}

async fn removing_needs_a_valid_choice_and_changes_nothing_otherwise(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    alice.upload_gif("Mine", "", &[]).await;
    let (admin_id, alice_id, bob_id) =
        (member(&admin, "admin").await.id, member(&admin, "alice").await.id, member(&admin, "bob").await.id);
    admin.put_json(&format!("/api/admin/users/{bob_id}"), &json!({"status": "disabled"})).await;

    for (query, code) in [
        ("", "validation"),
        ("?gifs=keep", "validation"),
        ("?gifs=transfer", "validation"),
        ("?gifs=transfer&to=999999", "validation"),
        (&format!("?gifs=transfer&to={bob_id}") as &str, "validation"),
        (&format!("?gifs=transfer&to={alice_id}") as &str, "validation"),
        ("?gifs=transfer&to=x", "bad_request"),
    ] {
        error_of(remove(&admin, alice_id, query).await, StatusCode::BAD_REQUEST, code).await;
    }
    let own = error_of(remove(&admin, admin_id, "?gifs=delete").await, StatusCode::CONFLICT, "own_account").await;
    assert!(own.contains("your own account"), "{own}");
    error_of(remove(&admin, 999_999, "?gifs=delete").await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(remove(&alice, admin_id, "?gifs=delete").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(
        bob.delete(&format!("/api/admin/users/{alice_id}?gifs=delete")).await,
        StatusCode::UNAUTHORIZED,
        "account_disabled",
    )
    .await;

    let still = member(&admin, "alice").await;
    assert_eq!((still.gif_count, alice.get("/api/gifs/dtos").await.status()), (1, StatusCode::OK), "nothing changed");
}

async fn a_removed_member_s_gifs_and_files_go_with_everything_they_own(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let kept = admin.upload_gif("Admin's", "", &[]).await;
    let before = app.stored_files().len();
    let one = alice.upload_gif("One", "", &["cats"]).await;
    alice.upload_gif("Two", "", &[]).await;
    assert!(app.stored_files().len() > before);
    let key: CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &json!({"name": "chat"})).await, StatusCode::CREATED).await;
    let body = json!({"name": "Faves", "description": "", "visibility": "private"});
    let _: CollectionDto = dto_of(alice.post_json("/api/collections", &body).await, StatusCode::CREATED).await;
    assert_eq!(alice.put(&format!("/api/gifs/{}/favourite", kept.id)).await.status(), StatusCode::OK);
    let alice_id = member(&admin, "alice").await.id;

    assert_eq!(remove(&admin, alice_id, "?gifs=delete").await.status(), StatusCode::NO_CONTENT);

    assert_eq!(app.stored_files().len(), before, "every file of her GIFs, renditions too, is gone");
    error_of(admin.get(&format!("/api/gifs/dto/{}", one.id)).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(alice.get("/api/gifs/dtos").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let chat = format!("/api/tenor/v2/search?q=x&key={}", key.key);
    assert_eq!(app.anonymous().get(&chat).await.status(), StatusCode::UNAUTHORIZED, "her API key is gone");
    error_of(app.login("alice", PASSWORD).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let gif = admin.gif(kept.id).await;
    assert_eq!(gif.favourite_count, 0, "her star went with her");
    let o: OverviewStats = admin.read("/api/stats").await;
    assert_eq!((o.total_gifs, o.total_users), (1, 1));
    let log = audited(&admin).await;
    let target = format!("alice (#{alice_id})");
    assert!(log.contains(&("user.deleted".into(), target, "2 GIFs deleted".into())), "{log:?}");
    // The name is free again.
    app.user("alice").await;
}

async fn a_removed_member_s_gifs_are_handed_to_another(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let one = alice.upload_gif("One", "", &[]).await;
    alice.upload_gif("Two", "", &[]).await;
    bob.upload_gif("Bob's", "", &[]).await;
    let files = app.stored_files().len();
    let (alice_id, bob_id) = (member(&admin, "alice").await.id, member(&admin, "bob").await.id);
    let alice_bytes = member(&admin, "alice").await.storage_bytes;
    let bob_bytes = member(&admin, "bob").await.storage_bytes;

    assert_eq!(remove(&admin, alice_id, &format!("?gifs=transfer&to={bob_id}")).await.status(), StatusCode::NO_CONTENT);

    assert_eq!(app.stored_files().len(), files, "the files stay");
    let theirs = bob.gif(one.id).await;
    assert_eq!(theirs.uploaded_by, "bob");
    let page: PagedGifs = bob.read("/api/gifs/dtos?size=10").await;
    assert_eq!(page.total_elements, 3);
    let now = member(&admin, "bob").await;
    assert_eq!((now.gif_count, now.storage_bytes), (3, alice_bytes + bob_bytes), "exact counters follow the GIFs");
    let o: OverviewStats = admin.read("/api/stats").await;
    assert_eq!((o.total_gifs, o.total_users), (3, 2));
    assert!(o.top_users.contains(&("bob".to_owned(), "3".to_owned())), "{:?}", o.top_users);
    assert_eq!(
        bob.put_json(&format!("/api/gifs/{}", one.id), &json!({"title": "Now mine"})).await.status(),
        StatusCode::OK
    );
    let log = audited(&admin).await;
    let detail = format!("2 GIFs handed to #{bob_id}");
    assert!(log.contains(&("user.deleted".into(), format!("alice (#{alice_id})"), detail)), "{log:?}");
}

async fn reset(app: &TestApp, token: &str, password: &str) -> reqwest::Response {
    app.anonymous().post_json("/api/auth/password-reset", &json!({"token": token, "password": password})).await
}

fn token_of(link: &PasswordResetLinkDto) -> String {
    link.url.rsplit("/reset/").next().unwrap_or_default().to_owned()
}

async fn a_reset_link_sets_a_password_once_and_ends_every_session(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let key: CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &json!({"name": "chat"})).await, StatusCode::CREATED).await;
    let alice_id = member(&admin, "alice").await.id;
    let path = format!("/api/admin/users/{alice_id}/password-reset");

    let first: PasswordResetLinkDto = dto_of(admin.post(&path).await, StatusCode::CREATED).await;
    assert!(first.url.starts_with("http") && first.url.contains("/reset/"), "{}", first.url);
    assert!(first.expires_at.ends_with('Z'));
    let second: PasswordResetLinkDto = dto_of(admin.post(&path).await, StatusCode::CREATED).await;
    let said =
        error_of(reset(&app, &token_of(&first), "brand-new-pw").await, StatusCode::BAD_REQUEST, "reset_invalid").await;
    assert!(said.contains("invalid or has expired"), "replaced: {said}");
    error_of(reset(&app, &token_of(&second), "short").await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(reset(&app, "", "brand-new-pw").await, StatusCode::BAD_REQUEST, "reset_invalid").await;
    error_of(reset(&app, &"x".repeat(500), "brand-new-pw").await, StatusCode::BAD_REQUEST, "reset_invalid").await;
    let extra = json!({"token": token_of(&second), "password": "brand-new-pw", "x": 1});
    error_of(
        app.anonymous().post_json("/api/auth/password-reset", &extra).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    )
    .await;

    app.pass_seconds(2);
    assert_eq!(reset(&app, &token_of(&second), "brand-new-pw").await.status(), StatusCode::NO_CONTENT);
    error_of(reset(&app, &token_of(&second), "another-pw").await, StatusCode::BAD_REQUEST, "reset_invalid").await;
    error_of(alice.get("/api/gifs/dtos").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let chat = format!("/api/tenor/v2/search?q=x&key={}", key.key);
    assert_eq!(app.anonymous().get(&chat).await.status(), StatusCode::UNAUTHORIZED, "her API key stopped");
    error_of(app.login("alice", PASSWORD).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let again = app.sign_in("alice", "brand-new-pw").await;
    assert_eq!(again.get("/api/gifs/dtos").await.status(), StatusCode::OK);

    let log = audited(&admin).await;
    let target = format!("alice (#{alice_id})");
    assert!(log.iter().any(|e| e.0 == "user.password_reset_link" && e.1 == target), "{log:?}");
    assert!(log.iter().any(|e| e.0 == "user.password_reset" && e.1 == target), "{log:?}");
    error_of(again.post(&path).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(admin.post("/api/admin/users/999999/password-reset").await, StatusCode::NOT_FOUND, "not_found").await;
}

async fn a_reset_link_expires_after_a_day(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    app.user("alice").await;
    let alice_id = member(&admin, "alice").await.id;
    let path = format!("/api/admin/users/{alice_id}/password-reset");
    let link: PasswordResetLinkDto = dto_of(admin.post(&path).await, StatusCode::CREATED).await;
    app.pass_seconds(24 * 3600 + 1);
    error_of(reset(&app, &token_of(&link), "brand-new-pw").await, StatusCode::BAD_REQUEST, "reset_invalid").await;
    app.sign_in("alice", PASSWORD).await;
}

on_both_backends!(
    storage_is_listed_per_member,
    removing_needs_a_valid_choice_and_changes_nothing_otherwise,
    a_removed_member_s_gifs_and_files_go_with_everything_they_own,
    a_removed_member_s_gifs_are_handed_to_another,
    a_reset_link_sets_a_password_once_and_ends_every_session,
    a_reset_link_expires_after_a_day
);
