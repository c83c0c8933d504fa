//! `AccountRepository` on diesel: removing accounts, reset links, quotas and usage.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use gifshelf_domain::account::{AccountRemoval, GifDisposal, NewPasswordReset, Quota, Usage};
use gifshelf_domain::member::is_active_admin;
use gifshelf_domain::ports::AccountRepository;
use gifshelf_domain::user::{PasswordHash, User, UserId};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::members::with_counts;
use crate::schema::{
    favourites, gif_renditions, gif_tags, gifs, member_quotas, password_resets, quota_defaults, users,
};
use crate::users::load_by_id;

/// The stored bytes (originals and renditions) of the GIFs of each of `ids` that has any.
pub(crate) fn storage_bytes(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<(i64, i64)>, RepoError> {
    gif_renditions::table
        .inner_join(gifs::table)
        .filter(gifs::uploader_id.eq_any(ids))
        .group_by(gifs::uploader_id)
        .select((gifs::uploader_id, sql::<BigInt>("CAST(SUM(gif_renditions.size) AS BIGINT)")))
        .load(conn)
        .map_err(repo_error)
}

fn other_active_admins(conn: &mut AnyConnection, except: i64) -> Result<i64, RepoError> {
    users::table
        .filter(users::role.eq(gifshelf_domain::user::Role::Admin.as_str()))
        .filter(users::disabled_at.is_null())
        .filter(users::id.ne(except))
        .count()
        .get_result(conn)
        .map_err(repo_error)
}

fn remove(conn: &mut AnyConnection, id: i64, disposal: GifDisposal) -> Result<AccountRemoval, RepoError> {
    if let AnyConnection::Postgresql(pg) = conn {
        // Two admins removing each other at once must not both succeed.
        diesel::sql_query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE").execute(pg).map_err(repo_error)?;
    }
    let user = load_by_id(conn, id)?;
    if is_active_admin(&user) && other_active_admins(conn, id)? == 0 {
        return Ok(AccountRemoval::LastAdmin);
    }
    let member = with_counts(conn, vec![user])?.pop().ok_or(RepoError::NotFound)?;
    // Stars are counted on the GIF too (`gifs.favourite_count`): take the account's out first.
    let starred = favourites::table.filter(favourites::user_id.eq(id)).select(favourites::gif_id);
    diesel::update(gifs::table.filter(gifs::id.eq_any(starred)))
        .set(gifs::favourite_count.eq(gifs::favourite_count - 1))
        .execute(conn)
        .map_err(repo_error)?;
    diesel::delete(favourites::table.filter(favourites::user_id.eq(id))).execute(conn).map_err(repo_error)?;
    let owned = || gifs::table.filter(gifs::uploader_id.eq(id)).select(gifs::id);
    let blob_keys = match disposal {
        GifDisposal::Transfer(to) => {
            let recipient = match load_by_id(conn, to.0) {
                Ok(recipient) => recipient,
                Err(RepoError::NotFound) => return Ok(AccountRemoval::RecipientInvalid),
                Err(other) => return Err(other),
            };
            if recipient.id.0 == id || recipient.disabled_at.is_some() {
                return Ok(AccountRemoval::RecipientInvalid);
            }
            // The statistics' per-uploader counts follow the uploader column (their triggers).
            diesel::update(gifs::table.filter(gifs::uploader_id.eq(id)))
                .set(gifs::uploader_id.eq(to.0))
                .execute(conn)
                .map_err(repo_error)?;
            Vec::new()
        }
        GifDisposal::Delete => {
            let keys: Vec<String> = gif_renditions::table
                .filter(gif_renditions::gif_id.eq_any(owned()))
                .select(gif_renditions::blob_key)
                .load(conn)
                .map_err(repo_error)?;
            // As deleting one GIF does: its tag links, its renditions, then the row.
            diesel::delete(gif_tags::table.filter(gif_tags::gif_id.eq_any(owned())))
                .execute(conn)
                .map_err(repo_error)?;
            diesel::delete(gif_renditions::table.filter(gif_renditions::gif_id.eq_any(owned())))
                .execute(conn)
                .map_err(repo_error)?;
            diesel::delete(gifs::table.filter(gifs::uploader_id.eq(id))).execute(conn).map_err(repo_error)?;
            keys
        }
    };
    // Keys, collections, invitations, identities, reset links and quotas cascade.
    diesel::delete(users::table.find(id)).execute(conn).map_err(repo_error)?;
    Ok(AccountRemoval::Removed { member, blob_keys })
}

fn store_reset(conn: &mut AnyConnection, reset: &NewPasswordReset) -> Result<User, RepoError> {
    let user = load_by_id(conn, reset.user_id.0)?;
    diesel::delete(password_resets::table.find(reset.user_id.0)).execute(conn).map_err(repo_error)?;
    diesel::insert_into(password_resets::table)
        .values((
            password_resets::user_id.eq(reset.user_id.0),
            password_resets::token_digest.eq(&reset.token_digest),
            password_resets::expires_at.eq(reset.expires_at),
        ))
        .execute(conn)
        .map_err(repo_error)?;
    Ok(user)
}

fn reset_owner(conn: &mut AnyConnection, digest: &str, now: NaiveDateTime) -> Result<Option<i64>, RepoError> {
    password_resets::table
        .filter(password_resets::token_digest.eq(digest))
        .filter(password_resets::expires_at.gt(now))
        .select(password_resets::user_id)
        .first(conn)
        .optional()
        .map_err(repo_error)
}

fn use_reset(
    conn: &mut AnyConnection,
    digest: &str,
    hash: &str,
    now: NaiveDateTime,
) -> Result<Option<User>, RepoError> {
    let Some(user_id) = reset_owner(conn, digest, now)? else {
        return Ok(None);
    };
    // The delete is the claim: of two uses at once, one deletes the row and the other nothing.
    let claimed = diesel::delete(
        password_resets::table
            .filter(password_resets::user_id.eq(user_id))
            .filter(password_resets::token_digest.eq(digest)),
    )
    .execute(conn)
    .map_err(repo_error)?;
    if claimed == 0 {
        return Ok(None);
    }
    diesel::update(users::table.find(user_id))
        .set((users::password_hash.eq(hash), users::credentials_changed_at.eq(now)))
        .execute(conn)
        .map_err(repo_error)?;
    load_by_id(conn, user_id).map(Some)
}

fn member_quota(conn: &mut AnyConnection, id: i64) -> Result<Quota, RepoError> {
    load_by_id(conn, id)?;
    let row: Option<(Option<i64>, Option<i64>)> = member_quotas::table
        .find(id)
        .select((member_quotas::storage_bytes, member_quotas::uploads_per_day))
        .first(conn)
        .optional()
        .map_err(repo_error)?;
    Ok(row.map(|(storage_bytes, uploads_per_day)| Quota { storage_bytes, uploads_per_day }).unwrap_or_default())
}

fn set_member_quota(conn: &mut AnyConnection, id: i64, quota: Quota) -> Result<(), RepoError> {
    load_by_id(conn, id)?;
    diesel::delete(member_quotas::table.find(id)).execute(conn).map_err(repo_error)?;
    if quota != Quota::default() {
        diesel::insert_into(member_quotas::table)
            .values((
                member_quotas::user_id.eq(id),
                member_quotas::storage_bytes.eq(quota.storage_bytes),
                member_quotas::uploads_per_day.eq(quota.uploads_per_day),
            ))
            .execute(conn)
            .map_err(repo_error)?;
    }
    Ok(())
}

fn set_default_quota(conn: &mut AnyConnection, quota: Quota, at: NaiveDateTime) -> Result<(), RepoError> {
    diesel::delete(quota_defaults::table).execute(conn).map_err(repo_error)?;
    diesel::insert_into(quota_defaults::table)
        .values((
            quota_defaults::id.eq(1_i64),
            quota_defaults::storage_bytes.eq(quota.storage_bytes),
            quota_defaults::uploads_per_day.eq(quota.uploads_per_day),
            quota_defaults::updated_at.eq(at),
        ))
        .execute(conn)
        .map_err(repo_error)?;
    Ok(())
}

fn usage(conn: &mut AnyConnection, id: i64, day_start: NaiveDateTime) -> Result<Usage, RepoError> {
    let storage_bytes = storage_bytes(conn, &[id])?.first().map_or(0, |(_, bytes)| *bytes);
    let uploads_today: i64 = gifs::table
        .filter(gifs::uploader_id.eq(id))
        .filter(gifs::uploaded_at.ge(day_start))
        .count()
        .get_result(conn)
        .map_err(repo_error)?;
    Ok(Usage { storage_bytes, uploads_today })
}

#[async_trait]
impl AccountRepository for Database {
    async fn remove_account(&self, id: UserId, gifs: GifDisposal) -> Result<AccountRemoval, RepoError> {
        self.run_changing_accounts(move |conn| write_tx(conn, |conn| remove(conn, id.0, gifs))).await
    }

    async fn store_reset(&self, reset: NewPasswordReset) -> Result<User, RepoError> {
        self.run(move |conn| write_tx(conn, |conn| store_reset(conn, &reset))).await
    }

    async fn reset_exists(&self, token_digest: &str, now: NaiveDateTime) -> Result<bool, RepoError> {
        let digest = token_digest.to_owned();
        self.run(move |conn| reset_owner(conn, &digest, now).map(|owner| owner.is_some())).await
    }

    async fn use_reset(
        &self,
        token_digest: &str,
        hash: &PasswordHash,
        now: NaiveDateTime,
    ) -> Result<Option<User>, RepoError> {
        let (digest, hash) = (token_digest.to_owned(), hash.0.clone());
        self.run_changing_accounts(move |conn| write_tx(conn, |conn| use_reset(conn, &digest, &hash, now))).await
    }

    async fn default_quota(&self) -> Result<Option<Quota>, RepoError> {
        self.run(|conn| {
            let row: Option<(Option<i64>, Option<i64>)> = quota_defaults::table
                .select((quota_defaults::storage_bytes, quota_defaults::uploads_per_day))
                .first(conn)
                .optional()
                .map_err(repo_error)?;
            Ok(row.map(|(storage_bytes, uploads_per_day)| Quota { storage_bytes, uploads_per_day }))
        })
        .await
    }

    async fn set_default_quota(&self, quota: Quota, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| write_tx(conn, |conn| set_default_quota(conn, quota, at))).await
    }

    async fn member_quota(&self, id: UserId) -> Result<Quota, RepoError> {
        self.run(move |conn| member_quota(conn, id.0)).await
    }

    async fn set_member_quota(&self, id: UserId, quota: Quota) -> Result<(), RepoError> {
        self.run(move |conn| write_tx(conn, |conn| set_member_quota(conn, id.0, quota))).await
    }

    async fn usage(&self, id: UserId, day_start: NaiveDateTime) -> Result<Usage, RepoError> {
        self.run(move |conn| usage(conn, id.0, day_start)).await
    }
}
