use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::gif::PageRequest;
use gifshelf_domain::member::{MemberChange, MemberSearch, MemberStatus, MemberUpdate};
use gifshelf_domain::ports::{MemberRepository, UserRepository};
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, User, Username};

use crate::on_both_backends;

fn at(h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 22).and_then(|d| d.and_hms_opt(h, 0, 0)).unwrap_or_default()
}

async fn account(db: &Database, name: &str, role: Role) -> User {
    let user = NewUser {
        username: Username::parse(name).unwrap_or_else(|e| panic!("{e}")),
        email: Email::parse(&format!("{name}@example.com")).unwrap_or_else(|e| panic!("{e}")),
        password_hash: PasswordHash(format!("hash-{name}")),
        role,
        created_at: at(9),
    };
    db.create(user, false).await.unwrap_or_else(|e| panic!("{e}"))
}

async fn members_are_searched_by_a_literal_piece_of_name_or_email(db: &Database) {
    account(db, "Alice_1", Role::Admin).await;
    account(db, "bob", Role::User).await;
    let page = PageRequest::new(Some(0), Some(10)).unwrap_or_else(|e| panic!("{e}"));
    let find = |q: &'static str| async move {
        let search = MemberSearch::parse(Some(q)).unwrap_or_else(|e| panic!("{e}"));
        let found = db.list_members(&search, page).await.unwrap_or_else(|e| panic!("{e}"));
        found.items.iter().map(|m| m.user.username.as_str().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(find("ALICE").await, ["Alice_1"]);
    assert_eq!(find("b@EXAMPLE").await, ["bob"]);
    assert_eq!(find("e_1").await, ["Alice_1"]);
    assert!(find("%").await.is_empty());
    assert_eq!(find("").await.len(), 2);
}

async fn two_admins_demoting_each_other_at_once_leave_one(db: &Database) {
    let a = account(db, "anna", Role::Admin).await;
    let b = account(db, "bert", Role::Admin).await;
    let demote = MemberChange { role: Some(Role::User), status: None };
    let disable = MemberChange { role: None, status: Some(MemberStatus::Disabled) };
    let (one, two) = tokio::join!(db.update_member(a.id, demote, at(10)), db.update_member(b.id, disable, at(10)));
    let outcomes = [one.unwrap_or_else(|e| panic!("{e}")), two.unwrap_or_else(|e| panic!("{e}"))];
    let refused = outcomes.iter().filter(|o| matches!(o, MemberUpdate::LastAdmin)).count();
    assert_eq!(refused, 1, "{outcomes:?}");
    let again = db.update_member(a.id, MemberChange { role: None, status: Some(MemberStatus::Active) }, at(11)).await;
    assert!(matches!(again, Ok(MemberUpdate::Updated(_))));
}

on_both_backends!(
    members_are_searched_by_a_literal_piece_of_name_or_email,
    two_admins_demoting_each_other_at_once_leave_one
);
