//! Actions on many GIFs at once.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `POST /api/gifs/bulk`: actions on up to 500 GIFs, each applied in one transaction.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkRequest {
    #[ts(type = "Array<number>")]
    pub ids: Vec<i64>,
    #[serde(default)]
    pub add_tags: Vec<String>,
    #[serde(default)]
    pub remove_tags: Vec<String>,
    /// Adds the GIFs (at the end) to this collection.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub collection_id: Option<i64>,
    /// Deletes the GIFs (the caller's own only).
    #[serde(default)]
    pub delete: bool,
}

/// What happened to one GIF of a bulk request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BulkStatus {
    /// Every action was applied.
    Ok,
    /// The caller may not do one of the actions to it; none was applied.
    Forbidden,
    NotFound,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkResult {
    #[ts(type = "number")]
    pub id: i64,
    pub status: BulkStatus,
}

/// One result per distinct id, in the order asked.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkResponse {
    pub results: Vec<BulkResult>,
}
