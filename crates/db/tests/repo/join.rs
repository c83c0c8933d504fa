use chrono::{Duration, NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::join::{Admission, AdmitError, NewInvite, RegistrationMode, RegistrationPolicy};
use gifshelf_domain::ports::{JoinRepository, UserRepository};
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, User, UserId, Username};
use gifshelf_domain::RepoError;

use crate::on_both_backends;

fn at(h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 27).and_then(|d| d.and_hms_opt(h, 0, 0)).unwrap_or_default()
}

fn new_user(name: &str) -> NewUser {
    NewUser {
        username: Username::parse(name).unwrap_or_else(|e| panic!("{e}")),
        email: Email::parse(&format!("{name}@example.com")).unwrap_or_else(|e| panic!("{e}")),
        password_hash: PasswordHash(format!("hash-{name}")),
        role: Role::User,
        created_at: at(9),
    }
}

fn policy(mode: RegistrationMode, domains: &[&str]) -> RegistrationPolicy {
    RegistrationPolicy::new(mode, domains, false).unwrap_or_else(|e| panic!("{e}"))
}

async fn admin(db: &Database) -> User {
    db.create(new_user("admin"), true).await.unwrap_or_else(|e| panic!("{e}"))
}

fn invite(owner: UserId, max_uses: i64, digest: &str) -> NewInvite {
    NewInvite {
        token_digest: digest.to_owned(),
        max_uses,
        role: Role::User,
        created_by: owner,
        created_at: at(10),
        expires_at: at(10) + Duration::hours(24),
    }
}

async fn the_policy_is_seeded_once_then_saved(db: &Database) {
    assert_eq!(db.registration_policy().await.ok(), Some(None));
    let invite_only = policy(RegistrationMode::Invite, &["example.com"]);
    let stored = db.store_registration_policy(&invite_only, true, at(9)).await.ok();
    assert_eq!(stored.as_ref(), Some(&invite_only));
    // A later start with other settings does not overwrite it …
    let stored = db.store_registration_policy(&policy(RegistrationMode::Open, &[]), true, at(10)).await.ok();
    assert_eq!(stored.as_ref(), Some(&invite_only));
    // … an admin's save does.
    let closed = RegistrationPolicy {
        members_may_invite: true,
        ..policy(RegistrationMode::Closed, &["a.example", "b.example"])
    };
    assert!(db.store_registration_policy(&closed, false, at(11)).await.is_ok());
    assert_eq!(db.registration_policy().await.ok(), Some(Some(closed)));
}

async fn invites_are_listed_found_by_digest_and_revoked(db: &Database) {
    let owner = admin(db).await;
    let member = db.create(new_user("member"), true).await.unwrap_or_else(|e| panic!("{e}"));
    let first = db.create_invite(invite(owner.id, 3, "d1")).await.unwrap_or_else(|e| panic!("{e}"));
    let second = db.create_invite(invite(member.id, 1, "d2")).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((first.uses, first.max_uses, first.created_by_name.as_str()), (0, 3, "admin"));
    let all = db.invites(None, 10).await.unwrap_or_default();
    assert_eq!(all.iter().map(|i| i.id).collect::<Vec<_>>(), vec![second.id, first.id]);
    let mine = db.invites(Some(member.id), 10).await.unwrap_or_default();
    assert_eq!(mine, vec![second.clone()]);
    assert_eq!(db.invites(None, 1).await.unwrap_or_default().len(), 1);
    assert_eq!(db.invite_by_digest("d1").await.ok(), Some(first.clone()));
    // A member cannot revoke somebody else's invitation.
    assert!(matches!(db.delete_invite(first.id, Some(member.id)).await, Err(RepoError::NotFound)));
    assert!(db.delete_invite(first.id, None).await.is_ok());
    assert!(matches!(db.invite_by_digest("d1").await, Err(RepoError::NotFound)));
    assert!(db.delete_invite(second.id, Some(member.id)).await.is_ok());
}

async fn an_invitation_lets_in_as_often_as_it_says_until_it_expires(db: &Database) {
    let owner = admin(db).await;
    let two = db.create_invite(invite(owner.id, 2, "d1")).await.unwrap_or_else(|e| panic!("{e}"));
    let now = at(11);
    for name in ["ann", "ben"] {
        let joined = db.create_admitted(new_user(name), None, Admission::Invitation { id: two.id, now }, true).await;
        assert_eq!(joined.map(|u| u.role).ok(), Some(Role::User));
    }
    let third = db.create_admitted(new_user("cat"), None, Admission::Invitation { id: two.id, now }, true).await;
    assert!(matches!(third, Err(AdmitError::NotAdmitted)), "{third:?}");
    assert_eq!(db.invite_by_digest("d1").await.map(|i| i.uses).ok(), Some(2));
    assert!(matches!(db.find_by_username("cat").await, Err(RepoError::NotFound)));

    let expiring = db.create_invite(invite(owner.id, 5, "d2")).await.unwrap_or_else(|e| panic!("{e}"));
    let late = Admission::Invitation { id: expiring.id, now: expiring.expires_at };
    assert!(matches!(db.create_admitted(new_user("dan"), None, late, true).await, Err(AdmitError::NotAdmitted)));
}

async fn only_the_first_account_gets_in_without_an_admission(db: &Database) {
    let first = db.create_admitted(new_user("first"), None, Admission::FirstOnly, true).await;
    assert_eq!(first.map(|u| u.role).ok(), Some(Role::Admin));
    let second = db.create_admitted(new_user("second"), None, Admission::FirstOnly, true).await;
    assert!(matches!(second, Err(AdmitError::NotAdmitted)), "{second:?}");
}

async fn two_people_racing_for_the_last_use_one_gets_in(db: &Database) {
    let owner = admin(db).await;
    let once = db.create_invite(invite(owner.id, 1, "d1")).await.unwrap_or_else(|e| panic!("{e}"));
    let admission = Admission::Invitation { id: once.id, now: at(11) };
    let (a, b) = tokio::join!(
        db.create_admitted(new_user("ann"), None, admission, true),
        db.create_admitted(new_user("ben"), None, admission, true),
    );
    let wins = [a.is_ok(), b.is_ok()].iter().filter(|ok| **ok).count();
    assert_eq!(wins, 1, "{a:?} {b:?}");
    assert!(matches!(a.err().or(b.err()), Some(AdmitError::NotAdmitted)));
    assert_eq!(db.invite_by_digest("d1").await.map(|i| i.uses).ok(), Some(1));
}

on_both_backends!(
    the_policy_is_seeded_once_then_saved,
    invites_are_listed_found_by_digest_and_revoked,
    an_invitation_lets_in_as_often_as_it_says_until_it_expires,
    only_the_first_account_gets_in_without_an_admission,
    two_people_racing_for_the_last_use_one_gets_in,
);
