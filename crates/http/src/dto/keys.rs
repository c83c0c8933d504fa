//! API keys for the chat APIs.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::iso;

/// `POST /api/keys`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateApiKeyRequest {
    /// What the key is for ("Team chat"): 1 to 50 characters.
    pub name: String,
}

/// A new API key: `key` is in this answer only.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKeyDto {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
    /// Pass it as `key` (Tenor), `api_key` (GIPHY) or in the path (`/api/k/{key}/…`).
    pub key: String,
    /// ISO-8601, UTC.
    pub created_at: String,
}

/// An API key as listed: never the key itself.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyDto {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
    /// The key's first characters.
    pub prefix: String,
    /// ISO-8601, UTC.
    pub created_at: String,
    /// ISO-8601, UTC; null until first used (recorded at most once a minute).
    pub last_used_at: Option<String>,
}

impl From<&gifshelf_domain::api_key::ApiKey> for ApiKeyDto {
    fn from(key: &gifshelf_domain::api_key::ApiKey) -> Self {
        Self {
            id: key.id.0,
            name: key.name.as_str().to_owned(),
            prefix: key.prefix.clone(),
            created_at: iso(key.created_at),
            last_used_at: key.last_used_at.map(iso),
        }
    }
}
