//! Members (admins): the list, roles without ever leaving no administrator, and disabled accounts
//! whose sessions, media cookie and API keys stop at their very next request.

use gifshelf_http::dto::{CreatedApiKeyDto, MemberDto, PagedMembers};
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{dto_of, error_of, send, Backend, Client, TestApp};
use crate::{app, on_both_backends};

async fn members(admin: &Client, query: &str) -> PagedMembers {
    dto_of(admin.get(&format!("/api/admin/users{query}")).await, StatusCode::OK).await
}

async fn id_of(admin: &Client, username: &str) -> i64 {
    let page = members(admin, &format!("?q={username}")).await;
    page.content.iter().find(|m| m.username == username).map(|m| m.id).unwrap_or_else(|| panic!("{username}"))
}

async fn put(admin: &Client, id: i64, body: serde_json::Value) -> reqwest::Response {
    admin.put_json(&format!("/api/admin/users/{id}"), &body).await
}

async fn the_list_pages_searches_and_counts_gifs(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    app.user("Bobby").await;
    alice.upload_gif("One", "", &[]).await;
    alice.upload_gif("Two", "", &[]).await;

    let all = members(&admin, "?page=0&size=2").await;
    assert_eq!((all.total_elements, all.total_pages, all.has_next), (3, 2, true));
    assert_eq!(all.content.iter().map(|m| m.username.as_str()).collect::<Vec<_>>(), ["admin", "alice"]);
    let found = members(&admin, "?q=ALI").await;
    assert_eq!(found.total_elements, 1);
    let alice_row: &MemberDto = &found.content[0];
    assert_eq!((alice_row.role.as_str(), alice_row.status.as_str(), alice_row.gif_count), ("user", "active", 2));
    assert!(alice_row.last_seen_at.is_some(), "signed in and used: seen");
    assert_eq!(members(&admin, "?q=bobby%40EXAMPLE").await.total_elements, 1, "email, any case");
    assert_eq!(members(&admin, "?q=%25").await.total_elements, 0, "wildcards are literal");

    error_of(
        admin.get(&format!("/api/admin/users?q={}", "x".repeat(101))).await,
        StatusCode::BAD_REQUEST,
        "validation",
    )
    .await;
    error_of(admin.get("/api/admin/users?size=0").await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(alice.get("/api/admin/users").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(app.anonymous().get("/api/admin/users").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

async fn roles_change_but_never_leave_no_admin(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let (admin_id, alice_id) = (id_of(&admin, "admin").await, id_of(&admin, "alice").await);

    let last = error_of(put(&admin, admin_id, json!({"role": "user"})).await, StatusCode::CONFLICT, "last_admin").await;
    assert!(last.contains("last administrator"), "{last}");
    let own =
        error_of(put(&admin, admin_id, json!({"status": "disabled"})).await, StatusCode::CONFLICT, "own_account").await;
    assert!(own.contains("your own account"), "{own}");

    let promoted: MemberDto = dto_of(put(&admin, alice_id, json!({"role": "admin"})).await, StatusCode::OK).await;
    assert_eq!(promoted.role, "admin");
    assert_eq!(alice.get("/api/admin/users").await.status(), StatusCode::OK, "the stored role counts at once");
    // Two admins: one may step down; then the other is the last one again.
    let down: MemberDto = dto_of(put(&alice, admin_id, json!({"role": "user"})).await, StatusCode::OK).await;
    assert_eq!(down.role, "user");
    error_of(put(&alice, alice_id, json!({"role": "user"})).await, StatusCode::CONFLICT, "last_admin").await;
    error_of(admin.get("/api/admin/users").await, StatusCode::FORBIDDEN, "forbidden").await;

    for bad in [json!({"role": "root"}), json!({"status": "gone"}), json!({"role": 3}), json!({"extra": 1})] {
        let status = put(&alice, admin_id, bad.clone()).await.status();
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    error_of(put(&alice, 999_999, json!({"role": "user"})).await, StatusCode::NOT_FOUND, "not_found").await;
}

async fn a_disabled_member_is_refused_everywhere_at_the_next_request(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("Mine", "", &[]).await;
    let key: CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &json!({"name": "chat"})).await, StatusCode::CREATED).await;
    let media = format!("/api/gifs/thumbnail/{}", gif.id);
    let cookie =
        || app.anonymous().request(Method::GET, &media).header("Cookie", format!("gifshelf_session={}", alice.token()));
    let chat = format!("/api/tenor/v2/search?q=x&key={}", key.key);
    assert_eq!(send(cookie()).await.status(), StatusCode::OK);
    assert_eq!(app.anonymous().get(&chat).await.status(), StatusCode::OK);

    let alice_id = id_of(&admin, "alice").await;
    let off: MemberDto = dto_of(put(&admin, alice_id, json!({"status": "disabled"})).await, StatusCode::OK).await;
    assert_eq!(off.status, "disabled");

    let said = error_of(alice.get("/api/gifs/dtos").await, StatusCode::UNAUTHORIZED, "account_disabled").await;
    assert!(said.contains("has been disabled"), "{said}");
    error_of(send(cookie()).await, StatusCode::UNAUTHORIZED, "account_disabled").await;
    let refused = app.anonymous().get(&chat).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert!(refused.text().await.unwrap_or_default().contains("has been disabled"));
    let login =
        error_of(app.login("alice", crate::helpers::PASSWORD).await, StatusCode::FORBIDDEN, "account_disabled").await;
    assert!(login.contains("Ask an administrator"), "{login}");
    // A wrong password tells nothing about the account.
    error_of(app.login("alice", "wrong-password").await, StatusCode::UNAUTHORIZED, "unauthorized").await;

    let on: MemberDto = dto_of(put(&admin, alice_id, json!({"status": "active"})).await, StatusCode::OK).await;
    assert_eq!(on.status, "active");
    assert_eq!(alice.get("/api/gifs/dtos").await.status(), StatusCode::OK, "enabled again: the session works");
    assert_eq!(app.anonymous().get(&chat).await.status(), StatusCode::OK);
    app.sign_in("alice", crate::helpers::PASSWORD).await;
}

async fn last_seen_is_recorded_at_most_hourly(backend: Backend) {
    let app: TestApp = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let seen = |admin: Client| async move {
        members(&admin, "?q=alice").await.content[0].last_seen_at.clone().unwrap_or_default()
    };
    alice.get("/api/gifs/dtos").await;
    let first = seen(admin.clone()).await;
    app.pass_seconds(1800);
    alice.get("/api/gifs/dtos").await;
    assert_eq!(seen(admin.clone()).await, first, "within the hour: not written again");
    app.pass_seconds(1900);
    alice.get("/api/gifs/dtos").await;
    assert_ne!(seen(admin.clone()).await, first, "after an hour: written");
}

on_both_backends!(
    the_list_pages_searches_and_counts_gifs,
    roles_change_but_never_leave_no_admin,
    a_disabled_member_is_refused_everywhere_at_the_next_request,
    last_seen_is_recorded_at_most_hourly
);
