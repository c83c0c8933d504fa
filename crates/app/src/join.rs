//! Who may join: admins set the registration policy; admins (and members, when the policy lets
//! them) make and revoke invitations; registration and a first third-party sign-in ask for a
//! [`Ticket`] before an account is stored (docs/security.md "Who may join").

use std::sync::Arc;

use gifshelf_domain::audit::AuditAction;
use gifshelf_domain::join::{
    Admission, EmailDomain, Invite, InviteId, NewInvite, RegistrationMode, RegistrationPolicy, INVITE_DEFAULT_HOURS,
    INVITE_DEFAULT_USES, INVITE_MAX_HOURS, INVITE_MAX_USES,
};
use gifshelf_domain::ports::{Clock, JoinRepository, KeyMinter};
use gifshelf_domain::user::{Email, Role};
use gifshelf_domain::{RepoError, ValidationError};

use crate::auth::Actor;
use crate::AppError;

/// At most this many invitations are listed (newest first).
pub const INVITES_LISTED: i64 = 200;
/// A presented invitation token longer than this is no token of ours.
const TOKEN_MAX: usize = 200;

/// Why a new account was refused (a 403 each, with its own code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("Registration is closed on this server. Ask an administrator for an invitation.")]
    RegistrationClosed,
    #[error("You need an invitation to join this server. Ask a member for an invitation link.")]
    InvitationRequired,
    #[error("This invitation link is not valid: it has expired, been used up or been revoked.")]
    InvitationInvalid,
    #[error("Accounts on this server need an email address at one of its allowed domains.")]
    EmailDomainNotAllowed,
}

/// How a new account may be stored: as open registration allows, or under an admission (whose
/// refusal is what to answer when it does not hold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ticket {
    Open,
    Admitted { admission: Admission, role: Role, refusal: Refusal },
}

/// What an invitation is asked for; `None` takes the default.
#[derive(Debug, Clone, Copy, Default)]
pub struct InviteRequest {
    pub max_uses: Option<i64>,
    pub expires_in_hours: Option<i64>,
    pub role: Option<Role>,
}

/// A new invitation with its token, which is never shown again (only its digest is stored).
#[derive(Debug, Clone)]
pub struct MintedInvite {
    pub invite: Invite,
    pub token: String,
}

/// An invitation's role as the API spells it.
///
/// # Errors
/// Anything but `user` or `admin`.
pub fn parse_role(raw: &str) -> Result<Role, ValidationError> {
    match raw {
        "user" => Ok(Role::User),
        "admin" => Ok(Role::Admin),
        _ => Err(ValidationError::new("role", "The role must be user or admin")),
    }
}

pub struct JoinService {
    repo: Arc<dyn JoinRepository>,
    minter: Arc<dyn KeyMinter>,
    clock: Arc<dyn Clock>,
    audit: Option<crate::audit::Audit>,
    /// The configured policy, stored when first read while none is stored.
    seed: Option<RegistrationPolicy>,
}

impl JoinService {
    pub fn new(repo: Arc<dyn JoinRepository>, minter: Arc<dyn KeyMinter>, clock: Arc<dyn Clock>) -> Self {
        Self { repo, minter, clock, seed: None, audit: None }
    }

    /// The same service, recording policy changes and invitations in the audit log.
    #[must_use]
    pub fn with_audit(self, audit: crate::audit::Audit) -> Self {
        Self { audit: Some(audit), ..self }
    }

    async fn audit(&self, actor: &Actor, action: AuditAction, target: String, detail: String) {
        if let Some(audit) = &self.audit {
            audit.record(actor, action, target, detail).await;
        }
    }

    /// The configured policy (`GIFSHELF_REGISTRATION`, `GIFSHELF_ALLOWED_EMAIL_DOMAINS`): stored
    /// the first time the policy is read while none is stored; once stored, an admin's change wins.
    #[must_use]
    pub fn with_seed(mut self, seed: Option<RegistrationPolicy>) -> Self {
        self.seed = seed;
        self
    }

    pub(crate) fn repo(&self) -> &dyn JoinRepository {
        self.repo.as_ref()
    }

    /// The policy in force: the stored one, else the default (open, any domain).
    ///
    /// # Errors
    /// Storage errors.
    pub async fn current(&self) -> Result<RegistrationPolicy, AppError> {
        match (self.repo.registration_policy().await?, &self.seed) {
            (Some(stored), _) => Ok(stored),
            (None, Some(seed)) => Ok(self.repo.store_registration_policy(seed, true, self.clock.now()).await?),
            (None, None) => Ok(RegistrationPolicy::default()),
        }
    }

    /// # Errors
    /// `Forbidden` unless the actor is an admin.
    pub async fn policy(&self, actor: &Actor) -> Result<RegistrationPolicy, AppError> {
        actor.require_admin()?;
        self.current().await
    }

    /// Changes who may join.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an admin.
    pub async fn set_policy(&self, actor: &Actor, policy: RegistrationPolicy) -> Result<RegistrationPolicy, AppError> {
        actor.require_admin()?;
        let stored = self.repo.store_registration_policy(&policy, false, self.clock.now()).await?;
        tracing::info!(
            by = actor.id.0,
            mode = stored.mode.as_str(),
            domains = stored.allowed_domains.len(),
            "registration policy changed"
        );
        let domains = if stored.allowed_domains.is_empty() {
            "any".to_owned()
        } else {
            stored.allowed_domains.iter().map(EmailDomain::as_str).collect::<Vec<_>>().join(", ")
        };
        let detail = format!(
            "mode: {}; email domains: {domains}; members may invite: {}",
            stored.mode.as_str(),
            if stored.members_may_invite { "yes" } else { "no" }
        );
        self.audit(actor, AuditAction::RegistrationPolicyChanged, "who may join".into(), detail).await;
        Ok(stored)
    }

    /// Admins always invite; members when the policy lets them.
    async fn require_inviter(&self, actor: &Actor) -> Result<(), AppError> {
        if actor.is_admin() || self.current().await?.members_may_invite {
            Ok(())
        } else {
            Err(AppError::Forbidden("Only administrators can invite people to this server.".into()))
        }
    }

    /// Makes an invitation (1..=1000 uses, 1..=720 hours; a member's only for the role `user`).
    ///
    /// # Errors
    /// `Validation` for the numbers; `Forbidden` for a member when members may not invite, or for an
    /// admin invitation.
    pub async fn create_invite(&self, actor: &Actor, request: InviteRequest) -> Result<MintedInvite, AppError> {
        let max_uses = request.max_uses.unwrap_or(INVITE_DEFAULT_USES);
        if !(1..=INVITE_MAX_USES).contains(&max_uses) {
            let message = format!("Uses must be between 1 and {INVITE_MAX_USES}");
            return Err(ValidationError::new("maxUses", message).into());
        }
        let hours = request.expires_in_hours.unwrap_or(INVITE_DEFAULT_HOURS);
        if !(1..=INVITE_MAX_HOURS).contains(&hours) {
            let message = format!("The invitation must expire within 1 to {INVITE_MAX_HOURS} hours");
            return Err(ValidationError::new("expiresInHours", message).into());
        }
        self.require_inviter(actor).await?;
        let role = request.role.unwrap_or(Role::User);
        if role == Role::Admin && !actor.is_admin() {
            return Err(AppError::Forbidden("Only administrators can invite administrators.".into()));
        }
        let token = self.minter.mint().trim_start_matches("gs_").to_owned();
        let now = self.clock.now();
        let invite = self
            .repo
            .create_invite(NewInvite {
                token_digest: self.minter.digest(&token),
                max_uses,
                role,
                created_by: actor.id,
                created_at: now,
                expires_at: now + chrono::Duration::hours(hours),
            })
            .await?;
        tracing::info!(by = actor.id.0, invite = invite.id.0, role = role.as_str(), max_uses, "invitation created");
        let detail = format!("role: {}; uses: {max_uses}; valid for {hours} hours", role.as_str().to_lowercase());
        self.audit(actor, AuditAction::InvitationMade, format!("invitation #{}", invite.id.0), detail).await;
        Ok(MintedInvite { invite, token })
    }

    /// The caller's invitations (an admin's: everybody's), newest first, at most [`INVITES_LISTED`].
    ///
    /// # Errors
    /// `Forbidden` for a member when members may not invite.
    pub async fn invites(&self, actor: &Actor) -> Result<Vec<Invite>, AppError> {
        self.require_inviter(actor).await?;
        let owner = (!actor.is_admin()).then_some(actor.id);
        Ok(self.repo.invites(owner, INVITES_LISTED).await?)
    }

    /// Revokes an invitation: an admin any, a member their own.
    ///
    /// # Errors
    /// `Forbidden` as for `invites`; `NotFound` when there is no such invitation (of theirs).
    pub async fn revoke_invite(&self, actor: &Actor, id: InviteId) -> Result<(), AppError> {
        self.require_inviter(actor).await?;
        let owner = (!actor.is_admin()).then_some(actor.id);
        self.repo.delete_invite(id, owner).await.map_err(|err| match err {
            RepoError::NotFound => AppError::NotFound("Invitation not found".into()),
            other => other.into(),
        })?;
        tracing::info!(by = actor.id.0, invite = id.0, "invitation revoked");
        self.audit(actor, AuditAction::InvitationRevoked, format!("invitation #{}", id.0), String::new()).await;
        Ok(())
    }

    /// How an account for `email` may be stored under the policy, with the invitation presented.
    /// An invitation is honoured in every mode, `closed` included (admins add people through
    /// invitations); allowed domains apply to invited people too. The first account of an empty
    /// server gets in whatever this says (the repository decides that in its transaction).
    pub(crate) async fn ticket(
        &self,
        email: &Email,
        hosted_domain: Option<&str>,
        invite: Option<&str>,
    ) -> Result<Ticket, AppError> {
        let policy = self.current().await?;
        let domain_ok = policy.allows(email, hosted_domain);
        let first_only = |refusal| Ticket::Admitted { admission: Admission::FirstOnly, role: Role::User, refusal };
        let Some(token) = invite.map(str::trim).filter(|t| !t.is_empty()) else {
            return Ok(match policy.mode {
                RegistrationMode::Closed => first_only(Refusal::RegistrationClosed),
                RegistrationMode::Invite => first_only(Refusal::InvitationRequired),
                RegistrationMode::Open if domain_ok => Ticket::Open,
                RegistrationMode::Open => first_only(Refusal::EmailDomainNotAllowed),
            });
        };
        let now = self.clock.now();
        let found = if token.len() > TOKEN_MAX {
            None
        } else {
            match self.repo.invite_by_digest(&self.minter.digest(token)).await {
                Ok(invite) => Some(invite).filter(|i| i.usable_at(now)),
                Err(RepoError::NotFound) => None,
                Err(other) => return Err(other.into()),
            }
        };
        Ok(match found {
            None => first_only(Refusal::InvitationInvalid),
            Some(_) if !domain_ok => first_only(Refusal::EmailDomainNotAllowed),
            Some(invite) => Ticket::Admitted {
                admission: Admission::Invitation { id: invite.id, now },
                role: invite.role,
                refusal: Refusal::InvitationInvalid,
            },
        })
    }
}

#[cfg(test)]
#[path = "join_tests.rs"]
mod tests;
