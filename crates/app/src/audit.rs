//! The audit log (Members, "Audit log"): use cases record admin and security events through
//! [`Audit`]; admins read them newest first.
//!
//! Recording never fails the action it describes: the action has happened by then, and a store
//! error is logged loudly instead.

use std::sync::Arc;

use gifshelf_domain::audit::{AuditAction, AuditActor, AuditEvent, NewAuditEvent};
use gifshelf_domain::gif::{Page, PageRequest};
use gifshelf_domain::ports::{AuditLog, Clock};

use crate::auth::Actor;
use crate::AppError;

/// Records events and lists them. Cheap to clone; every service that acts for admins holds one.
#[derive(Clone)]
pub struct Audit {
    log: Arc<dyn AuditLog>,
    clock: Arc<dyn Clock>,
}

impl Audit {
    pub fn new(log: Arc<dyn AuditLog>, clock: Arc<dyn Clock>) -> Self {
        Self { log, clock }
    }

    /// Records that `actor` did `action` to `target` (words), with `detail`.
    pub async fn record(
        &self,
        actor: &Actor,
        action: AuditAction,
        target: impl Into<String>,
        detail: impl Into<String>,
    ) {
        let by = AuditActor::Member { id: actor.id, username: actor.username.as_str().to_owned() };
        self.write(by, action, target.into(), detail.into(), actor.from.map(|ip| ip.to_string())).await;
    }

    /// Records an event of the server itself (the command line, a start-up conversion).
    pub async fn record_system(&self, action: AuditAction, target: impl Into<String>, detail: impl Into<String>) {
        self.write(AuditActor::System, action, target.into(), detail.into(), None).await;
    }

    async fn write(
        &self,
        actor: AuditActor,
        action: AuditAction,
        target: String,
        detail: String,
        address: Option<String>,
    ) {
        let event = NewAuditEvent { at: self.clock.now(), actor, action, target, detail, address }.bounded();
        if let Err(err) = self.log.record(event).await {
            tracing::error!(action = action.as_str(), error = %err, "could not record an audit event");
        }
    }

    /// One page of events, newest first.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an admin; storage errors.
    pub async fn events(&self, actor: &Actor, page: PageRequest) -> Result<Page<AuditEvent>, AppError> {
        actor.require_admin()?;
        Ok(self.log.events(page).await?)
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;
    use gifshelf_domain::ports::{MockAuditLog, MockClock};
    use gifshelf_domain::user::{Role, UserId, Username};
    use gifshelf_domain::RepoError;

    use super::*;

    fn audit(log: MockAuditLog) -> Audit {
        let mut clock = MockClock::new();
        clock.expect_now().returning(|| {
            NaiveDate::from_ymd_opt(2026, 11, 27).and_then(|d| d.and_hms_opt(9, 0, 0)).unwrap_or_default()
        });
        Audit::new(Arc::new(log), Arc::new(clock))
    }

    fn admin() -> Actor {
        Actor::session(UserId(1), Username::parse("root").unwrap_or_else(|e| panic!("{e:?}")), Role::Admin)
            .from_address("2001:db8::7".parse().ok())
    }

    #[tokio::test]
    async fn an_event_names_the_actor_its_address_and_the_time() {
        let mut log = MockAuditLog::new();
        log.expect_record()
            .withf(|e| {
                e.actor == AuditActor::Member { id: UserId(1), username: "root".into() }
                    && e.action == AuditAction::RoleChanged
                    && e.target == "alice (#2)"
                    && e.detail == "role: admin"
                    && e.address.as_deref() == Some("2001:db8::7")
                    && e.at.to_string() == "2026-11-27 09:00:00"
            })
            .times(1)
            .returning(|_| Ok(()));
        audit(log).record(&admin(), AuditAction::RoleChanged, "alice (#2)", "role: admin").await;
    }

    #[tokio::test]
    async fn a_store_error_does_not_fail_the_action() {
        let mut log = MockAuditLog::new();
        log.expect_record().times(1).returning(|_| Err(RepoError::other("disk full")));
        audit(log).record_system(AuditAction::IntegrationSecretRemoved, "Team Slack", "").await;
    }

    #[tokio::test]
    async fn only_admins_read_the_log() {
        let member =
            Actor::session(UserId(2), Username::parse("alice").unwrap_or_else(|e| panic!("{e:?}")), Role::User);
        let result = audit(MockAuditLog::new()).events(&member, PageRequest { page: 0, size: 10 }).await;
        assert!(matches!(result, Err(AppError::Forbidden(_))), "{result:?}");
    }
}
