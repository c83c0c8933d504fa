//! Administrators' actions on whole accounts: removal, reset links, quotas; and a member's usage.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::account::{AccountRemoval, GifDisposal, NewPasswordReset, Quota, Usage};
use crate::user::{PasswordHash, User, UserId};
use crate::RepoError;

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AccountRepository: Send + Sync {
    /// Removes the account in one transaction with everything it owns (sessions end with the
    /// row; keys, favourites, collections, invitations, identities and reset links go with it),
    /// its GIFs deleted or handed over first, unless that leaves no active administrator or the
    /// recipient is not another active member (nothing changed then).
    ///
    /// # Errors
    /// `NotFound` for an unknown account.
    async fn remove_account(&self, id: UserId, gifs: GifDisposal) -> Result<AccountRemoval, RepoError>;

    /// Stores a reset link, replacing the account's earlier one; the account as stored.
    ///
    /// # Errors
    /// `NotFound` for an unknown account.
    async fn store_reset(&self, reset: NewPasswordReset) -> Result<User, RepoError>;

    /// Whether a link with this token digest is stored and not expired at `now`.
    ///
    /// # Errors
    /// Storage errors.
    async fn reset_exists(&self, token_digest: &str, now: NaiveDateTime) -> Result<bool, RepoError>;

    /// Uses the link with this token digest, if it is stored and not expired at `now`: in one
    /// transaction the link is removed and the password stored, with `now` as the credentials'
    /// change (every earlier token and API key stops working). `None`: no such link.
    ///
    /// # Errors
    /// Storage errors.
    async fn use_reset(
        &self,
        token_digest: &str,
        hash: &PasswordHash,
        now: NaiveDateTime,
    ) -> Result<Option<User>, RepoError>;

    /// The quota an administrator set for everyone, if any was set.
    ///
    /// # Errors
    /// Storage errors.
    async fn default_quota(&self) -> Result<Option<Quota>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn set_default_quota(&self, quota: Quota, at: NaiveDateTime) -> Result<(), RepoError>;

    /// A member's own override (`None` in a field: the default).
    ///
    /// # Errors
    /// `NotFound` for an unknown account.
    async fn member_quota(&self, id: UserId) -> Result<Quota, RepoError>;

    /// # Errors
    /// `NotFound` for an unknown account.
    async fn set_member_quota(&self, id: UserId, quota: Quota) -> Result<(), RepoError>;

    /// The member's stored bytes and their uploads since `day_start`.
    ///
    /// # Errors
    /// Storage errors.
    async fn usage(&self, id: UserId, day_start: NaiveDateTime) -> Result<Usage, RepoError>;
}
