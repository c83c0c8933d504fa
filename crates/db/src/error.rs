use diesel::result::{DatabaseErrorInformation, DatabaseErrorKind, Error as DieselError};
use gifshelf_domain::{Cause, RepoError, Unique};

/// Errors of setting the database up (connecting, migrating). Per-call errors are `RepoError`s.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("unsupported database URL {0:?}: use sqlite://PATH or postgres://USER@HOST/DB")]
    UnsupportedUrl(String),
    #[error("cannot open the database: {0}")]
    Connect(#[source] Cause),
    #[error("migrations failed: {0}")]
    Migrate(#[source] Cause),
    #[error("backup failed: {0}")]
    Backup(String),
}

/// Every unique constraint of the schema and the rule it stands for: by its PostgreSQL name, and by
/// the `table.column` list SQLite reports (SQLite names no constraint). A new unique index is one
/// row here; `tests/repo/unique.rs` checks the list against the live schema of both backends.
pub const UNIQUE_CONSTRAINTS: &[(&str, &str, Unique)] = &[
    ("users_username_key_uq", "users.username_key", Unique::Username),
    ("users_email_uq", "users.email", Unique::Email),
    ("user_identities_pkey", "user_identities.issuer, user_identities.subject", Unique::Identity),
    ("user_identities_user_issuer_uq", "user_identities.user_id, user_identities.issuer", Unique::IdentityPerProvider),
    ("gifs_share_id_uq", "gifs.share_id", Unique::ShareId),
    ("tags_name_uq", "tags.name", Unique::TagName),
    ("gif_tags_pkey", "gif_tags.gif_id, gif_tags.tag_id", Unique::GifTag),
    ("gif_renditions_pkey", "gif_renditions.gif_id, gif_renditions.kind", Unique::Rendition),
    ("collections_share_id_uq", "collections.share_id", Unique::ShareId),
    ("collection_gifs_pkey", "collection_gifs.collection_id, collection_gifs.gif_id", Unique::CollectionGif),
    ("favourites_pkey", "favourites.user_id, favourites.gif_id", Unique::Favourite),
    ("gifs_sha256_uq", "gifs.sha256", Unique::Sha256),
    ("api_keys_digest_uq", "api_keys.digest", Unique::ApiKey),
    ("gif_daily_views_pkey", "gif_daily_views.gif_id, gif_daily_views.day", Unique::DayCount),
    ("search_terms_pkey", "search_terms.term, search_terms.day", Unique::DayCount),
    ("gif_viewers_pkey", "gif_viewers.gif_id, gif_viewers.day, gif_viewers.viewer", Unique::DayCount),
    ("jobs_dedup_uq", "jobs.dedup_key", Unique::Job),
    ("password_resets_pkey", "password_resets.user_id", Unique::PerAccount),
    ("member_quotas_pkey", "member_quotas.user_id", Unique::PerAccount),
    ("shared_counters_pkey", "shared_counters.key", Unique::Counter),
];

/// The rule a unique violation broke: by constraint name (PostgreSQL) or by the exact column list
/// after SQLite's fixed prefix.
fn unique_rule(info: &dyn DatabaseErrorInformation) -> Option<Unique> {
    if let Some(name) = info.constraint_name() {
        return UNIQUE_CONSTRAINTS.iter().find(|(pg, _, _)| *pg == name).map(|(_, _, rule)| *rule);
    }
    let columns = info.message().strip_prefix("UNIQUE constraint failed: ")?;
    UNIQUE_CONSTRAINTS.iter().find(|(_, sqlite, _)| *sqlite == columns).map(|(_, _, rule)| *rule)
}

/// Translates diesel's error into the domain's, naming which uniqueness rule clashed.
pub(crate) fn repo_error(err: DieselError) -> RepoError {
    match err {
        DieselError::NotFound => RepoError::NotFound,
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, ref info) => match unique_rule(info.as_ref()) {
            Some(rule) => RepoError::Conflict(rule),
            // A constraint the list does not know is a bug of ours: keep the whole error.
            None => RepoError::other(err),
        },
        DieselError::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => RepoError::Retry(Box::new(err)),
        // PostgreSQL aborts one of two transactions that wait for each other (SQLSTATE 40P01);
        // diesel reports no kind for it, only the server's message.
        DieselError::DatabaseError(DatabaseErrorKind::Unknown, ref info)
            if info.message().contains("deadlock detected") =>
        {
            RepoError::Retry(Box::new(err))
        }
        DieselError::DatabaseError(DatabaseErrorKind::ClosedConnection, _) => RepoError::unavailable(err),
        DieselError::DatabaseError(_, ref info) if info.message().contains("database is locked") => {
            RepoError::unavailable(err)
        }
        other => RepoError::other(other),
    }
}

pub(crate) fn pool_error(err: r2d2::Error) -> RepoError {
    RepoError::unavailable(err)
}
