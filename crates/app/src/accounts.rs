//! Administrators' actions on whole accounts: removing one with its GIFs (or handing them to
//! another member), one-time password reset links, and quotas; and a member's own usage.

use std::sync::Arc;

use chrono::{NaiveDateTime, NaiveTime};
use gifshelf_domain::account::{
    check_quota, AccountRemoval, GifDisposal, NewPasswordReset, Quota, Usage, RESET_TOKEN_MAX,
};
use gifshelf_domain::audit::AuditAction;
use gifshelf_domain::ports::{AccountRepository, Clock, KeyMinter, PasswordHasher};
use gifshelf_domain::user::{Password, UserId};
use gifshelf_domain::{RepoError, ValidationError};

use crate::auth::Actor;
use crate::gifs::GifService;
use crate::{AppError, Conflict};

/// What a used, expired, replaced or unknown reset link is told.
pub const RESET_INVALID: &str =
    "This password reset link is invalid or has expired. Ask an administrator for a new one.";

/// The quotas in force: the stored defaults (else the configured ones) under each member's
/// override. Every new GIF passes `check` (the upload use case calls it).
pub struct QuotaGate {
    accounts: Arc<dyn AccountRepository>,
    clock: Arc<dyn Clock>,
    /// `GIFSHELF_QUOTA_STORAGE_MB`, `GIFSHELF_QUOTA_UPLOADS_PER_DAY`, until an admin sets others.
    configured: Quota,
}

impl QuotaGate {
    pub fn new(accounts: Arc<dyn AccountRepository>, clock: Arc<dyn Clock>, configured: Quota) -> Self {
        Self { accounts, clock, configured }
    }

    /// The defaults for everyone: the admins' if they set any, else the configured ones.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn defaults(&self) -> Result<Quota, AppError> {
        Ok(self.accounts.default_quota().await?.unwrap_or(self.configured))
    }

    /// A member's quota and usage now.
    ///
    /// # Errors
    /// Storage errors; `NotFound` for an unknown account.
    pub async fn of(&self, id: UserId) -> Result<(Quota, Usage), AppError> {
        let own = self.accounts.member_quota(id).await.map_err(member_not_found)?;
        let quota = own.over(self.defaults().await?);
        Ok((quota, self.usage(id).await?))
    }

    async fn usage(&self, id: UserId) -> Result<Usage, AppError> {
        Ok(self.accounts.usage(id, day_start(self.clock.now())).await?)
    }

    /// Whether `id` may store one more GIF of `adding` bytes. Checked before the GIF's row is
    /// written, outside its transaction: uploads running at the same moment each see the usage
    /// before the others, so together they overshoot by at most the ones in flight.
    ///
    /// # Errors
    /// `QuotaExceeded` naming the quota; storage errors.
    pub async fn check(&self, id: UserId, adding: i64) -> Result<(), AppError> {
        let own = self.accounts.member_quota(id).await.map_err(member_not_found)?;
        let quota = own.over(self.defaults().await?);
        if quota == Quota::default() {
            return Ok(());
        }
        let usage = self.usage(id).await?;
        check_quota(quota, usage, adding).map_err(|breach| AppError::QuotaExceeded(breach.message()))
    }
}

/// The start of `now`'s UTC day.
fn day_start(now: NaiveDateTime) -> NaiveDateTime {
    now.date().and_time(NaiveTime::MIN)
}

fn member_not_found(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::NotFound("Member not found".into()),
        other => AppError::from_repo(other),
    }
}

/// A reset link as made: its token (shown once) and when it stops working.
#[derive(Debug, Clone)]
pub struct ResetLink {
    pub token: String,
    pub expires_at: NaiveDateTime,
}

/// The ports account actions run on.
pub struct AccountPorts {
    pub accounts: Arc<dyn AccountRepository>,
    /// Removing an account's GIFs removes their files the way deleting one GIF does.
    pub gifs: Arc<GifService>,
    pub minter: Arc<dyn KeyMinter>,
    pub hasher: Arc<dyn PasswordHasher>,
    pub clock: Arc<dyn Clock>,
    pub quotas: Arc<QuotaGate>,
}

pub struct AccountService {
    ports: AccountPorts,
    audit: Option<crate::audit::Audit>,
}

fn quota_words(quota: Quota, none: &str) -> String {
    let word = |v: Option<i64>| v.map_or_else(|| none.to_owned(), |n| n.to_string());
    format!("storage bytes: {}, uploads a day: {}", word(quota.storage_bytes), word(quota.uploads_per_day))
}

impl AccountService {
    pub fn new(ports: AccountPorts) -> Self {
        Self { ports, audit: None }
    }

    /// The same service, recording removals, reset links and quota changes in the audit log.
    #[must_use]
    pub fn with_audit(self, audit: crate::audit::Audit) -> Self {
        Self { audit: Some(audit), ..self }
    }

    async fn audit(&self, actor: &Actor, action: AuditAction, target: String, detail: String) {
        if let Some(audit) = &self.audit {
            audit.record(actor, action, target, detail).await;
        }
    }

    /// Removes an account with everything it owns; its GIFs are deleted (files too) or handed to
    /// another active member.
    ///
    /// # Errors
    /// `Forbidden` unless an admin; `Conflict::OwnAccount` for their own account;
    /// `Conflict::LastAdmin`; `Validation` on `to` for a recipient that is unknown, disabled or the
    /// account itself; `NotFound`.
    pub async fn remove(&self, actor: &Actor, id: UserId, gifs: GifDisposal) -> Result<(), AppError> {
        actor.require_admin()?;
        if id == actor.id {
            return Err(Conflict::OwnAccount.into());
        }
        match self.ports.accounts.remove_account(id, gifs).await.map_err(member_not_found)? {
            AccountRemoval::Removed { member, blob_keys } => {
                self.ports.gifs.remove_blobs(&blob_keys).await;
                tracing::info!(
                    admin_id = actor.id.0,
                    user_id = id.0,
                    ?gifs,
                    files = blob_keys.len(),
                    "removed a member"
                );
                let target = format!("{} (#{})", member.user.username.as_str(), id.0);
                self.audit(actor, AuditAction::AccountDeleted, target, gifs.describe(member.gif_count)).await;
                Ok(())
            }
            AccountRemoval::LastAdmin => Err(Conflict::LastAdmin.into()),
            AccountRemoval::RecipientInvalid => {
                Err(ValidationError::new("to", "Choose another active member to hand the GIFs to").into())
            }
        }
    }

    /// A one-time link to set a new password, replacing the account's earlier one.
    ///
    /// # Errors
    /// `Forbidden` unless an admin; `NotFound`.
    pub async fn reset_link(&self, actor: &Actor, id: UserId) -> Result<ResetLink, AppError> {
        actor.require_admin()?;
        let token = self.ports.minter.mint().trim_start_matches("gs_").to_owned();
        let reset = NewPasswordReset::new(id, self.ports.minter.digest(&token), self.ports.clock.now());
        let expires_at = reset.expires_at;
        let user = self.ports.accounts.store_reset(reset).await.map_err(member_not_found)?;
        let target = format!("{} (#{})", user.username.as_str(), id.0);
        self.audit(actor, AuditAction::PasswordResetLinkMade, target, "valid 24 hours".into()).await;
        Ok(ResetLink { token, expires_at })
    }

    /// Sets a new password through a reset link, which is used up; every earlier session and API
    /// key of the account stops working, as after a password change.
    ///
    /// # Errors
    /// `Validation` for the password; `ResetInvalid` for a used, expired, replaced or unknown link.
    pub async fn reset_password(
        &self,
        token: &str,
        password: &str,
        from: Option<std::net::IpAddr>,
    ) -> Result<(), AppError> {
        let password = Password::parse(password, "password")?;
        let token = token.trim();
        if token.is_empty() || token.len() > RESET_TOKEN_MAX {
            return Err(AppError::ResetInvalid);
        }
        let digest = self.ports.minter.digest(token);
        // Look before hashing: an unknown token costs no password hash.
        if !self.ports.accounts.reset_exists(&digest, self.ports.clock.now()).await? {
            return Err(AppError::ResetInvalid);
        }
        let hash = self.ports.hasher.hash(password.expose()).await?;
        let Some(user) = self.ports.accounts.use_reset(&digest, &hash, self.ports.clock.now()).await? else {
            return Err(AppError::ResetInvalid);
        };
        tracing::info!(user_id = user.id.0, "password reset through a link");
        let actor = Actor::session(user.id, user.username.clone(), user.role).from_address(from);
        let target = format!("{} (#{})", user.username.as_str(), user.id.0);
        self.audit(&actor, AuditAction::PasswordReset, target, "earlier sessions and API keys stop working".into())
            .await;
        Ok(())
    }

    /// The quota for everyone (null: unlimited).
    ///
    /// # Errors
    /// `Forbidden` unless an admin.
    pub async fn default_quota(&self, actor: &Actor) -> Result<Quota, AppError> {
        actor.require_admin()?;
        self.ports.quotas.defaults().await
    }

    /// # Errors
    /// `Forbidden` unless an admin.
    pub async fn set_default_quota(&self, actor: &Actor, quota: Quota) -> Result<Quota, AppError> {
        actor.require_admin()?;
        self.ports.accounts.set_default_quota(quota, self.ports.clock.now()).await?;
        self.audit(actor, AuditAction::QuotaChanged, "everyone".into(), quota_words(quota, "unlimited")).await;
        Ok(quota)
    }

    /// A member's override (null: the default).
    ///
    /// # Errors
    /// `Forbidden` unless an admin; `NotFound`.
    pub async fn member_quota(&self, actor: &Actor, id: UserId) -> Result<Quota, AppError> {
        actor.require_admin()?;
        self.ports.accounts.member_quota(id).await.map_err(member_not_found)
    }

    /// # Errors
    /// `Forbidden` unless an admin; `NotFound`.
    pub async fn set_member_quota(&self, actor: &Actor, id: UserId, quota: Quota) -> Result<Quota, AppError> {
        actor.require_admin()?;
        self.ports.accounts.set_member_quota(id, quota).await.map_err(member_not_found)?;
        self.audit(actor, AuditAction::QuotaChanged, format!("#{}", id.0), quota_words(quota, "default")).await;
        Ok(quota)
    }

    /// The caller's usage and the quota in force for them.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn usage(&self, actor: &Actor) -> Result<(Quota, Usage), AppError> {
        self.ports.quotas.of(actor.id).await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::account::{AccountRemoval, GifDisposal, Quota, Usage};
    use gifshelf_domain::member::Member;
    use gifshelf_domain::ports::{MockAccountRepository, MockClock, MockKeyMinter, MockPasswordHasher};
    use gifshelf_domain::user::{Role, UserId, Username};

    use super::{AccountPorts, AccountService, QuotaGate};
    use crate::auth::test_support::{at, user};
    use crate::auth::Actor;
    use crate::gifs::test_support::Mocks;
    use crate::{AppError, Conflict};

    fn admin() -> Actor {
        Actor::session(UserId(1), Username::from_trusted("root".into()), Role::Admin)
    }

    fn clock() -> Arc<MockClock> {
        let mut clock = MockClock::new();
        clock.expect_now().returning(|| at(10, 0, 0));
        Arc::new(clock)
    }

    fn service(accounts: MockAccountRepository, gifs: Mocks, hasher: MockPasswordHasher) -> AccountService {
        let accounts = Arc::new(accounts);
        let mut minter = MockKeyMinter::new();
        minter.expect_digest().returning(|t| format!("digest-of-{t}"));
        AccountService::new(AccountPorts {
            accounts: accounts.clone(),
            gifs: Arc::new(gifs.service()),
            minter: Arc::new(minter),
            hasher: Arc::new(hasher),
            clock: clock(),
            quotas: Arc::new(QuotaGate::new(accounts, clock(), Quota::default())),
        })
    }

    #[tokio::test]
    async fn an_admin_cannot_remove_themself_and_nothing_is_touched() {
        let mut accounts = MockAccountRepository::new();
        accounts.expect_remove_account().never();
        let got = service(accounts, Mocks::new(), MockPasswordHasher::new())
            .remove(&admin(), UserId(1), GifDisposal::Delete)
            .await;
        assert!(matches!(got, Err(AppError::Conflict(Conflict::OwnAccount))));
    }

    #[tokio::test]
    async fn a_removed_account_s_files_leave_storage_after_the_rows() {
        let mut accounts = MockAccountRepository::new();
        accounts.expect_remove_account().times(1).returning(|_, _| {
            let member = Member { user: user("alice", Role::User), gif_count: 1, storage_bytes: 20 };
            Ok(AccountRemoval::Removed { member, blob_keys: vec!["gifs/p/a.gif".into(), "gifs/p/b.png".into()] })
        });
        let mut gifs = Mocks::new();
        gifs.blobs.expect_delete().times(2).returning(|_| Ok(()));
        let got =
            service(accounts, gifs, MockPasswordHasher::new()).remove(&admin(), UserId(7), GifDisposal::Delete).await;
        assert!(got.is_ok());
    }

    #[tokio::test]
    async fn an_unknown_reset_token_costs_no_password_hash() {
        let mut accounts = MockAccountRepository::new();
        accounts.expect_reset_exists().returning(|_, _| Ok(false));
        accounts.expect_use_reset().never();
        let mut hasher = MockPasswordHasher::new();
        hasher.expect_hash().never();
        let got = service(accounts, Mocks::new(), hasher).reset_password("nope", "long-enough", None).await;
        assert!(matches!(got, Err(AppError::ResetInvalid)));
    }

    #[tokio::test]
    async fn uploads_over_the_day_s_limit_are_refused_naming_it() {
        let mut accounts = MockAccountRepository::new();
        accounts.expect_member_quota().returning(|_| Ok(Quota::default()));
        accounts.expect_default_quota().returning(|| Ok(Some(Quota { storage_bytes: None, uploads_per_day: Some(1) })));
        accounts.expect_usage().returning(|_, _| Ok(Usage { storage_bytes: 0, uploads_today: 1 }));
        let gate = QuotaGate::new(Arc::new(accounts), clock(), Quota::default());
        match gate.check(UserId(7), 10).await {
            Err(AppError::QuotaExceeded(message)) => assert_eq!(message, "Upload limit of 1 GIFs a day reached"),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn without_quotas_no_usage_is_read() {
        let mut accounts = MockAccountRepository::new();
        accounts.expect_member_quota().returning(|_| Ok(Quota::default()));
        accounts.expect_default_quota().returning(|| Ok(None));
        accounts.expect_usage().never();
        let gate = QuotaGate::new(Arc::new(accounts), clock(), Quota::default());
        assert!(gate.check(UserId(7), i64::MAX).await.is_ok());
    }
}
