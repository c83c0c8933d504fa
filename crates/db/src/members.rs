//! `MemberRepository` on diesel: the Members list and administrators' changes to accounts.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::gif::{Page, PageRequest};
use gifshelf_domain::member::{is_active_admin, Member, MemberChange, MemberSearch, MemberStatus, MemberUpdate};
use gifshelf_domain::ports::MemberRepository;
use gifshelf_domain::user::{Role, User, UserId};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::users;
use crate::search::like_pattern;
use crate::users::{load_by_id, UserRow};

// The statistics' per-user counters (migration 000014), kept by triggers; read here by key.
diesel::table! {
    stats_users (user_id) {
        user_id -> BigInt,
        gifs -> BigInt,
    }
}

fn gif_counts(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<(i64, i64)>, RepoError> {
    stats_users::table
        .filter(stats_users::user_id.eq_any(ids))
        .select((stats_users::user_id, stats_users::gifs))
        .load(conn)
        .map_err(repo_error)
}

pub(crate) fn with_counts(conn: &mut AnyConnection, users: Vec<User>) -> Result<Vec<Member>, RepoError> {
    let ids: Vec<i64> = users.iter().map(|u| u.id.0).collect();
    let counts = gif_counts(conn, &ids)?;
    let bytes = crate::accounts::storage_bytes(conn, &ids)?;
    Ok(users
        .into_iter()
        .map(|user| {
            let gif_count = counts.iter().find(|(id, _)| *id == user.id.0).map_or(0, |(_, n)| *n);
            let storage_bytes = bytes.iter().find(|(id, _)| *id == user.id.0).map_or(0, |(_, n)| *n);
            Member { user, gif_count, storage_bytes }
        })
        .collect())
}

fn list(conn: &mut AnyConnection, search: &MemberSearch, page: PageRequest) -> Result<Page<Member>, RepoError> {
    let filtered = || {
        let mut query = users::table.into_boxed();
        if let Some(text) = search.text() {
            let pattern = like_pattern(text);
            query = query.filter(
                users::username_key.like(pattern.clone()).escape('\\').or(users::email.like(pattern).escape('\\')),
            );
        }
        query
    };
    let total: i64 = filtered().count().get_result(conn).map_err(repo_error)?;
    let rows: Vec<UserRow> = filtered()
        .select(UserRow::as_select())
        .order(users::id.asc())
        .limit(i64::from(page.size))
        .offset(page.offset())
        .load(conn)
        .map_err(repo_error)?;
    let users = rows.into_iter().map(User::try_from).collect::<Result<Vec<_>, _>>()?;
    Ok(Page { items: with_counts(conn, users)?, request: page, total })
}

/// The number of administrators who can act, other than `except`.
fn other_active_admins(conn: &mut AnyConnection, except: i64) -> Result<i64, RepoError> {
    users::table
        .filter(users::role.eq(Role::Admin.as_str()))
        .filter(users::disabled_at.is_null())
        .filter(users::id.ne(except))
        .count()
        .get_result(conn)
        .map_err(repo_error)
}

fn update(
    conn: &mut AnyConnection,
    id: i64,
    change: MemberChange,
    at: NaiveDateTime,
) -> Result<MemberUpdate, RepoError> {
    if let AnyConnection::Postgresql(pg) = conn {
        // Two admins demoting each other at once must not both succeed.
        diesel::sql_query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE").execute(pg).map_err(repo_error)?;
    }
    let mut user = load_by_id(conn, id)?;
    let was_admin = is_active_admin(&user);
    if let Some(role) = change.role {
        user.role = role;
    }
    match change.status {
        Some(MemberStatus::Disabled) if user.disabled_at.is_none() => user.disabled_at = Some(at),
        Some(MemberStatus::Active) => user.disabled_at = None,
        _ => {}
    }
    if was_admin && !is_active_admin(&user) && other_active_admins(conn, id)? == 0 {
        return Ok(MemberUpdate::LastAdmin);
    }
    diesel::update(users::table.find(id))
        .set((users::role.eq(user.role.as_str()), users::disabled_at.eq(user.disabled_at)))
        .execute(conn)
        .map_err(repo_error)?;
    let stored = load_by_id(conn, id)?;
    let mut members = with_counts(conn, vec![stored])?;
    members.pop().map(MemberUpdate::Updated).ok_or(RepoError::NotFound)
}

#[async_trait]
impl MemberRepository for Database {
    async fn list_members(&self, search: &MemberSearch, page: PageRequest) -> Result<Page<Member>, RepoError> {
        let search = search.clone();
        self.run(move |conn| list(conn, &search, page)).await
    }

    async fn update_member(
        &self,
        id: UserId,
        change: MemberChange,
        at: NaiveDateTime,
    ) -> Result<MemberUpdate, RepoError> {
        self.run_changing_accounts(move |conn| write_tx(conn, |conn| update(conn, id.0, change, at))).await
    }
}
