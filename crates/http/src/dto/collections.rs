//! Collections: named, ordered lists of GIFs.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::iso;

/// Who sees a collection: every signed-in user (`team`) or its owner only (`private`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    Team,
    Private,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Team => "team",
            Self::Private => "private",
        }
    }
}

impl From<gifshelf_domain::collection::Visibility> for Visibility {
    fn from(v: gifshelf_domain::collection::Visibility) -> Self {
        match v {
            gifshelf_domain::collection::Visibility::Team => Self::Team,
            gifshelf_domain::collection::Visibility::Private => Self::Private,
        }
    }
}

/// A collection: a named, ordered list of GIFs.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionDto {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
    pub description: String,
    /// The owner's username.
    pub owner: String,
    pub visibility: Visibility,
    /// The id of its public page `/c/{shareId}`, while sharing is on.
    pub share_id: Option<String>,
    #[ts(type = "number")]
    pub gif_count: i64,
    /// The ids of its first GIFs (at most four), for a cover.
    #[ts(type = "Array<number>")]
    pub cover: Vec<i64>,
    /// Whether the caller may change it (its owner; an admin for a team collection).
    pub can_edit: bool,
    /// ISO-8601, UTC.
    pub created_at: String,
    /// ISO-8601, UTC.
    pub updated_at: String,
}

impl CollectionDto {
    pub fn of(c: &gifshelf_domain::collection::Collection, can_edit: bool) -> Self {
        Self {
            id: c.id.0,
            name: c.name.as_str().to_owned(),
            description: c.description.as_str().to_owned(),
            owner: c.owner.as_str().to_owned(),
            visibility: c.visibility.into(),
            share_id: c.share_id.clone(),
            gif_count: c.gif_count,
            cover: c.cover.iter().map(|g| g.0).collect(),
            can_edit,
            created_at: iso(c.created_at),
            updated_at: iso(c.updated_at),
        }
    }
}

/// `POST /api/collections` and `PUT /api/collections/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionRequest {
    /// 1 to 80 characters, trimmed.
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub visibility: Visibility,
    /// On `PUT` only: turns the public page on or off (omitted: unchanged).
    #[serde(default)]
    pub sharing: Option<bool>,
}

/// `PUT /api/collections/{id}/share`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareRequest {
    pub enabled: bool,
}

/// `PUT /api/collections/{id}/order`: every GIF of the collection, once, in the new order.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderRequest {
    #[ts(type = "Array<number>")]
    pub gif_ids: Vec<i64>,
}
