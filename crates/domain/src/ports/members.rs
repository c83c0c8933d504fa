//! The Members list and an administrator's changes to accounts.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::gif::{Page, PageRequest};
use crate::member::{Member, MemberChange, MemberSearch, MemberUpdate};
use crate::user::UserId;
use crate::RepoError;

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait MemberRepository: Send + Sync {
    /// Accounts whose username or email contains the search text (case-insensitively), by id.
    ///
    /// # Errors
    /// Storage errors.
    async fn list_members(&self, search: &MemberSearch, page: PageRequest) -> Result<Page<Member>, RepoError>;

    /// Applies the change in one transaction, unless it would leave no active administrator
    /// (`LastAdmin`, nothing changed). Disabling stores `at`; enabling clears it.
    ///
    /// # Errors
    /// `NotFound` for an unknown account.
    async fn update_member(
        &self,
        id: UserId,
        change: MemberChange,
        at: NaiveDateTime,
    ) -> Result<MemberUpdate, RepoError>;
}
