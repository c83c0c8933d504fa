//! Accounts and how people prove who they are: passwords, session tokens, third-party identities.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::auth::{ExternalIdentity, IdentityError, LinkedIdentity, SessionClaims};
use crate::user::{Email, NewUser, PasswordHash, Role, User, UserId, Username};
use crate::{Cause, RepoError};

/// Accounts.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait UserRepository: Send + Sync {
    /// Stores a new account. The first account ever stored gets `Role::Admin` whatever `user.role`
    /// says when `first_becomes_admin` is true; deciding that atomically is the adapter's job.
    ///
    /// # Errors
    /// `Conflict(Unique::Username)` or `Conflict(Unique::Email)` when either is taken (case-insensitively).
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
    /// `NotFound`, or `Conflict(Unique::Username | Unique::Email)`.
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

    /// The account an identity of a third-party provider is linked to.
    ///
    /// # Errors
    /// `NotFound` when this (issuer, subject) is linked to no account.
    async fn find_by_identity(&self, issuer: &str, subject: &str) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this email.
    async fn find_by_email(&self, email: &Email) -> Result<User, RepoError>;

    /// Links a provider identity to an existing account.
    ///
    /// # Errors
    /// `Conflict(Unique::Identity)` when the identity is linked to an account,
    /// `Conflict(Unique::IdentityPerProvider)` when the account has one of that provider;
    /// `NotFound` for an unknown account.
    async fn link_identity(&self, id: UserId, identity: &ExternalIdentity, at: NaiveDateTime) -> Result<(), RepoError>;

    /// The provider identities linked to an account, by issuer.
    ///
    /// # Errors
    /// Storage errors.
    async fn identities_of(&self, id: UserId) -> Result<Vec<LinkedIdentity>, RepoError>;

    /// Unlinks the account's identity at `issuer`.
    ///
    /// # Errors
    /// `NotFound` when the account has none there.
    async fn unlink_identity(&self, id: UserId, issuer: &str) -> Result<(), RepoError>;

    /// Stores a new account and links the identity to it in one transaction (the first-account rule
    /// of `create` applies).
    ///
    /// # Errors
    /// `Conflict(Unique::Username | Unique::Email | Unique::Identity)`.
    async fn create_with_identity(
        &self,
        user: NewUser,
        identity: &ExternalIdentity,
        first_becomes_admin: bool,
    ) -> Result<User, RepoError>;

    /// # Errors
    /// `NotFound` when no account has this username.
    async fn set_role(&self, username: &str, role: Role) -> Result<User, RepoError>;

    /// Records that the account was seen at `at` (the caller writes at most hourly).
    ///
    /// # Errors
    /// Storage errors; an unknown account is no error.
    async fn touch_last_seen(&self, id: UserId, at: NaiveDateTime) -> Result<(), RepoError>;

    /// Whether the database answers at all (health checks).
    ///
    /// # Errors
    /// `Unavailable` when it does not.
    async fn ping(&self) -> Result<(), RepoError>;
}

/// Why a password could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Every hashing slot is taken: the work is bounded and never queues without end.
    #[error("password hashing is saturated")]
    Busy,
    #[error("password hashing failed: {0}")]
    Failed(#[source] Cause),
}

/// Why a session token could not be signed.
#[derive(Debug, thiserror::Error)]
#[error("token signing failed: {0}")]
pub struct SignError(#[source] pub Cause);

/// Password hashing (bcrypt in production). Slow on purpose: adapters run it off the async executor.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait PasswordHasher: Send + Sync {
    /// # Errors
    /// `Busy` when every hashing slot is taken; `Failed` when hashing itself fails (never for a
    /// valid `Password`).
    async fn hash(&self, password: &str) -> Result<PasswordHash, HashError>;
    /// Whether `password` matches `hash`. A malformed hash is simply "no".
    ///
    /// # Errors
    /// `Busy` when every hashing slot is taken.
    async fn verify(&self, password: &str, hash: &PasswordHash) -> Result<bool, HashError>;
    /// Spends about the time of one `verify`, so that an unknown user and a wrong password take as long.
    ///
    /// # Errors
    /// `Busy` when every hashing slot is taken.
    async fn verify_dummy(&self, password: &str) -> Result<(), HashError>;
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
    /// `SignError` when signing fails.
    fn issue(&self, claims: &SessionClaims) -> Result<String, SignError>;
    /// # Errors
    /// `Expired` or `Invalid` (bad signature, wrong algorithm, malformed claims).
    fn verify(&self, token: &str) -> Result<SessionClaims, TokenError>;
}

/// Tells whether a session check made a moment ago still holds: a number that moves on whenever an
/// account's name, role, status or password changes, or it is removed, on any instance (and on
/// this one before the change's call returns). A check is reused only while the number it was
/// made under is still the current one.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait AccountChanges: Send + Sync {
    /// The current number, or `None` while changes made elsewhere cannot be seen (a lost
    /// connection): then nothing may be reused.
    fn generation(&self) -> Option<u64>;
}

/// Checks ID tokens of a third-party OpenID provider (Google by default): signature from the
/// provider's published keys, issuer, audience (our client id), expiry.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait IdentityVerifier: Send + Sync {
    /// # Errors
    /// `Rejected` for any token that does not pass every check; `Unavailable` when the provider's
    /// keys cannot be fetched.
    async fn verify(&self, id_token: &str) -> Result<ExternalIdentity, IdentityError>;
}
