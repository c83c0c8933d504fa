//! API keys, how they are minted, and the chat integrations admins keep.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::api_key::{ApiKey, ApiKeyId, NewApiKey};
use crate::integration::{Integration, IntegrationId, NewIntegration, Platform};
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
}

/// Makes API keys and their digests (a key is random, so a fast hash is enough).
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait KeyMinter: Send + Sync {
    /// A new key: URL-safe, with at least 192 bits from the OS generator.
    fn mint(&self) -> String;
    /// What is stored and looked up instead of the key.
    fn digest(&self, key: &str) -> String;
}
