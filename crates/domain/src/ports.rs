//! Ports: the traits through which use cases reach the outside world. Adapters implement them;
//! `app` tests mock them (feature `mock`).

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::auth::Claims;
use crate::user::{Email, NewUser, PasswordHash, Role, User, UserId, Username};
use crate::RepoError;

/// Accounts.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait UserRepository: Send + Sync {
    /// Stores a new account. The first account ever stored gets `Role::Admin` whatever `user.role`
    /// says when `first_becomes_admin` is true; deciding that atomically is the adapter's job.
    ///
    /// # Errors
    /// `Conflict("username")` or `Conflict("email")` when either is taken (case-insensitively).
    async fn create(&self, user: NewUser, first_becomes_admin: bool) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this username (compared case-insensitively).
    async fn find_by_username(&self, username: &str) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this id.
    async fn find_by_id(&self, id: UserId) -> Result<User, RepoError>;

    /// Changes username and email; `changed_at` becomes the credentials change instant when the
    /// username changes (old tokens name the old user).
    ///
    /// # Errors
    /// `NotFound`, or `Conflict("username" | "email")`.
    async fn update_profile(
        &self,
        id: UserId,
        username: &Username,
        email: &Email,
        changed_at: NaiveDateTime,
    ) -> Result<User, RepoError>;

    /// Stores a new password hash; tokens issued before `changed_at` stop working.
    ///
    /// # Errors
    /// `NotFound` when no account has this id.
    async fn update_password(
        &self,
        id: UserId,
        hash: &PasswordHash,
        changed_at: NaiveDateTime,
    ) -> Result<(), RepoError>;

    /// # Errors
    /// `NotFound` when no account has this username.
    async fn set_role(&self, username: &str, role: Role) -> Result<User, RepoError>;

    /// Whether the database answers at all (health checks).
    ///
    /// # Errors
    /// `Unavailable` when it does not.
    async fn ping(&self) -> Result<(), RepoError>;
}

/// Password hashing (bcrypt in production). Slow on purpose: adapters run it off the async executor.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait PasswordHasher: Send + Sync {
    /// # Errors
    /// A message when hashing itself fails (never for a valid `Password`).
    async fn hash(&self, password: &str) -> Result<PasswordHash, String>;
    /// Whether `password` matches `hash`. A malformed hash is simply "no".
    async fn verify(&self, password: &str, hash: &PasswordHash) -> bool;
    /// Spends about the time of one `verify`, so that an unknown user and a wrong password take as long.
    async fn verify_dummy(&self, password: &str);
}

/// Why a token was refused. The distinction is for logs and the client's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("Token expired")]
    Expired,
    #[error("Invalid token")]
    Invalid,
}

/// Signs and checks session tokens.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait TokenService: Send + Sync {
    /// # Errors
    /// A message when signing fails.
    fn issue(&self, claims: &Claims) -> Result<String, String>;
    /// # Errors
    /// `Expired` or `Invalid` (bad signature, wrong algorithm, malformed claims).
    fn verify(&self, token: &str) -> Result<Claims, TokenError>;
}

/// The time, injectable for tests. UTC.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait Clock: Send + Sync {
    fn now(&self) -> NaiveDateTime;
}
