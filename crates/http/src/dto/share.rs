//! Shared GIFs as other sites read them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An oEmbed 1.0 `photo` answer (field names as the oEmbed spec spells them).
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
pub struct OembedResponse {
    /// Always "1.0".
    pub version: String,
    /// Always "photo".
    #[serde(rename = "type")]
    pub kind: String,
    /// The image itself (`/s/{shareId}.gif`).
    pub url: String,
    pub width: u32,
    pub height: u32,
    pub title: String,
    pub author_name: String,
    pub provider_name: String,
    pub provider_url: String,
}
