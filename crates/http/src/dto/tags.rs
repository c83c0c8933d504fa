//! Tags.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagRef {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagDto {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
    /// How many GIFs carry the tag.
    #[ts(type = "number")]
    pub count: i64,
}

impl From<&gifshelf_domain::gif::Tag> for TagDto {
    fn from(tag: &gifshelf_domain::gif::Tag) -> Self {
        Self { id: tag.id.0, name: tag.name.as_str().to_owned(), count: tag.count }
    }
}

/// `DELETE /api/tags/empty`: the ids of the tags removed.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletedTagsResponse {
    #[ts(type = "Array<number>")]
    pub deleted_ids: Vec<i64>,
}
