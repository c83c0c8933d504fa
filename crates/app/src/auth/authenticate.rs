use gifshelf_domain::member::should_touch_last_seen;
use gifshelf_domain::ports::TokenError;
use gifshelf_domain::RepoError;

use super::session_cache::REUSE_FOR;
use super::{Actor, AuthService};
use crate::AppError;

impl AuthService {
    /// Turns a bearer token into the user it acts for. The token must be valid and the user must
    /// still exist under the same name, and must not have changed credentials since it was issued.
    /// The role comes from the database, not from the token.
    ///
    /// # Errors
    /// `TokenExpired` for an expired token, `AccountDisabled` for a disabled account's,
    /// `Unauthorized` for every other refusal.
    pub async fn authenticate(&self, token: &str) -> Result<Actor, AppError> {
        let now = self.clock.now();
        let generation = self.sessions.as_ref().and_then(|cache| cache.generation());
        if let (Some(cache), Some(generation)) = (&self.sessions, generation) {
            if let Some(actor) = cache.get(token, generation, now) {
                return Ok(actor);
            }
        }
        let claims = self.tokens.verify(token).map_err(|err| match err {
            TokenError::Expired => AppError::TokenExpired,
            TokenError::Invalid => AppError::Unauthorized("Invalid token".into()),
        })?;
        let refused = || AppError::Unauthorized("Invalid token".into());
        let user = match self.users.find_by_username(&claims.username).await {
            Ok(user) => user,
            Err(RepoError::NotFound) => return Err(refused()),
            Err(other) => return Err(AppError::from_repo(other)),
        };
        // Seconds resolution, like `iat`: a token issued in the same second as the change stays valid.
        let changed = user.credentials_changed_at.and_utc().timestamp();
        let created = user.created_at.and_utc().timestamp();
        if user.username.as_str() != claims.username || claims.issued_at < changed || claims.issued_at < created {
            tracing::info!(user_id = user.id.0, "refused a token issued before the account's last change");
            return Err(refused());
        }
        if user.disabled_at.is_some() {
            tracing::info!(user_id = user.id.0, "refused a token of a disabled account");
            return Err(AppError::AccountDisabled);
        }
        if should_touch_last_seen(user.last_seen_at, now) {
            if let Err(err) = self.users.touch_last_seen(user.id, now).await {
                tracing::warn!(user_id = user.id.0, error = %err, "could not record when an account was seen");
            }
        }
        let actor = Actor::session(user.id, user.username, user.role);
        if let (Some(cache), Some(generation)) = (&self.sessions, generation) {
            let expires = chrono::DateTime::from_timestamp(claims.expires_at, 0).map(|at| at.naive_utc());
            let until = expires.map_or(now, |expires| expires.min(now + REUSE_FOR));
            cache.put(token, &actor, generation, now, until);
        }
        Ok(actor)
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::auth::SessionClaims;
    use gifshelf_domain::ports::TokenError;
    use gifshelf_domain::user::{Role, Username};
    use gifshelf_domain::RepoError;

    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::AuthConfig;
    use crate::AppError;

    fn claims(username: &str, issued: chrono::NaiveDateTime) -> SessionClaims {
        let issued_at = issued.and_utc().timestamp();
        SessionClaims { username: username.into(), role: Role::Admin, issued_at, expires_at: issued_at + 3600 }
    }

    #[tokio::test]
    async fn valid_token_gives_the_stored_role_not_the_claimed_one() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.tokens.expect_verify().returning(|_| Ok(claims("alice", at(9, 30, 0))));
        m.users.expect_find_by_username().returning(|_| Ok(user("alice", Role::User)));
        let current = m.service(AuthConfig::default()).authenticate("t").await;
        assert_eq!(
            current.map(|c| (c.username, c.role)).ok(),
            Some((Username::from_trusted("alice".into()), Role::User))
        );
    }

    #[tokio::test]
    async fn renamed_or_deleted_user_is_refused() {
        // The account was renamed: the old name is not found.
        let mut gone = Mocks::new(at(10, 0, 0));
        gone.tokens.expect_verify().returning(|_| Ok(claims("alice", at(9, 30, 0))));
        gone.users.expect_find_by_username().returning(|_| Err(RepoError::NotFound));
        assert!(matches!(gone.service(AuthConfig::default()).authenticate("t").await, Err(AppError::Unauthorized(_))));

        // Someone else registered the old name afterwards: their account is newer than the token.
        let mut reused = Mocks::new(at(10, 0, 0));
        reused.tokens.expect_verify().returning(|_| Ok(claims("alice", at(9, 30, 0))));
        reused.users.expect_find_by_username().returning(|_| {
            let mut u = user("alice", Role::User);
            u.created_at = at(9, 45, 0);
            u.credentials_changed_at = at(9, 45, 0);
            Ok(u)
        });
        assert!(matches!(
            reused.service(AuthConfig::default()).authenticate("t").await,
            Err(AppError::Unauthorized(_))
        ));

        // Renamed only in case ("Alice" -> "alice") still counts as renamed.
        let mut case = Mocks::new(at(10, 0, 0));
        case.tokens.expect_verify().returning(|_| Ok(claims("Alice", at(9, 30, 0))));
        case.users.expect_find_by_username().returning(|_| Ok(user("alice", Role::User)));
        assert!(matches!(case.service(AuthConfig::default()).authenticate("t").await, Err(AppError::Unauthorized(_))));
    }

    #[tokio::test]
    async fn token_issued_before_a_password_change_is_refused() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.tokens.expect_verify().returning(|_| Ok(claims("alice", at(9, 30, 0))));
        m.users.expect_find_by_username().returning(|_| {
            let mut u = user("alice", Role::User);
            u.credentials_changed_at = at(9, 31, 0);
            Ok(u)
        });
        assert!(matches!(m.service(AuthConfig::default()).authenticate("t").await, Err(AppError::Unauthorized(_))));
    }

    #[tokio::test]
    async fn a_disabled_account_s_valid_token_is_account_disabled() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.tokens.expect_verify().returning(|_| Ok(claims("alice", at(9, 30, 0))));
        m.users.expect_find_by_username().returning(|_| {
            let mut u = user("alice", Role::User);
            u.disabled_at = Some(at(9, 40, 0));
            Ok(u)
        });
        m.users.expect_touch_last_seen().never();
        assert!(matches!(m.service(AuthConfig::default()).authenticate("t").await, Err(AppError::AccountDisabled)));
    }

    #[tokio::test]
    async fn last_seen_is_written_at_most_hourly() {
        for (seen, writes) in [(Some(at(9, 30, 0)), 0), (Some(at(8, 59, 0)), 1), (None, 1)] {
            let mut m = Mocks::new(at(10, 0, 0));
            m.tokens.expect_verify().returning(|_| Ok(claims("alice", at(9, 30, 0))));
            m.users.expect_find_by_username().returning(move |_| {
                let mut u = user("alice", Role::User);
                u.last_seen_at = seen;
                Ok(u)
            });
            m.users
                .expect_touch_last_seen()
                .withf(|_, now| *now == at(10, 0, 0))
                .times(writes)
                .returning(|_, _| Ok(()));
            assert!(m.service(AuthConfig::default()).authenticate("t").await.is_ok());
        }
    }

    #[tokio::test]
    async fn expired_and_invalid_tokens_are_told_apart() {
        for (err, expired) in [(TokenError::Expired, true), (TokenError::Invalid, false)] {
            let mut m = Mocks::new(at(10, 0, 0));
            m.tokens.expect_verify().returning(move |_| Err(err.clone()));
            let got = m.service(AuthConfig::default()).authenticate("t").await;
            assert_eq!(matches!(got, Err(AppError::TokenExpired)), expired);
            assert_eq!(matches!(got, Err(AppError::Unauthorized(_))), !expired);
        }
    }
}
