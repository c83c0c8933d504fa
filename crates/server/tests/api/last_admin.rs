//! The last active administrator: neither demoted, disabled nor deleted (409 `last_admin`), and
//! nothing changes; two admins removing or demoting each other at the same moment leave one.

use gifshelf_http::dto::{MemberDto, PagedMembers};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{dto_of, error_of, Backend, Client};
use crate::{app, on_both_backends};

async fn members(admin: &Client) -> Vec<MemberDto> {
    let page: PagedMembers = admin.read("/api/admin/users?size=50").await;
    page.content
}

async fn member(admin: &Client, username: &str) -> MemberDto {
    members(admin).await.into_iter().find(|m| m.username == username).unwrap_or_else(|| panic!("{username}"))
}

async fn put(client: &Client, id: i64, body: serde_json::Value) -> reqwest::Response {
    client.put_json(&format!("/api/admin/users/{id}"), &body).await
}

/// `(username, role, status)` of every member, as an admin lists them.
async fn roster(admin: &Client) -> Vec<(String, String, String)> {
    members(admin).await.into_iter().map(|m| (m.username, m.role, m.status)).collect()
}

async fn the_last_admin_is_never_demoted_and_nothing_changes(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let (admin_id, alice_id) = (member(&admin, "admin").await.id, member(&admin, "alice").await.id);
    let before = roster(&admin).await;

    let refused = put(&admin, admin_id, json!({"role": "user"})).await;
    let message = error_of(refused, StatusCode::CONFLICT, "last_admin").await;
    assert!(message.contains("last administrator"), "{message}");
    let both = put(&admin, admin_id, json!({"role": "user", "status": "active"})).await;
    error_of(both, StatusCode::CONFLICT, "last_admin").await;
    assert_eq!(roster(&admin).await, before, "nothing changed");
    error_of(
        admin.delete(&format!("/api/admin/users/{admin_id}?gifs=delete")).await,
        StatusCode::CONFLICT,
        "own_account",
    )
    .await;
    assert_eq!(roster(&admin).await, before);

    // A disabled admin is no administrator: the active one is the last again.
    dto_of::<MemberDto>(put(&admin, alice_id, json!({"role": "admin"})).await, StatusCode::OK).await;
    dto_of::<MemberDto>(put(&admin, alice_id, json!({"status": "disabled"})).await, StatusCode::OK).await;
    let with_disabled = roster(&admin).await;
    error_of(put(&admin, admin_id, json!({"role": "user"})).await, StatusCode::CONFLICT, "last_admin").await;
    assert_eq!(roster(&admin).await, with_disabled, "nothing changed");
    error_of(alice.get("/api/admin/users").await, StatusCode::UNAUTHORIZED, "account_disabled").await;
}

/// Two admins act on each other at once: exactly one succeeds; the other is refused as the last
/// admin (or, having lost its own account or role first, as anyone would be).
async fn admins_removing_or_demoting_each_other_at_once_leave_one(backend: Backend) {
    for removing in [true, false] {
        let app = app!(backend);
        let admin = app.admin().await;
        let alice = app.user("alice").await;
        alice.upload_gif("Hers", "", &[]).await;
        let (admin_id, alice_id) = (member(&admin, "admin").await.id, member(&admin, "alice").await.id);
        dto_of::<MemberDto>(put(&admin, alice_id, json!({"role": "admin"})).await, StatusCode::OK).await;

        let (of_alice, of_admin) =
            (format!("/api/admin/users/{alice_id}?gifs=delete"), format!("/api/admin/users/{admin_id}?gifs=delete"));
        let (by_admin, by_alice) = if removing {
            tokio::join!(admin.delete(&of_alice), alice.delete(&of_admin))
        } else {
            tokio::join!(put(&admin, alice_id, json!({"role": "user"})), put(&alice, admin_id, json!({"role": "user"})))
        };
        let won = if removing { StatusCode::NO_CONTENT } else { StatusCode::OK };
        let statuses = [by_admin.status(), by_alice.status()];
        assert_eq!(statuses.iter().filter(|s| **s == won).count(), 1, "removing: {removing}: {statuses:?}");
        let (winner, loser) = if by_admin.status() == won { (&admin, by_alice) } else { (&alice, by_admin) };
        let lost = loser.status();
        let body = loser.text().await.unwrap_or_default();
        let last_admin = lost == StatusCode::CONFLICT && body.contains("\"last_admin\"");
        let too_late = matches!(lost, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
        assert!(last_admin || too_late, "removing: {removing}: {lost} {body}");

        let left = members(winner).await;
        let admins = left.iter().filter(|m| m.role == "admin" && m.status == "active").count();
        assert_eq!(admins, 1, "removing: {removing}: one administrator left");
        assert_eq!(left.len(), if removing { 1 } else { 2 }, "removing: {removing}");
    }
}

on_both_backends!(
    the_last_admin_is_never_demoted_and_nothing_changes,
    admins_removing_or_demoting_each_other_at_once_leave_one
);
