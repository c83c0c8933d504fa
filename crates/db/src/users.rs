//! `UserRepository` on diesel.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::ports::UserRepository;
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, User, UserId, Username};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::users;

#[derive(Queryable, Selectable)]
#[diesel(table_name = users)]
struct UserRow {
    id: i64,
    username: String,
    email: String,
    password_hash: String,
    role: String,
    created_at: NaiveDateTime,
    credentials_changed_at: NaiveDateTime,
}

impl TryFrom<UserRow> for User {
    type Error = RepoError;

    fn try_from(row: UserRow) -> Result<Self, RepoError> {
        Ok(User {
            id: UserId(row.id),
            username: Username::from_trusted(row.username),
            email: Email::from_trusted(row.email),
            password_hash: PasswordHash(row.password_hash),
            role: Role::parse(&row.role).ok_or_else(|| RepoError::Other(format!("unknown role {:?}", row.role)))?,
            created_at: row.created_at,
            credentials_changed_at: row.credentials_changed_at,
        })
    }
}

fn load_by_id(conn: &mut AnyConnection, id: i64) -> Result<User, RepoError> {
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

#[async_trait]
impl UserRepository for Database {
    async fn create(&self, user: NewUser, first_becomes_admin: bool) -> Result<User, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                if let AnyConnection::Postgresql(pg) = conn {
                    // Two first registrations at once must not both become admin.
                    diesel::sql_query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE")
                        .execute(pg)
                        .map_err(repo_error)?;
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
        self.run(move |conn| {
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
        self.run(move |conn| {
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
        self.run(move |conn| {
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

    async fn ping(&self) -> Result<(), RepoError> {
        self.run(|conn| {
            diesel::connection::SimpleConnection::batch_execute(conn, "SELECT 1")
                .map_err(|e| RepoError::Unavailable(e.to_string()))
        })
        .await
    }
}
