//! Administrators manage accounts: the Members list, roles, disabling and enabling. Each action is
//! one method, so that whatever must accompany it (an audit record) has one place to go.

use std::sync::Arc;

use gifshelf_domain::audit::AuditAction;
use gifshelf_domain::gif::{Page, PageRequest};
use gifshelf_domain::member::{Member, MemberChange, MemberSearch, MemberStatus, MemberUpdate};
use gifshelf_domain::ports::{Clock, MemberRepository};
use gifshelf_domain::user::UserId;
use gifshelf_domain::RepoError;

use crate::auth::Actor;
use crate::{AppError, Conflict};

pub struct MemberService {
    members: Arc<dyn MemberRepository>,
    clock: Arc<dyn Clock>,
    audit: Option<crate::audit::Audit>,
}

fn member_not_found(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::NotFound("Member not found".into()),
        other => AppError::from_repo(other),
    }
}

impl MemberService {
    pub fn new(members: Arc<dyn MemberRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { members, clock, audit: None }
    }

    /// The same service, recording role and status changes in the audit log.
    #[must_use]
    pub fn with_audit(self, audit: crate::audit::Audit) -> Self {
        Self { audit: Some(audit), ..self }
    }

    /// A page of the accounts whose username or email contains the search text.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an administrator.
    pub async fn list(
        &self,
        actor: &Actor,
        search: &MemberSearch,
        page: PageRequest,
    ) -> Result<Page<Member>, AppError> {
        actor.require_admin()?;
        Ok(self.members.list_members(search, page).await?)
    }

    /// Changes an account's role or status. A disabled account's sessions, media cookie and API
    /// keys are refused from their next request on (authentication reads the account each time).
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an administrator; `Conflict::OwnAccount` when they disable
    /// themself; `Conflict::LastAdmin` when no active administrator would be left; `NotFound`.
    pub async fn update(&self, actor: &Actor, id: UserId, change: MemberChange) -> Result<Member, AppError> {
        actor.require_admin()?;
        if id == actor.id && change.status == Some(MemberStatus::Disabled) {
            return Err(Conflict::OwnAccount.into());
        }
        match self.members.update_member(id, change, self.clock.now()).await.map_err(member_not_found)? {
            MemberUpdate::Updated(member) => {
                tracing::info!(admin_id = actor.id.0, user_id = id.0, ?change, "changed a member");
                if let Some(audit) = &self.audit {
                    let target = format!("{} (#{})", member.user.username.as_str(), id.0);
                    if let Some(role) = change.role {
                        let detail = format!("role: {}", role.as_str().to_lowercase());
                        audit.record(actor, AuditAction::RoleChanged, target.clone(), detail).await;
                    }
                    match change.status {
                        Some(MemberStatus::Disabled) => {
                            audit.record(actor, AuditAction::AccountDisabled, target, "").await
                        }
                        Some(MemberStatus::Active) => {
                            audit.record(actor, AuditAction::AccountEnabled, target, "").await
                        }
                        None => {}
                    }
                }
                Ok(member)
            }
            MemberUpdate::LastAdmin => Err(Conflict::LastAdmin.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::member::{Member, MemberChange, MemberStatus, MemberUpdate};
    use gifshelf_domain::ports::{MockClock, MockMemberRepository};
    use gifshelf_domain::user::{Role, UserId};

    use super::MemberService;
    use crate::auth::test_support::{at, user};
    use crate::auth::Actor;
    use crate::{AppError, Conflict};

    fn admin() -> Actor {
        Actor::session(UserId(1), gifshelf_domain::user::Username::from_trusted("root".into()), Role::Admin)
    }

    fn service(members: MockMemberRepository) -> MemberService {
        let mut clock = MockClock::new();
        clock.expect_now().returning(|| at(10, 0, 0));
        MemberService::new(Arc::new(members), Arc::new(clock))
    }

    #[tokio::test]
    async fn an_admin_cannot_disable_themself_and_nothing_is_stored() {
        let mut members = MockMemberRepository::new();
        members.expect_update_member().never();
        let change = MemberChange { role: None, status: Some(MemberStatus::Disabled) };
        let got = service(members).update(&admin(), UserId(1), change).await;
        assert!(matches!(got, Err(AppError::Conflict(Conflict::OwnAccount))));
    }

    #[tokio::test]
    async fn the_last_admin_is_a_conflict() {
        let mut members = MockMemberRepository::new();
        members.expect_update_member().returning(|_, _, _| Ok(MemberUpdate::LastAdmin));
        let change = MemberChange { role: Some(Role::User), status: None };
        let got = service(members).update(&admin(), UserId(1), change).await;
        assert!(matches!(got, Err(AppError::Conflict(Conflict::LastAdmin))));
    }

    #[tokio::test]
    async fn members_are_for_admins_only() {
        let mut members = MockMemberRepository::new();
        members.expect_update_member().never();
        members.expect_list_members().never();
        let svc = service(members);
        let member = Actor::session(UserId(2), gifshelf_domain::user::Username::from_trusted("bob".into()), Role::User);
        let change = MemberChange { role: Some(Role::Admin), status: None };
        assert!(matches!(svc.update(&member, UserId(2), change).await, Err(AppError::Forbidden(_))));
        let page = gifshelf_domain::gif::PageRequest::new(None, None).ok();
        let search = gifshelf_domain::member::MemberSearch::default();
        if let Some(page) = page {
            assert!(matches!(svc.list(&member, &search, page).await, Err(AppError::Forbidden(_))));
        }
    }

    #[tokio::test]
    async fn a_change_is_stored_at_the_clock_s_time() {
        let mut members = MockMemberRepository::new();
        members.expect_update_member().withf(|id, _, at_| *id == UserId(7) && *at_ == at(10, 0, 0)).returning(
            |_, _, _| {
                Ok(MemberUpdate::Updated(Member { user: user("alice", Role::User), gif_count: 3, storage_bytes: 0 }))
            },
        );
        let change = MemberChange { role: None, status: Some(MemberStatus::Disabled) };
        let got = service(members).update(&admin(), UserId(7), change).await;
        assert_eq!(got.map(|m| m.gif_count).ok(), Some(3));
    }
}
