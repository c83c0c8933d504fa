//! Who may join: the stored registration policy, invitations, and accounts made under them.

use async_trait::async_trait;

use crate::auth::ExternalIdentity;
use crate::join::{Admission, AdmitError, Invite, InviteId, NewInvite, RegistrationPolicy};
use crate::user::{NewUser, User, UserId};
use crate::RepoError;

/// The registration policy and invitations.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait JoinRepository: Send + Sync {
    /// The stored policy; `None` when none was ever stored.
    ///
    /// # Errors
    /// Storage errors.
    async fn registration_policy(&self) -> Result<Option<RegistrationPolicy>, RepoError>;

    /// Stores the policy, replacing any (`seed_only`: only when none is stored yet). Answers the
    /// policy now stored.
    ///
    /// # Errors
    /// Storage errors.
    async fn store_registration_policy(
        &self,
        policy: &RegistrationPolicy,
        seed_only: bool,
        at: chrono::NaiveDateTime,
    ) -> Result<RegistrationPolicy, RepoError>;

    /// # Errors
    /// `NotFound` when the creator is no account.
    async fn create_invite(&self, invite: NewInvite) -> Result<Invite, RepoError>;

    /// Invitations, newest first, at most `limit`: one person's, or everybody's with `None`.
    ///
    /// # Errors
    /// Storage errors.
    async fn invites(&self, created_by: Option<UserId>, limit: i64) -> Result<Vec<Invite>, RepoError>;

    /// # Errors
    /// `NotFound` when no invitation has this token digest.
    async fn invite_by_digest(&self, digest: &str) -> Result<Invite, RepoError>;

    /// Revokes (removes) an invitation: anybody's with `None`, else only one of `created_by`'s.
    ///
    /// # Errors
    /// `NotFound` when there is no such invitation.
    async fn delete_invite(&self, id: InviteId, created_by: Option<UserId>) -> Result<(), RepoError>;

    /// Stores a new account (linking `identity` when given) if `admission` holds, in one
    /// transaction: an invitation's use is counted by a conditional update (`uses < max_uses`,
    /// not expired), so that two people racing for its last use cannot both get in. The first
    /// account of an empty server is always admitted and becomes an admin when `first_becomes_admin`.
    ///
    /// # Errors
    /// `NotAdmitted`; `Repo(Conflict(Username | Email | Identity))`.
    async fn create_admitted(
        &self,
        user: NewUser,
        identity: Option<ExternalIdentity>,
        admission: Admission,
        first_becomes_admin: bool,
    ) -> Result<User, AdmitError>;
}
