//! What the server says about itself: its public configuration and health.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `GET /api/config`: what the SPA needs to know about this server before sign-in.
#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfig {
    pub google_client_id: Option<String>,
    #[ts(type = "number")]
    pub max_upload_bytes: u64,
    pub version: String,
    /// Who may register: `open`, `invite` (only with an invitation) or `closed`.
    #[ts(type = "\"open\" | \"invite\" | \"closed\"")]
    pub registration: String,
    /// Whether members who are not administrators may make invitations (Settings, "Invitations").
    pub members_may_invite: bool,
}

/// `GET /api/health/live` and `/api/health/ready`: `ok`, or `unavailable` with the names of the
/// failing checks (`database`, `store`, `migrations`, `job_backlog`). No data of the library.
#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProbeDto {
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub failing: Option<Vec<String>>,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthDto {
    pub status: String,
    pub database: String,
}
