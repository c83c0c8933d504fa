//! API keys, how they are minted, and the chat integrations admins keep.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::api_key::{ApiKey, ApiKeyId, NewApiKey};
use crate::gif::Rating;
use crate::integration::{
    Integration, IntegrationId, IntegrationSecret, NewIntegration, Platform, SealError, StoredSecret,
};
use crate::user::UserId;
use crate::RepoError;

/// API keys, stored by digest.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ApiKeyRepository: Send + Sync {
    /// # Errors
    /// Storage errors.
    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey, RepoError>;

    /// The person's keys, oldest first.
    ///
    /// # Errors
    /// Storage errors.
    async fn keys_of(&self, owner: UserId) -> Result<Vec<ApiKey>, RepoError>;

    /// Removes one of the person's keys.
    ///
    /// # Errors
    /// `NotFound` when the person has no key with this id.
    async fn delete_key(&self, owner: UserId, id: ApiKeyId) -> Result<(), RepoError>;

    /// The key with this digest.
    ///
    /// # Errors
    /// `NotFound` when no key has it (unknown or revoked).
    async fn key_by_digest(&self, digest: &str) -> Result<ApiKey, RepoError>;

    /// Records that the key was used.
    ///
    /// # Errors
    /// Storage errors.
    async fn touch_key(&self, id: ApiKeyId, at: NaiveDateTime) -> Result<(), RepoError>;
}

/// The chat integrations admins keep (signing secrets and tokens of slash commands).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait IntegrationRepository: Send + Sync {
    /// # Errors
    /// Storage errors.
    async fn create_integration(&self, integration: NewIntegration) -> Result<Integration, RepoError>;

    /// Every integration, oldest first.
    ///
    /// # Errors
    /// Storage errors.
    async fn integrations(&self) -> Result<Vec<Integration>, RepoError>;

    /// The integrations of one platform, oldest first.
    ///
    /// # Errors
    /// Storage errors.
    async fn integrations_of(&self, platform: Platform) -> Result<Vec<Integration>, RepoError>;

    /// # Errors
    /// `NotFound` when no integration has this id.
    async fn delete_integration(&self, id: IntegrationId) -> Result<(), RepoError>;

    /// Keeps the integration's secret in another form (a clear row converted at start).
    ///
    /// # Errors
    /// `NotFound` when no integration has this id.
    async fn replace_integration_secret(
        &self,
        id: IntegrationId,
        secret: StoredSecret,
        hint: String,
    ) -> Result<(), RepoError>;

    /// Sets the highest rating the integration's slash commands answer.
    ///
    /// # Errors
    /// `NotFound` when no integration has this id.
    async fn set_integration_rating(&self, id: IntegrationId, max_rating: Rating) -> Result<(), RepoError>;
}

/// Seals and opens the secrets that must be kept with their clear value (Slack's signing secrets)
/// with the server's secrets key (`GIFSHELF_SECRETS_KEY`): authenticated encryption, a fresh nonce
/// per seal.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait SecretSealer: Send + Sync {
    /// The sealed text to store.
    fn seal(&self, secret: &IntegrationSecret) -> String;

    /// # Errors
    /// `SealError` when this key did not seal it, or it was altered.
    fn open(&self, sealed: &str) -> Result<IntegrationSecret, SealError>;
}

/// Makes API keys and their digests (a key is random, so a fast hash is enough).
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait KeyMinter: Send + Sync {
    /// A new key: URL-safe, with at least 192 bits from the OS generator.
    fn mint(&self) -> String;
    /// What is stored and looked up instead of the key.
    fn digest(&self, key: &str) -> String;
}
