//! What a readiness check asks of the storage beyond a ping.

use async_trait::async_trait;

use crate::RepoError;

/// The database's schema, as the running code expects it.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait SchemaStatus: Send + Sync {
    /// How many migrations this build holds that the database has not applied.
    ///
    /// # Errors
    /// `Unavailable` when the database does not answer.
    async fn pending_migrations(&self) -> Result<usize, RepoError>;
}
