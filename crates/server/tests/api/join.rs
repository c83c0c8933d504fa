//! Who may join: the registration policy (open, invite, closed; allowed email domains), invitations,
//! and Google sign-ups under them.

use gifshelf_auth::testing::FakeOidcProvider;
use gifshelf_http::dto::{
    CreatedInviteDto, GoogleLoginRequest, InviteDto, PublicConfig, RegisterRequest, RegistrationPolicyDto,
};
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{claims_of, dto_of, error_of, Backend, Client, TestApp, PASSWORD};
use crate::{app, on_both_backends};

const CLIENT: &str = "gifshelf-e2e.apps.example.com";

async fn register(app: &TestApp, username: &str, email: &str, invite: Option<&str>) -> Response {
    let body = RegisterRequest {
        username: username.to_owned(),
        email: email.to_owned(),
        password: PASSWORD.to_owned(),
        confirm_password: PASSWORD.to_owned(),
        invite: invite.map(str::to_owned),
    };
    app.anonymous().post_json("/api/auth/register", &body).await
}

async fn joins(app: &TestApp, username: &str, invite: Option<&str>) {
    let response = register(app, username, &format!("{username}@example.com"), invite).await;
    assert_eq!(response.status(), StatusCode::CREATED, "{username}: {:?}", response.text().await);
}

async fn refused(app: &TestApp, username: &str, invite: Option<&str>, code: &str) -> String {
    error_of(register(app, username, &format!("{username}@example.com"), invite).await, StatusCode::FORBIDDEN, code)
        .await
}

async fn set_policy(admin: &Client, body: Value) -> Response {
    admin.put_json("/api/admin/registration", &body).await
}

async fn mode(admin: &Client, mode: &str, domains: &[&str], members_may_invite: bool) {
    let body = json!({"mode": mode, "allowedDomains": domains, "membersMayInvite": members_may_invite});
    let stored: RegistrationPolicyDto = dto_of(set_policy(admin, body).await, StatusCode::OK).await;
    assert_eq!(stored.mode, mode);
}

async fn invite(client: &Client, body: Value) -> CreatedInviteDto {
    dto_of(client.post_json("/api/invites", &body).await, StatusCode::CREATED).await
}

async fn registration_mode(app: &TestApp) -> String {
    app.anonymous().read::<PublicConfig>("/api/config").await.registration
}

async fn open_is_the_default(backend: Backend) {
    let app = app!(backend);
    assert_eq!(registration_mode(&app).await, "open");
    let admin = app.admin().await;
    let policy: RegistrationPolicyDto = admin.read("/api/admin/registration").await;
    assert_eq!((policy.mode.as_str(), policy.allowed_domains.len(), policy.members_may_invite), ("open", 0, false));
    joins(&app, "bob", None).await;
    let bob = app.sign_in("bob", PASSWORD).await;
    assert_eq!(bob.get("/api/admin/registration").await.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        set_policy(&bob, json!({"mode": "closed", "allowedDomains": [], "membersMayInvite": false})).await.status(),
        StatusCode::FORBIDDEN
    );
}

async fn invite_mode_lets_in_only_with_an_invitation(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    mode(&admin, "invite", &[], false).await;
    assert_eq!(registration_mode(&app).await, "invite");
    let message = refused(&app, "bob", None, "invitation_required").await;
    assert!(message.contains("invitation"), "{message}");
    let created = invite(&admin, json!({})).await;
    assert_eq!(
        (created.max_uses, created.uses, created.role.as_str(), created.created_by.as_str()),
        (1, 0, "user", "admin")
    );
    assert!(created.url.ends_with(&format!("/join/{}", created.token)), "{}", created.url);
    assert!(created.token.len() >= 22, "at least 128 bits: {}", created.token);
    refused(&app, "bob", Some("not-a-real-token"), "invitation_invalid").await;
    joins(&app, "bob", Some(&created.token)).await;
    refused(&app, "carol", Some(&created.token), "invitation_invalid").await;
    let listed: Vec<InviteDto> = admin.read("/api/invites").await;
    assert_eq!((listed.len(), listed[0].uses), (1, 1));
}

async fn closed_refuses_everyone_but_honours_invitations_and_their_role(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    mode(&admin, "closed", &[], false).await;
    assert_eq!(registration_mode(&app).await, "closed");
    refused(&app, "bob", None, "registration_closed").await;
    let created = invite(&admin, json!({"role": "admin", "maxUses": 2, "expiresInHours": 1})).await;
    joins(&app, "bob", Some(&created.token)).await;
    let bob = app.sign_in("bob", PASSWORD).await;
    assert_eq!(claims_of(bob.token()).roles, "ROLE_USER,ROLE_ADMIN", "an invitation's role is the account's");
}

async fn the_first_account_gets_in_whatever_the_configured_policy(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_REGISTRATION", "closed"), ("GIFSHELF_ALLOWED_EMAIL_DOMAINS", "Corp.Example")]);
    assert_eq!(registration_mode(&app).await, "closed");
    let admin = app.admin().await;
    refused(&app, "bob", None, "registration_closed").await;
    let seeded: RegistrationPolicyDto = admin.read("/api/admin/registration").await;
    assert_eq!((seeded.mode.as_str(), seeded.allowed_domains.clone()), ("closed", vec!["corp.example".to_owned()]));
    mode(&admin, "open", &["corp.example"], false).await;
    refused(&app, "bob", None, "email_domain_not_allowed").await;
    let at_corp = register(&app, "bob", "bob@CORP.example", None).await;
    assert_eq!(at_corp.status(), StatusCode::CREATED);
}

async fn allowed_domains_apply_to_invited_people_too(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    mode(&admin, "invite", &["corp.example"], false).await;
    let created = invite(&admin, json!({"maxUses": 5})).await;
    refused(&app, "bob", Some(&created.token), "email_domain_not_allowed").await;
    assert_eq!(register(&app, "bob", "bob@corp.example", Some(&created.token)).await.status(), StatusCode::CREATED);
    let listed: Vec<InviteDto> = admin.read("/api/invites").await;
    assert_eq!(listed[0].uses, 1, "a refused registration takes no use");
}

async fn invitations_expire_and_can_be_revoked(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    mode(&admin, "invite", &[], false).await;
    let hour = invite(&admin, json!({"expiresInHours": 1, "maxUses": 10})).await;
    let week = invite(&admin, json!({"maxUses": 10})).await;
    app.pass_seconds(3600);
    refused(&app, "bob", Some(&hour.token), "invitation_invalid").await;
    joins(&app, "bob", Some(&week.token)).await;
    assert_eq!(admin.delete(&format!("/api/invites/{}", week.id)).await.status(), StatusCode::NO_CONTENT);
    refused(&app, "carol", Some(&week.token), "invitation_invalid").await;
    error_of(admin.delete(&format!("/api/invites/{}", week.id)).await, StatusCode::NOT_FOUND, "not_found").await;
    let listed: Vec<InviteDto> = admin.read("/api/invites").await;
    assert_eq!(listed.iter().map(|i| i.id).collect::<Vec<_>>(), vec![hour.id]);
}

async fn two_people_racing_for_a_one_use_invitation_one_gets_in(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    mode(&admin, "invite", &[], false).await;
    for round in 0..3 {
        let once = invite(&admin, json!({"maxUses": 1})).await;
        let (a, b) = (format!("ann{round}"), format!("ben{round}"));
        let (a_email, b_email) = (format!("{a}@example.com"), format!("{b}@example.com"));
        let (first, second) = tokio::join!(
            register(&app, &a, &a_email, Some(&once.token)),
            register(&app, &b, &b_email, Some(&once.token)),
        );
        let mut statuses = [first.status(), second.status()];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::CREATED, StatusCode::FORBIDDEN], "round {round}");
    }
}

async fn members_invite_only_when_the_policy_lets_them(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let bob = app.user("bob").await;
    mode(&admin, "invite", &[], false).await;
    let may_invite = || async { app.anonymous().read::<PublicConfig>("/api/config").await.members_may_invite };
    assert!(!may_invite().await, "the SPA is told members may not invite");
    error_of(bob.post_json("/api/invites", &json!({})).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(bob.get("/api/invites").await, StatusCode::FORBIDDEN, "forbidden").await;
    mode(&admin, "invite", &[], true).await;
    assert!(may_invite().await, "the SPA is told members may invite");
    let admins = invite(&admin, json!({})).await;
    let bobs = invite(&bob, json!({"role": "user"})).await;
    error_of(bob.post_json("/api/invites", &json!({"role": "admin"})).await, StatusCode::FORBIDDEN, "forbidden").await;
    let mine: Vec<InviteDto> = bob.read("/api/invites").await;
    assert_eq!(mine.iter().map(|i| i.id).collect::<Vec<_>>(), vec![bobs.id]);
    let all: Vec<InviteDto> = admin.read("/api/invites").await;
    assert_eq!(all.len(), 2);
    error_of(bob.delete(&format!("/api/invites/{}", admins.id)).await, StatusCode::NOT_FOUND, "not_found").await;
    joins(&app, "carol", Some(&bobs.token)).await;
    assert_eq!(bob.delete(&format!("/api/invites/{}", bobs.id)).await.status(), StatusCode::NO_CONTENT);
}

async fn bad_input_is_a_400(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let many: Vec<String> = (0..51).map(|i| format!("d{i}.example")).collect();
    for body in [
        json!({"mode": "public", "allowedDomains": [], "membersMayInvite": false}),
        json!({"mode": "open", "allowedDomains": ["not a domain"], "membersMayInvite": false}),
        json!({"mode": "open", "allowedDomains": many, "membersMayInvite": false}),
    ] {
        error_of(set_policy(&admin, body).await, StatusCode::BAD_REQUEST, "validation").await;
    }
    for body in [
        json!({"maxUses": 0}),
        json!({"maxUses": -1}),
        json!({"maxUses": 1001}),
        json!({"expiresInHours": 0}),
        json!({"expiresInHours": 10000}),
        json!({"role": "root"}),
    ] {
        error_of(admin.post_json("/api/invites", &body).await, StatusCode::BAD_REQUEST, "validation").await;
    }
    assert!(admin.read::<Vec<InviteDto>>("/api/invites").await.is_empty());
}

async fn google(app: &TestApp, id_token: &str, invite: Option<&str>) -> Response {
    let body = GoogleLoginRequest { token: id_token.to_owned(), invite: invite.map(str::to_owned) };
    app.anonymous().post_json("/api/auth/google", &body).await
}

fn token(provider: &FakeOidcProvider, subject: &str, email: &str, hd: Option<&str>) -> String {
    let mut claims = provider.claims(CLIENT, subject, email, true);
    if let Some(hd) = hd {
        claims["hd"] = json!(hd);
    }
    provider.mint(&claims)
}

async fn google_sign_ups_follow_the_domains_and_the_workspace_domain(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = app!(
        backend,
        &[
            ("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT),
            ("GIFSHELF_OIDC_ISSUER", provider.issuer()),
            ("GIFSHELF_ALLOWED_EMAIL_DOMAINS", "corp.example")
        ]
    );
    let _admin = app.admin().await;
    let outsider = google(&app, &token(&provider, "s1", "eve@gmail.com", None), None).await;
    error_of(outsider, StatusCode::FORBIDDEN, "email_domain_not_allowed").await;
    let other_workspace = google(&app, &token(&provider, "s2", "eve@corp.example", Some("other.example")), None).await;
    error_of(other_workspace, StatusCode::FORBIDDEN, "email_domain_not_allowed").await;
    let workspace = google(&app, &token(&provider, "s3", "ann@corp-mail.example", Some("corp.example")), None).await;
    assert_eq!(workspace.status(), StatusCode::OK, "the hd claim decides");
    let by_email = google(&app, &token(&provider, "s4", "ben@corp.example", None), None).await;
    assert_eq!(by_email.status(), StatusCode::OK);
}

async fn google_sign_ups_carry_an_invitation(backend: Backend) {
    let provider = FakeOidcProvider::start().await;
    let app = app!(
        backend,
        &[
            ("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT),
            ("GIFSHELF_OIDC_ISSUER", provider.issuer()),
            ("GIFSHELF_REGISTRATION", "invite")
        ]
    );
    let admin = app.admin().await;
    let uninvited = google(&app, &token(&provider, "s1", "eve@example.com", None), None).await;
    error_of(uninvited, StatusCode::FORBIDDEN, "invitation_required").await;
    let created = invite(&admin, json!({})).await;
    let invited = google(&app, &token(&provider, "s2", "ann@example.com", None), Some(&created.token)).await;
    let session: Value = dto_of(invited, StatusCode::OK).await;
    assert!(session["token"].is_string());
    let used_up = google(&app, &token(&provider, "s3", "ben@example.com", None), Some(&created.token)).await;
    error_of(used_up, StatusCode::FORBIDDEN, "invitation_invalid").await;
    // Signing in again needs no invitation: the account exists.
    assert_eq!(google(&app, &token(&provider, "s2", "ann@example.com", None), None).await.status(), StatusCode::OK);
}

on_both_backends!(
    open_is_the_default,
    invite_mode_lets_in_only_with_an_invitation,
    closed_refuses_everyone_but_honours_invitations_and_their_role,
    the_first_account_gets_in_whatever_the_configured_policy,
    allowed_domains_apply_to_invited_people_too,
    invitations_expire_and_can_be_revoked,
    two_people_racing_for_a_one_use_invitation_one_gets_in,
    members_invite_only_when_the_policy_lets_them,
    bad_input_is_a_400,
    google_sign_ups_follow_the_domains_and_the_workspace_domain,
    google_sign_ups_carry_an_invitation,
);
