//! Tags, and what the search box suggests.

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

/// One suggestion of the search box (`GET /api/search/suggestions`): the text to search for and
/// where it comes from.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuggestionDto {
    /// Lower case.
    pub text: String,
    /// `tag` (a tag name), `title` (a GIF's title), `caption` (a word of the text in a GIF, after
    /// any words typed before it) or `search` (what people searched for).
    #[ts(type = "\"tag\" | \"title\" | \"caption\" | \"search\"")]
    #[schema(example = "tag")]
    pub kind: String,
}

impl From<&gifshelf_domain::search::Suggestion> for SuggestionDto {
    fn from(s: &gifshelf_domain::search::Suggestion) -> Self {
        Self { text: s.text.clone(), kind: s.kind.as_str().to_owned() }
    }
}
