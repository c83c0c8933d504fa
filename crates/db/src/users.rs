//! `UserRepository` on diesel.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::auth::{ExternalIdentity, LinkedIdentity};
use gifshelf_domain::ports::UserRepository;
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, User, UserId, Username};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::{user_identities, users};

#[derive(Queryable, Selectable)]
#[diesel(table_name = users)]
pub(crate) struct UserRow {
    id: i64,
    username: String,
    email: String,
    password_hash: String,
    role: String,
    created_at: NaiveDateTime,
    credentials_changed_at: NaiveDateTime,
    disabled_at: Option<NaiveDateTime>,
    last_seen_at: Option<NaiveDateTime>,
}

impl TryFrom<UserRow> for User {
    type Error = RepoError;

    fn try_from(row: UserRow) -> Result<Self, RepoError> {
        Ok(User {
            id: UserId(row.id),
            username: Username::from_trusted(row.username),
            email: Email::from_trusted(row.email),
            password_hash: PasswordHash(row.password_hash),
            role: Role::parse(&row.role).ok_or_else(|| RepoError::other(format!("unknown role {:?}", row.role)))?,
            created_at: row.created_at,
            credentials_changed_at: row.credentials_changed_at,
            disabled_at: row.disabled_at,
            last_seen_at: row.last_seen_at,
        })
    }
}

pub(crate) fn load_by_id(conn: &mut AnyConnection, id: i64) -> Result<User, RepoError> {
    users::table.find(id).select(UserRow::as_select()).first(conn).map_err(repo_error)?.try_into()
}

fn load_by_key(conn: &mut AnyConnection, key: &str) -> Result<User, RepoError> {
    users::table
        .filter(users::username_key.eq(key))
        .select(UserRow::as_select())
        .first(conn)
        .map_err(repo_error)?
        .try_into()
}

/// Inserts an account inside the caller's write transaction.
pub(crate) fn insert_user(
    conn: &mut AnyConnection,
    user: &NewUser,
    first_becomes_admin: bool,
) -> Result<User, RepoError> {
    if let AnyConnection::Postgresql(pg) = conn {
        // Two first registrations at once must not both become admin.
        diesel::sql_query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE").execute(pg).map_err(repo_error)?;
    }
    let role = if first_becomes_admin {
        let existing: i64 = users::table.count().get_result(conn).map_err(repo_error)?;
        if existing == 0 {
            Role::Admin
        } else {
            user.role
        }
    } else {
        user.role
    };
    let id: i64 = diesel::insert_into(users::table)
        .values((
            users::username.eq(user.username.as_str()),
            users::username_key.eq(user.username.key()),
            users::email.eq(user.email.as_str()),
            users::password_hash.eq(&user.password_hash.0),
            users::role.eq(role.as_str()),
            users::created_at.eq(user.created_at),
            users::credentials_changed_at.eq(user.created_at),
        ))
        .returning(users::id)
        .get_result(conn)
        .map_err(repo_error)?;
    load_by_id(conn, id)
}

pub(crate) fn insert_identity(
    conn: &mut AnyConnection,
    user_id: i64,
    identity: &ExternalIdentity,
    at: NaiveDateTime,
) -> Result<(), RepoError> {
    diesel::insert_into(user_identities::table)
        .values((
            user_identities::issuer.eq(&identity.issuer),
            user_identities::subject.eq(&identity.subject),
            user_identities::user_id.eq(user_id),
            user_identities::email.eq(identity.email.as_deref()),
            user_identities::created_at.eq(at),
        ))
        .execute(conn)
        .map_err(repo_error)?;
    Ok(())
}

#[async_trait]
impl UserRepository for Database {
    async fn create(&self, user: NewUser, first_becomes_admin: bool) -> Result<User, RepoError> {
        self.run(move |conn| write_tx(conn, |conn| insert_user(conn, &user, first_becomes_admin))).await
    }

    async fn find_by_identity(&self, issuer: &str, subject: &str) -> Result<User, RepoError> {
        let (issuer, subject) = (issuer.to_owned(), subject.to_owned());
        self.run(move |conn| {
            users::table
                .inner_join(user_identities::table)
                .filter(user_identities::issuer.eq(&issuer).and(user_identities::subject.eq(&subject)))
                .select(UserRow::as_select())
                .first(conn)
                .map_err(repo_error)?
                .try_into()
        })
        .await
    }

    async fn find_by_email(&self, email: &Email) -> Result<User, RepoError> {
        let email = email.as_str().to_owned();
        self.run(move |conn| {
            users::table
                .filter(users::email.eq(&email))
                .select(UserRow::as_select())
                .first(conn)
                .map_err(repo_error)?
                .try_into()
        })
        .await
    }

    async fn link_identity(&self, id: UserId, identity: &ExternalIdentity, at: NaiveDateTime) -> Result<(), RepoError> {
        let identity = identity.clone();
        self.run(move |conn| {
            write_tx(conn, |conn| {
                load_by_id(conn, id.0)?;
                insert_identity(conn, id.0, &identity, at)
            })
        })
        .await
    }

    async fn identities_of(&self, id: UserId) -> Result<Vec<LinkedIdentity>, RepoError> {
        self.run(move |conn| {
            let rows: Vec<(String, Option<String>, NaiveDateTime)> = user_identities::table
                .filter(user_identities::user_id.eq(id.0))
                .select((user_identities::issuer, user_identities::email, user_identities::created_at))
                .order(user_identities::issuer.asc())
                .load(conn)
                .map_err(repo_error)?;
            Ok(rows.into_iter().map(|(issuer, email, linked_at)| LinkedIdentity { issuer, email, linked_at }).collect())
        })
        .await
    }

    async fn unlink_identity(&self, id: UserId, issuer: &str) -> Result<(), RepoError> {
        let issuer = issuer.to_owned();
        self.run(move |conn| {
            let removed = diesel::delete(
                user_identities::table
                    .filter(user_identities::user_id.eq(id.0))
                    .filter(user_identities::issuer.eq(&issuer)),
            )
            .execute(conn)
            .map_err(repo_error)?;
            if removed == 0 {
                Err(RepoError::NotFound)
            } else {
                Ok(())
            }
        })
        .await
    }

    async fn create_with_identity(
        &self,
        user: NewUser,
        identity: &ExternalIdentity,
        first_becomes_admin: bool,
    ) -> Result<User, RepoError> {
        let identity = identity.clone();
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let created = insert_user(conn, &user, first_becomes_admin)?;
                insert_identity(conn, created.id.0, &identity, user.created_at)?;
                Ok(created)
            })
        })
        .await
    }

    async fn find_by_username(&self, username: &str) -> Result<User, RepoError> {
        let key = username.to_lowercase();
        self.run(move |conn| load_by_key(conn, &key)).await
    }

    async fn find_by_id(&self, id: UserId) -> Result<User, RepoError> {
        self.run(move |conn| load_by_id(conn, id.0)).await
    }

    async fn update_profile(
        &self,
        id: UserId,
        username: &Username,
        email: &Email,
        changed_at: NaiveDateTime,
    ) -> Result<User, RepoError> {
        let (username, email) = (username.clone(), email.clone());
        self.run_changing_accounts(move |conn| {
            write_tx(conn, |conn| {
                let updated = diesel::update(users::table.find(id.0))
                    .set((
                        users::username.eq(username.as_str()),
                        users::username_key.eq(username.key()),
                        users::email.eq(email.as_str()),
                        users::credentials_changed_at.eq(changed_at),
                    ))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                load_by_id(conn, id.0)
            })
        })
        .await
    }

    async fn update_password(
        &self,
        id: UserId,
        hash: &PasswordHash,
        changed_at: NaiveDateTime,
    ) -> Result<(), RepoError> {
        let hash = hash.0.clone();
        self.run_changing_accounts(move |conn| {
            let updated = diesel::update(users::table.find(id.0))
                .set((users::password_hash.eq(hash), users::credentials_changed_at.eq(changed_at)))
                .execute(conn)
                .map_err(repo_error)?;
            if updated == 0 {
                Err(RepoError::NotFound)
            } else {
                Ok(())
            }
        })
        .await
    }

    async fn set_role(&self, username: &str, role: Role) -> Result<User, RepoError> {
        let key = username.to_lowercase();
        self.run_changing_accounts(move |conn| {
            write_tx(conn, |conn| {
                let updated = diesel::update(users::table.filter(users::username_key.eq(&key)))
                    .set(users::role.eq(role.as_str()))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                load_by_key(conn, &key)
            })
        })
        .await
    }

    async fn touch_last_seen(&self, id: UserId, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| {
            diesel::update(users::table.find(id.0))
                .set(users::last_seen_at.eq(at))
                .execute(conn)
                .map(drop)
                .map_err(repo_error)
        })
        .await
    }

    async fn ping(&self) -> Result<(), RepoError> {
        self.run(|conn| {
            diesel::connection::SimpleConnection::batch_execute(conn, "SELECT 1").map_err(RepoError::unavailable)
        })
        .await
    }
}
