use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::ports::UserRepository;
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, UserId, Username};
use gifshelf_domain::{RepoError, Unique};

use crate::on_both_backends;

fn at(h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 22).and_then(|d| d.and_hms_opt(h, 0, 0)).unwrap_or_default()
}

fn new_user(name: &str, email: &str) -> NewUser {
    NewUser {
        username: Username::parse(name).unwrap_or_else(|e| panic!("{e}")),
        email: Email::parse(email).unwrap_or_else(|e| panic!("{e}")),
        password_hash: PasswordHash(format!("hash-{name}")),
        role: Role::User,
        created_at: at(9),
    }
}

async fn first_account_becomes_admin_and_later_ones_do_not(db: &Database) {
    let first = db.create(new_user("alice", "alice@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    let second = db.create(new_user("bob", "bob@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((first.role, second.role), (Role::Admin, Role::User));
    assert_eq!(first.username.as_str(), "alice");
    assert_eq!(first.password_hash, PasswordHash("hash-alice".into()));
    assert_eq!((first.created_at, first.credentials_changed_at), (at(9), at(9)));
}

async fn first_user_rule_off_creates_plain_users(db: &Database) {
    let first = db.create(new_user("alice", "alice@example.com"), false).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.role, Role::User);
}

async fn usernames_and_emails_are_unique_case_insensitively(db: &Database) {
    db.create(new_user("Alice", "alice@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    let same_name = db.create(new_user("alice", "other@example.com"), true).await;
    assert!(matches!(same_name, Err(RepoError::Conflict(Unique::Username))), "{same_name:?}");
    let same_email = db.create(new_user("carol", "ALICE@example.com"), true).await;
    assert!(matches!(same_email, Err(RepoError::Conflict(Unique::Email))), "{same_email:?}");
    let found = db.find_by_username("ALICE").await.map(|u| u.username.into_inner());
    assert_eq!(found.ok().as_deref(), Some("Alice"));
}

async fn lookups_of_missing_users_are_not_found(db: &Database) {
    assert!(matches!(db.find_by_username("ghost").await, Err(RepoError::NotFound)));
    assert!(matches!(db.find_by_id(UserId(4242)).await, Err(RepoError::NotFound)));
    assert!(matches!(db.set_role("ghost", Role::Admin).await, Err(RepoError::NotFound)));
    let missing = db.update_password(UserId(4242), &PasswordHash("h".into()), at(10)).await;
    assert!(matches!(missing, Err(RepoError::NotFound)));
}

async fn profile_update_renames_and_moves_the_change_instant(db: &Database) {
    let alice = db.create(new_user("alice", "alice@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    db.create(new_user("bob", "bob@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    let name = Username::parse("alice2").unwrap_or_else(|e| panic!("{e}"));
    let email = Email::parse("a2@example.com").unwrap_or_else(|e| panic!("{e}"));
    let updated = db.update_profile(alice.id, &name, &email, at(11)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((updated.username.as_str(), updated.email.as_str()), ("alice2", "a2@example.com"));
    assert_eq!(updated.credentials_changed_at, at(11));
    assert!(matches!(db.find_by_username("alice").await, Err(RepoError::NotFound)));

    let taken = Username::parse("BOB").unwrap_or_else(|e| panic!("{e}"));
    let clash = db.update_profile(alice.id, &taken, &email, at(12)).await;
    assert!(matches!(clash, Err(RepoError::Conflict(Unique::Username))), "{clash:?}");
    let bob_email = Email::parse("bob@example.com").unwrap_or_else(|e| panic!("{e}"));
    let clash = db.update_profile(alice.id, &name, &bob_email, at(12)).await;
    assert!(matches!(clash, Err(RepoError::Conflict(Unique::Email))), "{clash:?}");
    // Nothing changed by the refused updates.
    let now = db.find_by_id(alice.id).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((now.username.as_str(), now.credentials_changed_at), ("alice2", at(11)));
}

async fn password_update_stores_the_hash_and_instant(db: &Database) {
    let alice = db.create(new_user("alice", "alice@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    db.update_password(alice.id, &PasswordHash("new-hash".into()), at(13)).await.unwrap_or_else(|e| panic!("{e}"));
    let now = db.find_by_id(alice.id).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((now.password_hash, now.credentials_changed_at), (PasswordHash("new-hash".into()), at(13)));
}

async fn roles_can_be_granted_and_revoked(db: &Database) {
    db.create(new_user("alice", "alice@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    db.create(new_user("bob", "bob@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(db.set_role("BOB", Role::Admin).await.map(|u| u.role).ok(), Some(Role::Admin));
    assert_eq!(db.set_role("alice", Role::User).await.map(|u| u.role).ok(), Some(Role::User));
    assert_eq!(db.find_by_username("bob").await.map(|u| u.role).ok(), Some(Role::Admin));
}

async fn concurrent_registrations_make_exactly_one_admin(db: &Database) {
    let mut tasks = Vec::new();
    for i in 0..8 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            db.create(new_user(&format!("user{i}"), &format!("u{i}@example.com")), true).await
        }));
    }
    let mut admins = 0;
    for task in tasks {
        let user = task.await.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|e| panic!("{e}"));
        admins += usize::from(user.role == Role::Admin);
    }
    assert_eq!(admins, 1);
}

async fn ping_answers(db: &Database) {
    assert!(db.ping().await.is_ok());
}

fn google(subject: &str, email: &str) -> gifshelf_domain::auth::ExternalIdentity {
    gifshelf_domain::auth::ExternalIdentity {
        issuer: "https://accounts.google.com".into(),
        subject: subject.into(),
        email: Some(email.into()),
        email_verified: true,
        name: None,
        hosted_domain: None,
    }
}

async fn identities_are_found_by_issuer_and_subject(db: &Database) {
    let id = google("sub-1", "alice@example.com");
    let alice = db
        .create_with_identity(new_user("alice", "alice@example.com"), &id, true)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(alice.role, Role::Admin, "the first account is the admin, however it was created");
    let found = db.find_by_identity("https://accounts.google.com", "sub-1").await.map(|u| u.id);
    assert_eq!(found.ok(), Some(alice.id));
    assert!(matches!(db.find_by_identity("https://other.example", "sub-1").await, Err(RepoError::NotFound)));
    assert!(matches!(db.find_by_identity("https://accounts.google.com", "sub-2").await, Err(RepoError::NotFound)));
    let by_email = db.find_by_email(&Email::parse("Alice@Example.com").unwrap_or_else(|e| panic!("{e}"))).await;
    assert_eq!(by_email.map(|u| u.id).ok(), Some(alice.id));
}

async fn an_identity_belongs_to_one_account_and_an_account_has_one_per_issuer(db: &Database) {
    let id = google("sub-1", "alice@example.com");
    let alice = db
        .create_with_identity(new_user("alice", "alice@example.com"), &id, true)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let bob = db.create(new_user("bob", "bob@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    // The same identity again, on another account: refused, and no half-created account stays.
    let again = db.create_with_identity(new_user("carol", "carol@example.com"), &id, true).await;
    assert!(matches!(again, Err(RepoError::Conflict(Unique::Identity))), "{again:?}");
    assert!(matches!(db.find_by_username("carol").await, Err(RepoError::NotFound)));
    assert!(matches!(db.link_identity(bob.id, &id, at(10)).await, Err(RepoError::Conflict(Unique::Identity))));
    // A second subject of the same issuer cannot be linked to an account that has one.
    let other = google("sub-2", "alice@example.com");
    assert!(matches!(
        db.link_identity(alice.id, &other, at(10)).await,
        Err(RepoError::Conflict(Unique::IdentityPerProvider))
    ));
    // Bob links one; an unknown account links nothing.
    db.link_identity(bob.id, &google("sub-3", "bob@example.com"), at(10)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(db.find_by_identity("https://accounts.google.com", "sub-3").await.map(|u| u.id).ok(), Some(bob.id));
    assert!(matches!(
        db.link_identity(UserId(4242), &google("sub-4", "x@example.com"), at(10)).await,
        Err(RepoError::NotFound)
    ));
}

async fn a_taken_username_or_email_creates_neither_account_nor_identity(db: &Database) {
    db.create(new_user("alice", "alice@example.com"), true).await.unwrap_or_else(|e| panic!("{e}"));
    let id = google("sub-9", "x@example.com");
    let clash = db.create_with_identity(new_user("alice", "x@example.com"), &id, true).await;
    assert!(matches!(clash, Err(RepoError::Conflict(Unique::Username))), "{clash:?}");
    let clash = db.create_with_identity(new_user("xavier", "alice@example.com"), &id, true).await;
    assert!(matches!(clash, Err(RepoError::Conflict(Unique::Email))), "{clash:?}");
    assert!(matches!(db.find_by_identity("https://accounts.google.com", "sub-9").await, Err(RepoError::NotFound)));
}

on_both_backends!(
    first_account_becomes_admin_and_later_ones_do_not,
    first_user_rule_off_creates_plain_users,
    usernames_and_emails_are_unique_case_insensitively,
    lookups_of_missing_users_are_not_found,
    profile_update_renames_and_moves_the_change_instant,
    password_update_stores_the_hash_and_instant,
    roles_can_be_granted_and_revoked,
    concurrent_registrations_make_exactly_one_admin,
    ping_answers,
    identities_are_found_by_issuer_and_subject,
    an_identity_belongs_to_one_account_and_an_account_has_one_per_issuer,
    a_taken_username_or_email_creates_neither_account_nor_identity
);

async fn api_keys_are_found_by_digest_listed_per_owner_and_revoked(db: &Database) {
    use gifshelf_domain::api_key::{ApiKeyName, NewApiKey};
    use gifshelf_domain::ports::ApiKeyRepository;
    let alice = crate::gifs::user(db, "alice").await;
    let bob = crate::gifs::user(db, "bob").await;
    let new = |owner, name: &str, digest: &str| NewApiKey {
        owner,
        name: ApiKeyName::parse(name).unwrap_or_else(|e| panic!("{e}")),
        prefix: "gs_abcd".into(),
        digest: digest.into(),
        created_at: crate::gifs::t0(),
    };
    let key = db.create_key(new(alice, "Zulip", "aaaa")).await.unwrap_or_else(|e| panic!("{e}"));
    db.create_key(new(bob, "Bob's", "bbbb")).await.unwrap_or_else(|e| panic!("{e}"));
    let clash = db.create_key(new(bob, "Again", "aaaa")).await;
    assert!(matches!(clash, Err(RepoError::Conflict(gifshelf_domain::Unique::ApiKey))), "{clash:?}");
    let found = db.key_by_digest("aaaa").await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((found.id, found.owner, found.name.as_str(), found.last_used_at), (key.id, alice, "Zulip", None));
    let at = crate::gifs::t0() + chrono::Duration::minutes(5);
    db.touch_key(key.id, at).await.unwrap_or_else(|e| panic!("{e}"));
    let listed = db.keys_of(alice).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(listed.iter().map(|k| (k.name.as_str(), k.last_used_at)).collect::<Vec<_>>(), [("Zulip", Some(at))]);
    // Only its owner revokes a key; then it is gone at once.
    assert!(matches!(db.delete_key(bob, key.id).await, Err(RepoError::NotFound)));
    db.delete_key(alice, key.id).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(db.key_by_digest("aaaa").await, Err(RepoError::NotFound)));
    assert!(db.keys_of(alice).await.unwrap_or_else(|e| panic!("{e}")).is_empty());
}

on_both_backends!(api_keys_are_found_by_digest_listed_per_owner_and_revoked);
