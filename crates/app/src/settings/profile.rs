use gifshelf_domain::user::{Email, PasswordHash, Username};
use gifshelf_domain::{RepoError, Unique};

use super::Profile;
use crate::auth::{Actor, AuthService};
use crate::{AppError, Conflict};

impl AuthService {
    /// # Errors
    /// `Unauthorized` when the account no longer exists.
    pub async fn profile(&self, current: &Actor) -> Result<Profile, AppError> {
        let user = self.users.find_by_id(current.id).await.map_err(account_gone)?;
        Ok(Profile {
            has_password: user.password_hash != PasswordHash::unusable(),
            username: user.username.into_inner(),
            email: user.email.as_str().to_owned(),
        })
    }

    /// Changes the username (3 to 50 characters, unique) and, when given, the email (well-formed,
    /// unique). A changed username ends every session of the account: tokens name the old user.
    ///
    /// # Errors
    /// `Validation`, `Conflict` for a taken username or email, `Unauthorized` when the account is gone.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0))]
    pub async fn update_profile(
        &self,
        current: &Actor,
        username: &str,
        email: Option<&str>,
    ) -> Result<Profile, AppError> {
        let username = Username::parse(username)?;
        let existing = self.users.find_by_id(current.id).await.map_err(account_gone)?;
        let email = match email {
            Some(raw) => Email::parse(raw)?,
            None => existing.email.clone(),
        };
        let renamed = username.as_str() != existing.username.as_str();
        let changed_at = if renamed { self.clock.now() } else { existing.credentials_changed_at };
        let updated =
            self.users.update_profile(current.id, &username, &email, changed_at).await.map_err(|err| match err {
                RepoError::Conflict(Unique::Username) => AppError::Conflict(Conflict::UsernameTaken),
                RepoError::Conflict(Unique::Email) => AppError::Conflict(Conflict::EmailTaken),
                RepoError::NotFound => account_gone(RepoError::NotFound),
                other => AppError::from_repo(other),
            })?;
        if renamed {
            tracing::info!(from = %existing.username, to = %updated.username, "username changed");
        }
        Ok(Profile {
            has_password: updated.password_hash != PasswordHash::unusable(),
            username: updated.username.into_inner(),
            email: updated.email.as_str().to_owned(),
        })
    }
}

pub(super) fn account_gone(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::Unauthorized("Your account no longer exists".into()),
        other => AppError::from_repo(other),
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::user::{Role, UserId, Username};
    use gifshelf_domain::{RepoError, Unique};

    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::{Actor, AuthConfig};
    use crate::{AppError, Conflict};

    fn alice() -> Actor {
        Actor::session(UserId(7), Username::from_trusted("alice".into()), Role::User)
    }

    #[tokio::test]
    async fn rename_moves_the_credentials_change_instant_so_old_tokens_die() {
        let mut m = Mocks::new(at(12, 0, 0));
        m.users.expect_find_by_id().returning(|_| Ok(user("alice", Role::User)));
        m.users
            .expect_update_profile()
            .withf(|_, name, email, changed| {
                name.as_str() == "alice2" && email.as_str() == "alice@example.com" && *changed == at(12, 0, 0)
            })
            .returning(|_, name, email, _| {
                let mut u = user("x", Role::User);
                u.username = name.clone();
                u.email = email.clone();
                Ok(u)
            });
        let profile = m.service(AuthConfig::default()).update_profile(&alice(), " alice2 ", None).await;
        assert_eq!(profile.map(|p| p.username).ok().as_deref(), Some("alice2"));
    }

    #[tokio::test]
    async fn unchanged_username_keeps_sessions() {
        let mut m = Mocks::new(at(12, 0, 0));
        m.users.expect_find_by_id().returning(|_| Ok(user("alice", Role::User)));
        m.users
            .expect_update_profile()
            .withf(|_, _, email, changed| email.as_str() == "new@example.com" && *changed == at(9, 0, 0))
            .returning(|_, _, _, _| Ok(user("alice", Role::User)));
        let result = m.service(AuthConfig::default()).update_profile(&alice(), "alice", Some("new@example.com")).await;
        assert!(result.is_ok());
    }

    #[tokio::test]
    async fn settings_rules_and_conflicts() {
        let m = Mocks::new(at(12, 0, 0));
        let err = m.service(AuthConfig::default()).update_profile(&alice(), "ab", None).await.err();
        assert!(matches!(&err, Some(AppError::Validation(v)) if v.field == "username"), "{err:?}");

        let mut m = Mocks::new(at(12, 0, 0));
        m.users.expect_find_by_id().returning(|_| Ok(user("alice", Role::User)));
        m.users.expect_update_profile().returning(|_, _, _, _| Err(RepoError::Conflict(Unique::Username)));
        let err = m.service(AuthConfig::default()).update_profile(&alice(), "bob", None).await.err();
        assert!(matches!(&err, Some(AppError::Conflict(Conflict::UsernameTaken))), "{err:?}");

        let mut m = Mocks::new(at(12, 0, 0));
        m.users.expect_find_by_id().returning(|_| Ok(user("alice", Role::User)));
        let err = m.service(AuthConfig::default()).update_profile(&alice(), "alice", Some("not-an-email")).await.err();
        assert!(matches!(&err, Some(AppError::Validation(v)) if v.field == "email"), "{err:?}");
    }
}
