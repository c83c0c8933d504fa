use std::sync::Arc;

use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_domain::join::{Admission, Invite, InviteId, RegistrationMode, RegistrationPolicy};
use gifshelf_domain::ports::{MockClock, MockJoinRepository, MockKeyMinter};
use gifshelf_domain::user::{Email, Role, UserId, Username};
use gifshelf_domain::RepoError;

use super::{InviteRequest, JoinService, Refusal, Ticket};
use crate::auth::Actor;
use crate::AppError;

fn now() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 27).and_then(|d| d.and_hms_opt(10, 0, 0)).unwrap_or_default()
}

fn actor(role: Role) -> Actor {
    Actor::session(UserId(3), Username::from_trusted("pat".into()), role)
}

fn invite(uses: i64, hours_left: i64) -> Invite {
    Invite {
        id: InviteId(9),
        max_uses: 2,
        uses,
        role: Role::Admin,
        created_by: UserId(1),
        created_by_name: Username::from_trusted("admin".into()),
        created_at: now(),
        expires_at: now() + chrono::Duration::hours(hours_left),
    }
}

fn service(repo: MockJoinRepository) -> JoinService {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(now());
    let mut minter = MockKeyMinter::new();
    minter.expect_mint().return_const("gs_SECRETTOKEN".to_owned());
    minter.expect_digest().returning(|t| format!("digest-of-{t}"));
    JoinService::new(Arc::new(repo), Arc::new(minter), Arc::new(clock))
}

fn with_policy(mode: RegistrationMode, domains: &[&str], members_may_invite: bool) -> MockJoinRepository {
    let policy = RegistrationPolicy::new(mode, domains, members_may_invite).unwrap_or_else(|e| panic!("{e}"));
    let mut repo = MockJoinRepository::new();
    repo.expect_registration_policy().returning(move || Ok(Some(policy.clone())));
    repo
}

#[tokio::test]
async fn out_of_range_numbers_are_refused_before_anything_is_stored() {
    for (uses, hours, field) in [
        (0, 1, "maxUses"),
        (-1, 1, "maxUses"),
        (1001, 1, "maxUses"),
        (1, 0, "expiresInHours"),
        (1, 10_000, "expiresInHours"),
    ] {
        let mut repo = with_policy(RegistrationMode::Invite, &[], false);
        repo.expect_create_invite().never();
        let request = InviteRequest { max_uses: Some(uses), expires_in_hours: Some(hours), role: None };
        let err = service(repo).create_invite(&actor(Role::Admin), request).await.err();
        assert!(matches!(&err, Some(AppError::Validation(v)) if v.field == field), "{uses} {hours}: {err:?}");
    }
}

#[tokio::test]
async fn members_invite_only_when_allowed_and_only_as_users() {
    let mut repo = with_policy(RegistrationMode::Invite, &[], false);
    repo.expect_create_invite().never();
    let err = service(repo).create_invite(&actor(Role::User), InviteRequest::default()).await.err();
    assert!(matches!(err, Some(AppError::Forbidden(_))), "{err:?}");

    let mut repo = with_policy(RegistrationMode::Invite, &[], true);
    repo.expect_create_invite().never();
    let request = InviteRequest { role: Some(Role::Admin), ..InviteRequest::default() };
    let err = service(repo).create_invite(&actor(Role::User), request).await.err();
    assert!(matches!(err, Some(AppError::Forbidden(_))), "{err:?}");

    let mut repo = with_policy(RegistrationMode::Invite, &[], true);
    repo.expect_create_invite()
        .withf(|n| {
            n.token_digest == "digest-of-SECRETTOKEN"
                && n.max_uses == 1
                && n.role == Role::User
                && n.expires_at == now() + chrono::Duration::hours(168)
        })
        .returning(|_| Ok(invite(0, 168)));
    let minted = service(repo).create_invite(&actor(Role::User), InviteRequest::default()).await;
    assert_eq!(minted.map(|m| m.token).ok().as_deref(), Some("SECRETTOKEN"));
}

#[tokio::test]
async fn a_member_revokes_only_their_own() {
    let mut repo = with_policy(RegistrationMode::Open, &[], true);
    repo.expect_delete_invite()
        .withf(|id, owner| *id == InviteId(9) && *owner == Some(UserId(3)))
        .returning(|_, _| Err(RepoError::NotFound));
    let err = service(repo).revoke_invite(&actor(Role::User), InviteId(9)).await.err();
    assert!(matches!(err, Some(AppError::NotFound(_))), "{err:?}");
}

async fn ticket(repo: MockJoinRepository, email: &str, hd: Option<&str>, token: Option<&str>) -> Option<Ticket> {
    let email = Email::parse(email).unwrap_or_else(|e| panic!("{e}"));
    service(repo).ticket(&email, hd, token).await.ok()
}

fn refused(refusal: Refusal) -> Option<Ticket> {
    Some(Ticket::Admitted { admission: Admission::FirstOnly, role: Role::User, refusal })
}

#[tokio::test]
async fn without_an_invitation_the_mode_and_the_domains_decide() {
    let open = |d: &[&str]| with_policy(RegistrationMode::Open, d, false);
    assert_eq!(ticket(open(&[]), "a@x.example", None, None).await, Some(Ticket::Open));
    assert_eq!(ticket(open(&["corp.example"]), "a@corp.example", None, None).await, Some(Ticket::Open));
    let other = ticket(open(&["corp.example"]), "a@x.example", None, None).await;
    assert_eq!(other, refused(Refusal::EmailDomainNotAllowed));
    let workspace = ticket(open(&["corp.example"]), "a@corp.example", Some("x.example"), None).await;
    assert_eq!(workspace, refused(Refusal::EmailDomainNotAllowed));
    let invite_mode = with_policy(RegistrationMode::Invite, &[], false);
    assert_eq!(ticket(invite_mode, "a@x.example", None, Some(" ")).await, refused(Refusal::InvitationRequired));
    let closed = with_policy(RegistrationMode::Closed, &[], false);
    assert_eq!(ticket(closed, "a@x.example", None, None).await, refused(Refusal::RegistrationClosed));
}

#[tokio::test]
async fn a_usable_invitation_admits_with_its_role_even_when_closed() {
    let mut repo = with_policy(RegistrationMode::Closed, &[], false);
    repo.expect_invite_by_digest().withf(|d| d == "digest-of-tok").returning(|_| Ok(invite(1, 1)));
    let admitted = ticket(repo, "a@x.example", None, Some("tok")).await;
    let admission = Admission::Invitation { id: InviteId(9), now: now() };
    assert_eq!(admitted, Some(Ticket::Admitted { admission, role: Role::Admin, refusal: Refusal::InvitationInvalid }));

    for (found, why) in
        [(Ok(invite(2, 1)), "used up"), (Ok(invite(0, 0)), "expired"), (Err(RepoError::NotFound), "revoked")]
    {
        let mut repo = with_policy(RegistrationMode::Invite, &[], false);
        let found = std::sync::Mutex::new(Some(found));
        repo.expect_invite_by_digest()
            .returning(move |_| found.lock().ok().and_then(|mut f| f.take()).unwrap_or(Err(RepoError::NotFound)));
        assert_eq!(ticket(repo, "a@x.example", None, Some("tok")).await, refused(Refusal::InvitationInvalid), "{why}");
    }

    let mut repo = with_policy(RegistrationMode::Invite, &["corp.example"], false);
    repo.expect_invite_by_digest().returning(|_| Ok(invite(0, 1)));
    assert_eq!(ticket(repo, "a@x.example", None, Some("tok")).await, refused(Refusal::EmailDomainNotAllowed));
}
