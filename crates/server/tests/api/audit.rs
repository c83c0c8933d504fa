//! The audit log (`GET /api/admin/audit`): admin and security events, newest first, with who did
//! them and from which address; admins only.

use gifshelf_domain::ports::UserRepository;
use gifshelf_http::dto::{CreatedApiKeyDto, IntegrationDto, PagedAuditEvents};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{dto_of, error_of, json_of, Backend};
use crate::{app, on_both_backends};

async fn the_audit_log_says_who_did_what_to_what_and_from_where(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let body = json!({"platform": "zulip", "name": "Team Zulip", "secret": "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0"});
    let zulip: IntegrationDto = dto_of(admin.post_json("/api/integrations", &body).await, StatusCode::CREATED).await;
    assert_eq!(admin.delete(&format!("/api/integrations/{}", zulip.id)).await.status(), StatusCode::NO_CONTENT);
    let key: CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &json!({"name": "Team chat"})).await, StatusCode::CREATED).await;
    assert_eq!(alice.delete(&format!("/api/keys/{}", key.id)).await.status(), StatusCode::NO_CONTENT);

    let log: PagedAuditEvents = admin.read("/api/admin/audit?size=10").await;
    let seen: Vec<(&str, &str)> =
        log.content.iter().map(|e| (e.action.as_str(), e.actor.as_ref().map_or("", |a| a.username.as_str()))).collect();
    assert_eq!(
        seen,
        [
            ("api_key.revoked", "alice"),
            ("api_key.made", "alice"),
            ("integration.removed", "admin"),
            ("integration.added", "admin")
        ],
        "newest first"
    );
    let added = &log.content[3];
    assert!(added.target.contains("Team Zulip") && added.target.contains("zulip"), "{added:?}");
    assert_eq!(added.detail, "secret …JLJ0, maximum rating g", "the hint, never the secret");
    assert_eq!(added.address.as_deref(), Some("127.0.0.1"));
    assert!(log.content[1].target.contains(&key.id.to_string()) && !log.content[1].target.contains(&key.key));
    assert_eq!((log.total_elements, log.has_next), (4, false));
    let page: PagedAuditEvents = admin.read("/api/admin/audit?page=1&size=3").await;
    assert_eq!((page.content.len(), page.has_previous), (1, true));

    error_of(alice.get("/api/admin/audit").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(app.anonymous().get("/api/admin/audit").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    error_of(admin.get("/api/admin/audit?size=0").await, StatusCode::BAD_REQUEST, "validation").await;
    error_of(admin.get("/api/admin/audit?page=-1").await, StatusCode::BAD_REQUEST, "bad_request").await;
}

on_both_backends!(the_audit_log_says_who_did_what_to_what_and_from_where);

async fn members_invitations_who_may_join_and_passwords_are_audited(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let alice_id = app.database().find_by_username("alice").await.map(|u| u.id.0).unwrap_or_else(|e| panic!("{e}"));
    let change = |body: serde_json::Value| {
        let admin = &admin;
        async move { admin.put_json(&format!("/api/admin/users/{alice_id}"), &body).await.status() }
    };
    assert_eq!(change(json!({"role": "admin"})).await, StatusCode::OK);
    assert_eq!(change(json!({"status": "disabled", "role": "user"})).await, StatusCode::OK);
    assert_eq!(change(json!({"status": "active"})).await, StatusCode::OK);
    let policy = json!({"mode": "invite", "allowedDomains": ["example.com"], "membersMayInvite": false});
    assert_eq!(admin.put_json("/api/admin/registration", &policy).await.status(), StatusCode::OK);
    let invite = json_of(
        admin.post_json("/api/invites", &json!({"maxUses": 2, "expiresInHours": 24})).await,
        StatusCode::CREATED,
    )
    .await;
    let invite_id = invite["id"].as_i64().unwrap_or_default();
    assert_eq!(admin.delete(&format!("/api/invites/{invite_id}")).await.status(), StatusCode::NO_CONTENT);
    let body = json!({"currentPassword": crate::helpers::PASSWORD, "newPassword": "another secret", "confirmPassword": "another secret"});
    assert_eq!(alice.put_json("/api/settings/password", &body).await.status(), StatusCode::OK);

    let log: PagedAuditEvents = admin.read("/api/admin/audit?size=20").await;
    let seen: Vec<(&str, &str, &str, &str)> = log
        .content
        .iter()
        .rev()
        .map(|e| {
            (
                e.action.as_str(),
                e.actor.as_ref().map_or("", |a| a.username.as_str()),
                e.target.as_str(),
                e.detail.as_str(),
            )
        })
        .collect();
    let alice_target = format!("alice (#{alice_id})");
    let invitation = format!("invitation #{invite_id}");
    assert_eq!(
        seen,
        [
            ("user.role_changed", "admin", alice_target.as_str(), "role: admin"),
            ("user.role_changed", "admin", alice_target.as_str(), "role: user"),
            ("user.disabled", "admin", alice_target.as_str(), ""),
            ("user.enabled", "admin", alice_target.as_str(), ""),
            (
                "registration.changed",
                "admin",
                "who may join",
                "mode: invite; email domains: example.com; members may invite: no"
            ),
            ("invitation.made", "admin", invitation.as_str(), "role: user; uses: 2; valid for 24 hours"),
            ("invitation.revoked", "admin", invitation.as_str(), ""),
            ("user.password_changed", "alice", alice_target.as_str(), "earlier sessions and API keys stop working"),
        ],
        "oldest first"
    );
}

on_both_backends!(members_invitations_who_may_join_and_passwords_are_audited);
