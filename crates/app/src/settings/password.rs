use gifshelf_domain::user::{Password, SETTINGS_PASSWORD_MISMATCH};

use super::profile::account_gone;
use crate::auth::{Actor, AuthService};
use crate::AppError;

impl AuthService {
    /// Changes the password. Every token issued before now stops working; the caller gets a fresh
    /// one so that the session that made the change goes on.
    ///
    /// # Errors
    /// `Validation` (length, "New passwords do not match"), `Unauthorized` when the account is gone.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0))]
    pub async fn change_password(
        &self,
        current: &Actor,
        new_password: &str,
        confirm_password: &str,
    ) -> Result<String, AppError> {
        let password =
            Password::parse_confirmed(new_password, confirm_password, "newPassword", SETTINGS_PASSWORD_MISMATCH)?;
        let hash = self.hasher.hash(password.expose()).await?;
        let now = self.clock.now();
        self.users.update_password(current.id, &hash, now).await.map_err(account_gone)?;
        let user = self.users.find_by_id(current.id).await.map_err(account_gone)?;
        tracing::info!("password changed");
        self.issue_token(&user.username, user.role)
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::user::{PasswordHash, Role, UserId, Username};

    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::{Actor, AuthConfig};
    use crate::AppError;

    fn alice() -> Actor {
        Actor::session(UserId(7), Username::from_trusted("alice".into()), Role::User)
    }

    #[tokio::test]
    async fn mismatch_sends_nothing_to_the_store() {
        let m = Mocks::new(at(12, 0, 0));
        let err = m.service(AuthConfig::default()).change_password(&alice(), "secret1", "secret2").await.err();
        assert!(matches!(&err, Some(AppError::Validation(v)) if v.message == "New passwords do not match"), "{err:?}");
    }

    #[tokio::test]
    async fn change_stores_the_new_hash_as_of_now_and_issues_a_fresh_token() {
        let mut m = Mocks::new(at(12, 0, 0));
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
        let token = m.service(AuthConfig::default()).change_password(&alice(), "newsecret", "newsecret").await;
        assert_eq!(token.ok().as_deref(), Some("fresh"));
    }
}
