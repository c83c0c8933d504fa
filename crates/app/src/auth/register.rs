use gifshelf_domain::user::{NewUser, Registration, Role, User};
use gifshelf_domain::{RepoError, Unique};

use super::AuthService;
use crate::AppError;

impl AuthService {
    /// Creates an account. Registration does not sign in (spec §4). The first account on a fresh
    /// server becomes an admin.
    ///
    /// # Errors
    /// `Conflict` when the username or email is taken; `Internal` when hashing or storage fails.
    #[tracing::instrument(skip_all, fields(username = %registration.username))]
    pub async fn register(&self, registration: Registration) -> Result<User, AppError> {
        let password_hash = self.hasher.hash(registration.password.expose()).await?;
        let new_user = NewUser {
            username: registration.username,
            email: registration.email,
            password_hash,
            role: Role::User,
            created_at: self.clock.now(),
        };
        let user = self.users.create(new_user, self.config.first_user_is_admin).await.map_err(|err| match err {
            RepoError::Conflict(Unique::Username) => AppError::Conflict("Username is already taken".into()),
            RepoError::Conflict(Unique::Email) => AppError::Conflict("Email is already registered".into()),
            other => AppError::from_repo(other),
        })?;
        tracing::info!(user_id = user.id.0, role = user.role.as_str(), "account created");
        Ok(user)
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::user::{PasswordHash, Registration, Role};
    use gifshelf_domain::{RepoError, Unique};
    use mockall::predicate::eq;

    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::AuthConfig;
    use crate::AppError;

    fn registration() -> Registration {
        Registration::parse("alice", "Alice@Example.com", "secret1", "secret1").unwrap_or_else(|e| panic!("{e}"))
    }

    #[tokio::test]
    async fn stores_the_hash_never_the_password_and_asks_for_first_user_admin() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.hasher.expect_hash().with(eq("secret1")).returning(|_| Ok(PasswordHash("bcrypt$secret1".into())));
        m.users
            .expect_create()
            .withf(|u, first_admin| {
                u.username.as_str() == "alice"
                    && u.email.as_str() == "alice@example.com"
                    && u.password_hash.0 == "bcrypt$secret1"
                    && u.role == Role::User
                    && *first_admin
            })
            .returning(|_, _| Ok(user("alice", Role::Admin)));
        let created = m.service(AuthConfig::default()).register(registration()).await;
        assert_eq!(created.map(|u| u.role).ok(), Some(Role::Admin));
    }

    #[tokio::test]
    async fn first_user_rule_can_be_turned_off() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.hasher.expect_hash().returning(|_| Ok(PasswordHash("h".into())));
        m.users.expect_create().withf(|_, first_admin| !*first_admin).returning(|_, _| Ok(user("alice", Role::User)));
        let config = AuthConfig { first_user_is_admin: false, ..AuthConfig::default() };
        assert!(m.service(config).register(registration()).await.is_ok());
    }

    #[tokio::test]
    async fn taken_username_and_email_are_conflicts_with_clear_messages() {
        for (what, message) in
            [(Unique::Username, "Username is already taken"), (Unique::Email, "Email is already registered")]
        {
            let mut m = Mocks::new(at(10, 0, 0));
            m.hasher.expect_hash().returning(|_| Ok(PasswordHash("h".into())));
            m.users.expect_create().returning(move |_, _| Err(RepoError::Conflict(what)));
            let err = m.service(AuthConfig::default()).register(registration()).await.err();
            assert!(matches!(&err, Some(AppError::Conflict(m)) if m == message), "{err:?}");
        }
    }
}
