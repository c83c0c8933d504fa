use gifshelf_domain::user::{Password, PasswordHash, SETTINGS_PASSWORD_MISMATCH};
use gifshelf_domain::ValidationError;

use super::profile::account_gone;
use crate::auth::{Actor, AuthService};
use crate::AppError;

/// The answer to a wrong current password (a field message, so the form shows it).
pub const CURRENT_PASSWORD_WRONG: &str = "Current password is incorrect";
/// The answer when an account with a password is changed without it.
pub const CURRENT_PASSWORD_MISSING: &str = "Enter your current password";

impl AuthService {
    /// Changes the password after checking the current one (an account made by a third-party
    /// sign-in, which has none, sets its first password without it). Every token and API key
    /// issued before now stops working; the caller gets a fresh token so that the session that
    /// made the change goes on. Wrong current passwords count against the account like failed
    /// logins, so a stolen session cannot guess it faster than the sign-in form.
    ///
    /// # Errors
    /// `Validation` (length, "New passwords do not match", a missing or wrong current password),
    /// `TooManyRequests` while the account is throttled, `Unauthorized` when the account is gone.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0))]
    pub async fn change_password(
        &self,
        current: &Actor,
        current_password: Option<&str>,
        new_password: &str,
        confirm_password: &str,
    ) -> Result<String, AppError> {
        let password =
            Password::parse_confirmed(new_password, confirm_password, "newPassword", SETTINGS_PASSWORD_MISMATCH)?;
        let existing = self.users.find_by_id(current.id).await.map_err(account_gone)?;
        if existing.password_hash != PasswordHash::unusable() {
            self.check_current_password(&existing, current_password.unwrap_or_default()).await?;
        }
        let hash = self.hasher.hash(password.expose()).await?;
        let now = self.clock.now();
        self.users.update_password(current.id, &hash, now).await.map_err(account_gone)?;
        let user = self.users.find_by_id(current.id).await.map_err(account_gone)?;
        tracing::info!("password changed");
        if let Some(audit) = &self.audit {
            let target = format!("{} (#{})", user.username.as_str(), user.id.0);
            let detail = "earlier sessions and API keys stop working";
            audit.record(current, gifshelf_domain::audit::AuditAction::PasswordChanged, target, detail).await;
        }
        self.issue_token(&user.username, user.role)
    }

    async fn check_current_password(&self, user: &gifshelf_domain::user::User, typed: &str) -> Result<(), AppError> {
        if typed.is_empty() {
            return Err(ValidationError::new("currentPassword", CURRENT_PASSWORD_MISSING).into());
        }
        let account = user.username.as_str();
        if let Err(retry_after_secs) = self.throttle.begin(account, None, self.clock.now()).await {
            tracing::warn!("password change throttled");
            return Err(AppError::TooManyRequests { retry_after_secs });
        }
        if !self.hasher.verify(typed, &user.password_hash).await? {
            tracing::info!("password change with a wrong current password");
            return Err(ValidationError::new("currentPassword", CURRENT_PASSWORD_WRONG).into());
        }
        self.throttle.succeeded(account, None).await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::user::{PasswordHash, Role, UserId, Username};

    use super::{CURRENT_PASSWORD_MISSING, CURRENT_PASSWORD_WRONG};
    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::{Actor, AuthConfig};
    use crate::AppError;

    fn alice() -> Actor {
        Actor::session(UserId(7), Username::from_trusted("alice".into()), Role::User)
    }

    #[tokio::test]
    async fn mismatch_sends_nothing_to_the_store() {
        let m = Mocks::new(at(12, 0, 0));
        let err = m
            .service(AuthConfig::default())
            .change_password(&alice(), Some("secret"), "secret1", "secret2")
            .await
            .err();
        assert!(matches!(&err, Some(AppError::Validation(v)) if v.message == "New passwords do not match"), "{err:?}");
    }

    #[tokio::test]
    async fn change_stores_the_new_hash_as_of_now_and_issues_a_fresh_token() {
        let mut m = Mocks::new(at(12, 0, 0));
        m.hasher.expect_verify().withf(|p, h| p == "oldsecret" && h.0 == "hash-of-secret").returning(|_, _| Ok(true));
        m.hasher.expect_hash().returning(|p| Ok(PasswordHash(format!("bcrypt${p}"))));
        m.users
            .expect_update_password()
            .withf(|id, hash, changed| *id == UserId(7) && hash.0 == "bcrypt$newsecret" && *changed == at(12, 0, 0))
            .times(1)
            .returning(|_, _, _| Ok(()));
        m.users.expect_find_by_id().returning(|_| Ok(user("alice", Role::User)));
        m.tokens
            .expect_issue()
            .withf(|c| c.issued_at == at(12, 0, 0).and_utc().timestamp())
            .returning(|_| Ok("fresh".into()));
        let token = m
            .service(AuthConfig::default())
            .change_password(&alice(), Some("oldsecret"), "newsecret", "newsecret")
            .await;
        assert_eq!(token.ok().as_deref(), Some("fresh"));
    }

    #[tokio::test]
    async fn a_missing_or_wrong_current_password_changes_nothing_and_counts_as_a_failure() {
        let mut m = Mocks::new(at(12, 0, 0));
        m.users.expect_find_by_id().returning(|_| Ok(user("alice", Role::User)));
        m.hasher.expect_verify().times(5).returning(|_, _| Ok(false));
        m.hasher.expect_hash().never();
        m.users.expect_update_password().never();
        let service = m.service(AuthConfig::default());
        for missing in [None, Some("")] {
            let err = service.change_password(&alice(), missing, "newsecret", "newsecret").await.err();
            assert!(
                matches!(&err, Some(AppError::Validation(v)) if v.field == "currentPassword" && v.message == CURRENT_PASSWORD_MISSING),
                "{err:?}"
            );
        }
        for _ in 0..5 {
            let err = service.change_password(&alice(), Some("guess"), "newsecret", "newsecret").await.err();
            assert!(
                matches!(&err, Some(AppError::Validation(v)) if v.field == "currentPassword" && v.message == CURRENT_PASSWORD_WRONG),
                "{err:?}"
            );
        }
        // Throttled like failed logins: the hasher is not asked again (`times(5)` above).
        let err = service.change_password(&alice(), Some("guess"), "newsecret", "newsecret").await.err();
        assert!(matches!(err, Some(AppError::TooManyRequests { .. })), "{err:?}");
    }

    #[tokio::test]
    async fn an_account_without_a_password_sets_its_first_one_without_a_current_one() {
        let mut m = Mocks::new(at(12, 0, 0));
        m.users.expect_find_by_id().returning(|_| {
            let mut google_only = user("grace", Role::User);
            google_only.password_hash = PasswordHash::unusable();
            Ok(google_only)
        });
        m.hasher.expect_verify().never();
        m.hasher.expect_hash().returning(|p| Ok(PasswordHash(format!("bcrypt${p}"))));
        m.users.expect_update_password().times(1).returning(|_, _, _| Ok(()));
        m.tokens.expect_issue().returning(|_| Ok("fresh".into()));
        let token = m.service(AuthConfig::default()).change_password(&alice(), None, "newsecret", "newsecret").await;
        assert_eq!(token.ok().as_deref(), Some("fresh"));
    }
}
