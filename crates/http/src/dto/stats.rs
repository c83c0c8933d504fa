//! Statistics.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
use utoipa::openapi::{RefOr, Schema};

/// The schema of a row of a pair list, `[label, count as text]`: two strings. The lists are
/// tuples in Rust; utoipa would spell them with `prefixItems`, which OpenAPI tools such as
/// Schemathesis reject as a schema, so the document says "an array of exactly 2 strings".
pub struct TextPair;

/// The schema of a row of `[label, count, average size MB]`, each text: three strings.
pub struct TextTriple;

fn text_row(width: usize, description: &str) -> RefOr<Schema> {
    ArrayBuilder::new()
        .items(ObjectBuilder::new().schema_type(Type::String))
        .min_items(Some(width))
        .max_items(Some(width))
        .description(Some(description))
        .build()
        .into()
}

impl utoipa::PartialSchema for TextPair {
    fn schema() -> RefOr<Schema> {
        text_row(2, "`[label, count as text]`")
    }
}

impl utoipa::ToSchema for TextPair {}

impl utoipa::PartialSchema for TextTriple {
    fn schema() -> RefOr<Schema> {
        text_row(3, "`[label, count, average size MB]`, each as text")
    }
}

impl utoipa::ToSchema for TextTriple {}

/// The `{range}` of the size drill-down: one of the size buckets' labels.
pub struct SizeRange;

/// The `{level}` of the activity drill-down: one of the activity levels.
pub struct ActivityLevel;

fn one_of(labels: impl IntoIterator<Item = &'static str>) -> RefOr<Schema> {
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(labels)).build().into()
}

impl utoipa::PartialSchema for SizeRange {
    fn schema() -> RefOr<Schema> {
        one_of(gifshelf_domain::stats::SizeBucket::ALL.map(|bucket| bucket.label()))
    }
}

impl utoipa::PartialSchema for ActivityLevel {
    fn schema() -> RefOr<Schema> {
        one_of(gifshelf_domain::stats::ActivityLevel::ALL.map(|level| level.label()))
    }
}

/// `GET /api/stats` (spec §3 "Application stats"). Pair lists are `[label, count as text]`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverviewStats {
    #[ts(type = "number")]
    pub total_gifs: i64,
    #[ts(type = "number")]
    pub total_users: i64,
    #[ts(type = "number")]
    pub total_tags: i64,
    #[ts(type = "number")]
    pub empty_tags_count: i64,
    #[ts(type = "number")]
    pub total_views: i64,
    pub average_tags_per_gif: f64,
    pub average_gifs_per_user: f64,
    pub average_views_per_gif: f64,
    #[ts(type = "number")]
    pub total_content_size_bytes: i64,
    #[serde(rename = "totalContentSizeMB")]
    pub total_content_size_mb: f64,
    #[ts(type = "number")]
    pub gifs_uploaded_today: i64,
    #[ts(type = "number")]
    pub gifs_uploaded_this_week: i64,
    /// ISO-8601, UTC.
    pub last_updated: String,
    #[schema(value_type = Vec<TextPair>)]
    pub most_used_tags: Vec<(String, String)>,
    #[schema(value_type = Vec<TextPair>)]
    pub top_users: Vec<(String, String)>,
    #[schema(value_type = Vec<TextPair>)]
    pub most_viewed_gifs: Vec<(String, String)>,
    /// `[title, favourite count]`, most favourited first; GIFs nobody favourited are left out.
    #[schema(value_type = Vec<TextPair>)]
    pub most_favourited_gifs: Vec<(String, String)>,
    /// Posts from chat apps (Tenor's `registershare`, slash commands), all GIFs together.
    #[ts(type = "number")]
    pub total_shares: i64,
    /// `[title, share count]`, most shared first; GIFs never shared are left out.
    #[schema(value_type = Vec<TextPair>)]
    pub most_shared_gifs: Vec<(String, String)>,
}

/// `GET /api/stats/detailed` (spec §3 "Detailed stats"). Values are text, as the spec says.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DetailedStats {
    /// Exactly 7 entries, oldest first, `YYYY-MM-DD` (UTC).
    #[schema(value_type = Vec<TextPair>)]
    pub daily_uploads_last_week: Vec<(String, String)>,
    #[schema(value_type = Vec<TextPair>)]
    pub tag_distribution: Vec<(String, String)>,
    /// `inactive` (0 GIFs), `casual` (1-4), `active` (5-19), `power` (20+).
    #[schema(value_type = Vec<TextPair>)]
    pub user_activity_stats: Vec<(String, String)>,
    /// `[range label, count, average size MB]`.
    #[schema(value_type = Vec<TextTriple>)]
    pub size_buckets: Vec<(String, String, String)>,
    /// `[content type, count, average size MB]`.
    #[schema(value_type = Vec<TextTriple>)]
    pub content_type_stats: Vec<(String, String, String)>,
}

/// A GIF in a statistics drill-down.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GifStatRow {
    #[ts(type = "number")]
    pub id: i64,
    pub title: String,
    #[serde(rename = "sizeMB")]
    pub size_mb: f64,
    #[ts(type = "number")]
    pub views: i64,
    pub content_type: String,
}

/// A user in the activity drill-down.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserStatRow {
    #[ts(type = "number")]
    pub id: i64,
    pub username: String,
    #[ts(type = "number")]
    pub gif_count: i64,
}
