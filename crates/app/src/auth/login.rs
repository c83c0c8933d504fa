use std::net::IpAddr;

use gifshelf_domain::user::PasswordHash;
use gifshelf_domain::RepoError;

use super::AuthService;
use crate::AppError;

/// The one answer for an unknown user and a wrong password, so neither can be told apart.
pub const INVALID_CREDENTIALS: &str = "Invalid username or password";

impl AuthService {
    /// Checks a username and password and issues a session token.
    ///
    /// # Errors
    /// `TooManyRequests` while the account or the address is throttled; `Unauthorized` with the same
    /// message for an unknown user and a wrong password.
    #[tracing::instrument(skip_all, fields(username = %loggable(username)))]
    pub async fn login(&self, username: &str, password: &str, client: Option<IpAddr>) -> Result<String, AppError> {
        // Counted before the password is checked, so parallel guesses cannot pass the limit.
        if let Err(retry_after_secs) = self.throttle.begin(username, client, self.clock.now()).await {
            tracing::warn!(?client, "login throttled");
            return Err(AppError::TooManyRequests { retry_after_secs });
        }
        let user = match self.users.find_by_username(username.trim()).await {
            Ok(user) => Some(user),
            Err(RepoError::NotFound) => None,
            Err(other) => return Err(AppError::from_repo(other)),
        };
        let verified = match &user {
            // An account made by a third-party sign-in has no password: refused after the same
            // work as a wrong one, so the time does not tell such accounts apart.
            Some(user) if user.password_hash == PasswordHash::unusable() => {
                self.hasher.verify_dummy(password).await?;
                false
            }
            Some(user) => self.hasher.verify(password, &user.password_hash).await?,
            None => {
                self.hasher.verify_dummy(password).await?;
                false
            }
        };
        match user {
            Some(user) if verified && user.disabled_at.is_some() => {
                self.throttle.succeeded(username, client).await;
                tracing::info!(user_id = user.id.0, "refused the sign-in of a disabled account");
                Err(AppError::SignInDisabled)
            }
            Some(user) if verified => {
                self.throttle.succeeded(username, client).await;
                tracing::info!(user_id = user.id.0, "signed in");
                self.issue_token(&user.username, user.role)
            }
            _ => {
                tracing::info!(?client, "failed login");
                Err(AppError::Unauthorized(INVALID_CREDENTIALS.into()))
            }
        }
    }
}

/// A typed username as the log may show it: at most 32 characters, control characters and quotes
/// escaped, so that no input can forge log lines or fill the log.
fn loggable(username: &str) -> String {
    let shown: String = username.chars().take(32).collect();
    let more = if username.chars().nth(32).is_some() { "…" } else { "" };
    format!("{}{more}", shown.escape_debug())
}

#[cfg(test)]
mod tests {
    use chrono::Duration;
    use gifshelf_domain::user::{PasswordHash, Role};
    use gifshelf_domain::RepoError;

    use super::{loggable, INVALID_CREDENTIALS};
    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::{AuthConfig, ThrottleConfig};
    use crate::AppError;

    #[tokio::test]
    async fn right_password_issues_a_token_with_the_stored_role() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_find_by_username().returning(|_| Ok(user("alice", Role::Admin)));
        m.hasher.expect_verify().returning(|p, _| Ok(p == "secret1"));
        m.tokens
            .expect_issue()
            .withf(|c| {
                c.username == "alice"
                    && c.role == Role::Admin
                    && c.issued_at == at(10, 0, 0).and_utc().timestamp()
                    && c.expires_at == c.issued_at + 24 * 3600
            })
            .returning(|_| Ok("signed".into()));
        let token = m.service(AuthConfig::default()).login("alice", "secret1", None).await;
        assert_eq!(token.ok().as_deref(), Some("signed"));
    }

    #[tokio::test]
    async fn a_disabled_account_is_told_so_only_with_the_right_password() {
        for (password, disabled) in [("secret1", true), ("wrong12", false)] {
            let mut m = Mocks::new(at(10, 0, 0));
            m.users.expect_find_by_username().returning(|_| {
                let mut u = user("alice", Role::User);
                u.disabled_at = Some(at(9, 0, 0));
                Ok(u)
            });
            m.hasher.expect_verify().returning(|p, _| Ok(p == "secret1"));
            m.tokens.expect_issue().never();
            let got = m.service(AuthConfig::default()).login("alice", password, None).await;
            assert_eq!(matches!(got, Err(AppError::SignInDisabled)), disabled);
            assert_eq!(matches!(got, Err(AppError::Unauthorized(_))), !disabled);
        }
    }

    #[tokio::test]
    async fn unknown_user_and_wrong_password_look_the_same() {
        let mut unknown = Mocks::new(at(10, 0, 0));
        unknown.users.expect_find_by_username().returning(|_| Err(RepoError::NotFound));
        unknown.hasher.expect_verify_dummy().times(1).returning(|_| Ok(()));
        let a = unknown.service(AuthConfig::default()).login("nobody", "secret1", None).await.err();

        let mut wrong = Mocks::new(at(10, 0, 0));
        wrong.users.expect_find_by_username().returning(|_| Ok(user("alice", Role::User)));
        wrong.hasher.expect_verify().times(1).returning(|_, _| Ok(false));
        let b = wrong.service(AuthConfig::default()).login("alice", "wrong!", None).await.err();

        for err in [a, b] {
            assert!(matches!(&err, Some(AppError::Unauthorized(m)) if m == INVALID_CREDENTIALS), "{err:?}");
        }
    }

    #[tokio::test]
    async fn repeated_failures_are_throttled_without_checking_the_password() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_find_by_username().times(2).returning(|_| Ok(user("alice", Role::User)));
        m.hasher.expect_verify().times(2).returning(|_, _| Ok(false));
        let config = AuthConfig {
            throttle: ThrottleConfig {
                account_max_failures: 2,
                account_lockout: Duration::seconds(30),
                ..ThrottleConfig::default()
            },
            ..AuthConfig::default()
        };
        let service = m.service(config);
        for _ in 0..2 {
            assert!(matches!(service.login("alice", "bad", None).await, Err(AppError::Unauthorized(_))));
        }
        // Locked: the store and the hasher are not asked again (`times(2)` above).
        let third = service.login("ALICE", "secret1", None).await;
        assert!(matches!(third, Err(AppError::TooManyRequests { retry_after_secs: 30 })), "{third:?}");
    }

    #[test]
    fn typed_usernames_are_logged_escaped_and_bounded() {
        assert_eq!(loggable("alice"), "alice");
        assert_eq!(loggable("eve\nINFO forged line"), "eve\\nINFO forged line");
        assert_eq!(loggable(&"x".repeat(1000)).chars().count(), 33);
    }

    #[tokio::test]
    async fn an_account_without_a_password_is_refused_after_the_same_work() {
        let mut m = Mocks::new(at(10, 0, 0));
        let mut google_only = user("grace", Role::User);
        google_only.password_hash = PasswordHash::unusable();
        m.users.expect_find_by_username().returning(move |_| Ok(google_only.clone()));
        m.hasher.expect_verify().times(0);
        m.hasher.expect_verify_dummy().times(1).returning(|_| Ok(()));
        let err = m.service(AuthConfig::default()).login("grace", "anything", None).await.err();
        assert!(matches!(&err, Some(AppError::Unauthorized(m)) if m == INVALID_CREDENTIALS), "{err:?}");
    }

    #[tokio::test]
    async fn a_saturated_hasher_is_a_retryable_unavailable_not_a_wrong_password() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_find_by_username().returning(|_| Ok(user("alice", Role::User)));
        m.hasher.expect_verify().returning(|_, _| Err(gifshelf_domain::ports::HashError::Busy));
        let err = m.service(AuthConfig::default()).login("alice", "secret1", None).await.err();
        assert!(matches!(err, Some(AppError::Unavailable(_))), "{err:?}");
    }
}
