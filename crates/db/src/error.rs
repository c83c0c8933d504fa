use diesel::result::{DatabaseErrorKind, Error as DieselError};
use gifshelf_domain::RepoError;

/// Errors of setting the database up (connecting, migrating). Per-call errors are `RepoError`s.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("unsupported database URL {0:?}: use sqlite://PATH or postgres://USER@HOST/DB")]
    UnsupportedUrl(String),
    #[error("cannot open the database: {0}")]
    Connect(String),
    #[error("migrations failed: {0}")]
    Migrate(String),
}

/// Translates diesel's error into the domain's, naming which uniqueness rule clashed.
pub(crate) fn repo_error(err: DieselError) -> RepoError {
    match err {
        DieselError::NotFound => RepoError::NotFound,
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
            let what = format!("{} {}", info.message(), info.constraint_name().unwrap_or_default());
            RepoError::Conflict(if what.contains("identities") {
                "identity"
            } else if what.contains("username") {
                "username"
            } else if what.contains("email") {
                "email"
            } else if what.contains("tags") {
                "tag"
            } else if what.contains("share_id") {
                "share id"
            } else {
                "record"
            })
        }
        DieselError::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
            RepoError::Unavailable(info.message().to_owned())
        }
        DieselError::DatabaseError(_, info) if info.message().contains("database is locked") => {
            RepoError::Unavailable(info.message().to_owned())
        }
        other => RepoError::Other(other.to_string()),
    }
}

pub(crate) fn pool_error(err: r2d2::Error) -> RepoError {
    RepoError::Unavailable(err.to_string())
}
