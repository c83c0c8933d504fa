use std::net::IpAddr;

use gifshelf_domain::user::{NewUser, Registration, Role, User};
use gifshelf_domain::{RepoError, Unique};

use super::throttle::address_key;
use super::{AuthService, StoreError};
use crate::{AppError, Conflict};

impl AuthService {
    /// Creates an account. Registration does not sign in (spec §4). The first account on a fresh
    /// server becomes an admin.
    ///
    /// A client address registers a bounded number of accounts per window, and a taken username or
    /// email is refused before any password is hashed: a flood of registrations costs the server
    /// little, and bcrypt runs only for accounts that can be created.
    ///
    /// # Errors
    /// `TooManyRegistrations` past the address's allowance; `Refused` when the registration policy
    /// does not let the account in (`invite`: an invitation token); `Conflict` when the username or email is
    /// taken; `Unavailable` when hashing is saturated; `Internal` when hashing or storage fails.
    #[tracing::instrument(skip_all, fields(username = %registration.username))]
    pub async fn register(
        &self,
        registration: Registration,
        invite: Option<&str>,
        client: Option<IpAddr>,
    ) -> Result<User, AppError> {
        if let Some(ip) = client {
            if let Err(retry_after_secs) = self.registrations.hit(&address_key(ip), self.clock.now()).await {
                tracing::warn!(?client, "registrations throttled");
                return Err(AppError::TooManyRegistrations { retry_after_secs });
            }
        }
        let taken = |what: Unique| match what {
            Unique::Email => AppError::Conflict(Conflict::EmailTaken),
            _ => AppError::Conflict(Conflict::UsernameTaken),
        };
        match self.users.find_by_username(registration.username.as_str()).await {
            Ok(_) => return Err(taken(Unique::Username)),
            Err(RepoError::NotFound) => {}
            Err(other) => return Err(AppError::from_repo(other)),
        }
        match self.users.find_by_email(&registration.email).await {
            Ok(_) => return Err(taken(Unique::Email)),
            Err(RepoError::NotFound) => {}
            Err(other) => return Err(AppError::from_repo(other)),
        }
        let ticket = self.ticket(&registration.email, None, invite).await?;
        let password_hash = self.hasher.hash(registration.password.expose()).await?;
        let new_user = NewUser {
            username: registration.username,
            email: registration.email,
            password_hash,
            role: Role::User,
            created_at: self.clock.now(),
        };
        // Two registrations racing for a name both pass the checks above; the database decides.
        let user = self.store_account(new_user, None, ticket).await.map_err(|err| match err {
            StoreError::Refused(refusal) => AppError::Refused(refusal),
            StoreError::Repo(RepoError::Conflict(what @ (Unique::Username | Unique::Email))) => taken(what),
            StoreError::Repo(other) => AppError::from_repo(other),
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
    use crate::{AppError, Conflict};

    fn registration() -> Registration {
        Registration::parse("alice", "Alice@Example.com", "secret1", "secret1").unwrap_or_else(|e| panic!("{e}"))
    }

    /// Neither the name nor the email is taken yet.
    fn free(m: &mut Mocks) {
        m.users.expect_find_by_username().returning(|_| Err(RepoError::NotFound));
        m.users.expect_find_by_email().returning(|_| Err(RepoError::NotFound));
    }

    #[tokio::test]
    async fn stores_the_hash_never_the_password_and_asks_for_first_user_admin() {
        let mut m = Mocks::new(at(10, 0, 0));
        free(&mut m);
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
        let created = m.service(AuthConfig::default()).register(registration(), None, None).await;
        assert_eq!(created.map(|u| u.role).ok(), Some(Role::Admin));
    }

    #[tokio::test]
    async fn first_user_rule_can_be_turned_off() {
        let mut m = Mocks::new(at(10, 0, 0));
        free(&mut m);
        m.hasher.expect_hash().returning(|_| Ok(PasswordHash("h".into())));
        m.users.expect_create().withf(|_, first_admin| !*first_admin).returning(|_, _| Ok(user("alice", Role::User)));
        let config = AuthConfig { first_user_is_admin: false, ..AuthConfig::default() };
        assert!(m.service(config).register(registration(), None, None).await.is_ok());
    }

    #[tokio::test]
    async fn taken_username_and_email_are_conflicts_with_clear_messages() {
        for (what, message) in
            [(Unique::Username, "Username is already taken"), (Unique::Email, "Email is already registered")]
        {
            // Taken between the check and the insert (two registrations racing).
            let mut m = Mocks::new(at(10, 0, 0));
            free(&mut m);
            m.hasher.expect_hash().returning(|_| Ok(PasswordHash("h".into())));
            m.users.expect_create().returning(move |_, _| Err(RepoError::Conflict(what)));
            let err = m.service(AuthConfig::default()).register(registration(), None, None).await.err();
            assert_eq!(err.map(|e| e.to_string()).as_deref(), Some(message));
        }
    }

    #[tokio::test]
    async fn a_taken_name_or_email_is_refused_before_any_hashing() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_find_by_username().returning(|_| Ok(user("alice", Role::User)));
        m.hasher.expect_hash().never();
        m.users.expect_create().never();
        let err = m.service(AuthConfig::default()).register(registration(), None, None).await.err();
        assert!(matches!(&err, Some(AppError::Conflict(Conflict::UsernameTaken))), "{err:?}");

        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_find_by_username().returning(|_| Err(RepoError::NotFound));
        m.users.expect_find_by_email().returning(|_| Ok(user("someone", Role::User)));
        m.hasher.expect_hash().never();
        let err = m.service(AuthConfig::default()).register(registration(), None, None).await.err();
        assert!(matches!(&err, Some(AppError::Conflict(Conflict::EmailTaken))), "{err:?}");
    }

    #[tokio::test]
    async fn one_address_registers_a_bounded_number_of_accounts() {
        let mut m = Mocks::new(at(10, 0, 0));
        free(&mut m);
        m.hasher.expect_hash().times(2).returning(|_| Ok(PasswordHash("h".into())));
        m.users.expect_create().times(2).returning(|_, _| Ok(user("alice", Role::User)));
        let config = AuthConfig { registrations_per_address: 2, ..AuthConfig::default() };
        let service = m.service(config);
        let ip: std::net::IpAddr = [203, 0, 113, 9].into();
        for _ in 0..2 {
            assert!(service.register(registration(), None, Some(ip)).await.is_ok());
        }
        let third = service.register(registration(), None, Some(ip)).await;
        assert!(matches!(third, Err(AppError::TooManyRegistrations { retry_after_secs: 600 })), "{third:?}");
        let message = third.map(drop).err().map(|e| e.to_string());
        assert_eq!(
            message.as_deref(),
            Some("Too many accounts were registered from this address. Try again in 10 minutes.")
        );
    }
}
