//! `ApiKeyRepository` on diesel: keys by owner, found by digest.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::api_key::{ApiKey, ApiKeyId, ApiKeyName, NewApiKey};
use gifshelf_domain::ports::ApiKeyRepository;
use gifshelf_domain::user::UserId;
use gifshelf_domain::RepoError;

use crate::connection::Database;
use crate::error::repo_error;
use crate::schema::api_keys;

#[derive(Queryable, Selectable)]
#[diesel(table_name = api_keys)]
struct KeyRow {
    id: i64,
    user_id: i64,
    name: String,
    prefix: String,
    created_at: NaiveDateTime,
    last_used_at: Option<NaiveDateTime>,
}

impl KeyRow {
    fn into_key(self) -> ApiKey {
        ApiKey {
            id: ApiKeyId(self.id),
            owner: UserId(self.user_id),
            name: ApiKeyName::from_trusted(self.name),
            prefix: self.prefix,
            created_at: self.created_at,
            last_used_at: self.last_used_at,
        }
    }
}

#[async_trait]
impl ApiKeyRepository for Database {
    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey, RepoError> {
        self.run(move |conn| {
            diesel::insert_into(api_keys::table)
                .values((
                    api_keys::user_id.eq(key.owner.0),
                    api_keys::name.eq(key.name.as_str()),
                    api_keys::prefix.eq(&key.prefix),
                    api_keys::digest.eq(&key.digest),
                    api_keys::created_at.eq(key.created_at),
                ))
                .returning(api_keys::id)
                .get_result::<i64>(conn)
                .and_then(|id| api_keys::table.find(id).select(KeyRow::as_select()).first(conn))
                .map(KeyRow::into_key)
                .map_err(repo_error)
        })
        .await
    }

    async fn keys_of(&self, owner: UserId) -> Result<Vec<ApiKey>, RepoError> {
        self.run(move |conn| {
            api_keys::table
                .filter(api_keys::user_id.eq(owner.0))
                .order(api_keys::id.asc())
                .select(KeyRow::as_select())
                .load(conn)
                .map(|rows| rows.into_iter().map(KeyRow::into_key).collect())
                .map_err(repo_error)
        })
        .await
    }

    async fn delete_key(&self, owner: UserId, id: ApiKeyId) -> Result<(), RepoError> {
        self.run(move |conn| {
            let removed =
                diesel::delete(api_keys::table.filter(api_keys::id.eq(id.0)).filter(api_keys::user_id.eq(owner.0)))
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

    async fn key_by_digest(&self, digest: &str) -> Result<ApiKey, RepoError> {
        let digest = digest.to_owned();
        self.run(move |conn| {
            api_keys::table
                .filter(api_keys::digest.eq(&digest))
                .select(KeyRow::as_select())
                .first(conn)
                .map(KeyRow::into_key)
                .map_err(repo_error)
        })
        .await
    }

    async fn touch_key(&self, id: ApiKeyId, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| {
            diesel::update(api_keys::table.find(id.0))
                .set(api_keys::last_used_at.eq(Some(at)))
                .execute(conn)
                .map(|_| ())
                .map_err(repo_error)
        })
        .await
    }
}
