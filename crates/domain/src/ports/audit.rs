//! The audit log's store.

use async_trait::async_trait;

use crate::audit::{AuditEvent, NewAuditEvent};
use crate::gif::{Page, PageRequest};
use crate::RepoError;

/// Admin and security events, newest first.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AuditLog: Send + Sync {
    /// Appends an event.
    ///
    /// # Errors
    /// Storage errors.
    async fn record(&self, event: NewAuditEvent) -> Result<(), RepoError>;

    /// One page of events, newest first, with their total.
    ///
    /// # Errors
    /// Storage errors.
    async fn events(&self, page: PageRequest) -> Result<Page<AuditEvent>, RepoError>;
}
