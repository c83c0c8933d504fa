//! Accounts and sessions: register, log in, authenticate a token.

mod authenticate;
mod external;
mod identities;
mod login;
mod register;
mod session_cache;
mod shared_throttle;
mod throttle;

use std::sync::Arc;

use gifshelf_domain::auth::ExternalIdentity;
use gifshelf_domain::join::AdmitError;
use gifshelf_domain::ports::{
    AccountChanges, Clock, IdentityVerifier, PasswordHasher, SharedCounters, TokenService, UserRepository,
};
use gifshelf_domain::user::{Email, NewUser, Role, User, UserId, Username};
use gifshelf_domain::RepoError;

pub use external::{GOOGLE_LOGIN_FAILED, GOOGLE_NOT_CONFIGURED, NO_LINKED_ACCOUNT};
pub(crate) use throttle::address_key;
pub use throttle::{LoginThrottle, ThrottleConfig};

use crate::join::{JoinService, Refusal, Ticket};
use crate::rate_limit::SharedRateLimiter;

/// Why `store_account` stored nothing.
#[derive(Debug)]
pub(crate) enum StoreError {
    Refused(Refusal),
    Repo(RepoError),
}

/// How a caller proved who they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    /// A session token from signing in (the bearer header, or the session cookie for media).
    Session,
}

/// Who acts in a request and through what: the account, as the database knows it now (not as a
/// token said), and the credential that opened it. Use cases take an `Actor`, never a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: UserId,
    pub username: Username,
    pub role: Role,
    pub via: Credential,
    /// The client's address, when the request came over the network (for the audit log).
    pub from: Option<std::net::IpAddr>,
}

impl Actor {
    /// A signed-in session of this account.
    pub fn session(id: UserId, username: Username, role: Role) -> Self {
        Self { id, username, role, via: Credential::Session, from: None }
    }

    /// The same actor, acting from `address`.
    #[must_use]
    pub fn from_address(self, address: Option<std::net::IpAddr>) -> Self {
        Self { from: address, ..self }
    }

    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }

    /// # Errors
    /// `Forbidden` with the spec's sentence unless the account is an admin.
    pub fn require_admin(&self) -> Result<(), crate::AppError> {
        if self.is_admin() {
            Ok(())
        } else {
            Err(crate::AppError::Forbidden("This needs an administrator account.".into()))
        }
    }
}

/// Settings of the auth use cases.
#[derive(Debug, Clone)]
pub struct AuthConfig {
    /// How long a session token lives.
    pub token_ttl: chrono::Duration,
    /// Whether the first account on a fresh server becomes an admin (product.md §10).
    pub first_user_is_admin: bool,
    pub throttle: ThrottleConfig,
    /// At most this many registrations per client address (IPv6: per /64) …
    pub registrations_per_address: u32,
    /// … within this window.
    pub registration_window: chrono::Duration,
    /// Whether a first sign-in through a provider creates an account (else only linked accounts
    /// sign in that way).
    pub external_signup: bool,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            token_ttl: chrono::Duration::hours(24),
            first_user_is_admin: true,
            throttle: ThrottleConfig::default(),
            registrations_per_address: 20,
            registration_window: chrono::Duration::minutes(10),
            external_signup: true,
        }
    }
}

/// The auth use cases with their ports.
pub struct AuthService {
    pub(crate) users: Arc<dyn UserRepository>,
    pub(crate) hasher: Arc<dyn PasswordHasher>,
    pub(crate) tokens: Arc<dyn TokenService>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Third-party sign-in; `None` when no client id is configured.
    identities: Option<Arc<dyn IdentityVerifier>>,
    pub(crate) throttle: shared_throttle::Throttle,
    registrations: SharedRateLimiter<std::net::IpAddr>,
    config: AuthConfig,
    /// Who may join; `None`: anyone (open registration, any domain).
    join: Option<Arc<JoinService>>,
    /// Where password changes are recorded.
    pub(crate) audit: Option<crate::audit::Audit>,
    /// Recent session checks, reused until an account changes; `None`: every check reads the account.
    sessions: Option<session_cache::SessionCache>,
}

impl AuthService {
    pub fn new(
        users: Arc<dyn UserRepository>,
        hasher: Arc<dyn PasswordHasher>,
        tokens: Arc<dyn TokenService>,
        clock: Arc<dyn Clock>,
        config: AuthConfig,
    ) -> Self {
        Self {
            throttle: shared_throttle::Throttle::new(LoginThrottle::new(config.throttle.clone())),
            registrations: SharedRateLimiter::local(config.registrations_per_address, config.registration_window),
            users,
            hasher,
            tokens,
            clock,
            identities: None,
            config,
            join: None,
            audit: None,
            sessions: None,
        }
    }

    /// Reuses a session check for a few seconds (30 at most) while
    /// `changes` says no account changed.
    #[must_use]
    pub fn with_session_cache(mut self, changes: Arc<dyn AccountChanges>) -> Self {
        self.sessions = Some(session_cache::SessionCache::new(changes));
        self
    }

    /// Counts failed logins and registrations in `counters`, shared by every instance
    /// (PostgreSQL), so several instances throttle as one.
    #[must_use]
    pub fn with_shared_limits(self, counters: Arc<dyn SharedCounters>) -> Self {
        Self {
            throttle: self.throttle.shared_in(counters.clone()),
            registrations: self.registrations.shared_in(counters, "register"),
            ..self
        }
    }

    /// Records password changes in the audit log.
    #[must_use]
    pub fn with_audit(mut self, audit: crate::audit::Audit) -> Self {
        self.audit = Some(audit);
        self
    }

    /// Enables sign-in with a third-party provider's ID tokens.
    #[must_use]
    pub fn with_identity_verifier(mut self, verifier: Arc<dyn IdentityVerifier>) -> Self {
        self.identities = Some(verifier);
        self
    }

    /// Applies a registration policy to registration and first third-party sign-ins.
    #[must_use]
    pub fn with_join(mut self, join: Arc<JoinService>) -> Self {
        self.join = Some(join);
        self
    }

    /// How an account for `email` may be stored (open when no policy applies).
    pub(crate) async fn ticket(
        &self,
        email: &Email,
        hosted_domain: Option<&str>,
        invite: Option<&str>,
    ) -> Result<Ticket, crate::AppError> {
        match &self.join {
            Some(join) => join.ticket(email, hosted_domain, invite).await,
            None => Ok(Ticket::Open),
        }
    }

    /// Stores a new account (linking `identity` when given) as the ticket allows: an invitation's
    /// role is the account's, and its use is taken in the same transaction.
    pub(crate) async fn store_account(
        &self,
        mut user: NewUser,
        identity: Option<&ExternalIdentity>,
        ticket: Ticket,
    ) -> Result<User, StoreError> {
        let first = self.config.first_user_is_admin;
        match (ticket, &self.join) {
            (Ticket::Admitted { admission, role, refusal }, Some(join)) => {
                user.role = role;
                join.repo().create_admitted(user, identity.cloned(), admission, first).await.map_err(|err| match err {
                    AdmitError::NotAdmitted => StoreError::Refused(refusal),
                    AdmitError::Repo(repo) => StoreError::Repo(repo),
                })
            }
            _ => match identity {
                Some(identity) => self.users.create_with_identity(user, identity, first).await,
                None => self.users.create(user, first).await,
            }
            .map_err(StoreError::Repo),
        }
    }

    /// Issues a session token for `user` as of now.
    pub(crate) fn issue_token(&self, username: &Username, role: Role) -> Result<String, crate::AppError> {
        let now = self.clock.now().and_utc().timestamp();
        let claims = gifshelf_domain::auth::SessionClaims {
            username: username.as_str().to_owned(),
            role,
            issued_at: now,
            expires_at: now + self.config.token_ttl.num_seconds(),
        };
        Ok(self.tokens.issue(&claims)?)
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use chrono::{NaiveDate, NaiveDateTime};
    use gifshelf_domain::ports::{MockClock, MockPasswordHasher, MockTokenService, MockUserRepository};
    use gifshelf_domain::user::{Email, PasswordHash, Role, User, UserId, Username};

    pub fn at(h: u32, m: u32, s: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 22).and_then(|d| d.and_hms_opt(h, m, s)).unwrap_or_default()
    }

    pub fn user(name: &str, role: Role) -> User {
        User {
            id: UserId(7),
            username: Username::from_trusted(name.to_owned()),
            email: Email::from_trusted(format!("{name}@example.com")),
            password_hash: PasswordHash("hash-of-secret".into()),
            role,
            created_at: at(9, 0, 0),
            credentials_changed_at: at(9, 0, 0),
            disabled_at: None,
            last_seen_at: Some(at(9, 30, 0)),
        }
    }

    pub struct Mocks {
        pub users: MockUserRepository,
        pub hasher: MockPasswordHasher,
        pub tokens: MockTokenService,
        pub clock: MockClock,
    }

    impl Mocks {
        pub fn new(now: NaiveDateTime) -> Self {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(now);
            Self {
                users: MockUserRepository::new(),
                hasher: MockPasswordHasher::new(),
                tokens: MockTokenService::new(),
                clock,
            }
        }

        pub fn service(self, config: super::AuthConfig) -> super::AuthService {
            super::AuthService::new(
                std::sync::Arc::new(self.users),
                std::sync::Arc::new(self.hasher),
                std::sync::Arc::new(self.tokens),
                std::sync::Arc::new(self.clock),
                config,
            )
        }
    }
}
