//! Statistics.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

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
    pub most_used_tags: Vec<(String, String)>,
    pub top_users: Vec<(String, String)>,
    pub most_viewed_gifs: Vec<(String, String)>,
    /// `[title, favourite count]`, most favourited first; GIFs nobody favourited are left out.
    pub most_favourited_gifs: Vec<(String, String)>,
    /// Posts from chat apps (Tenor's `registershare`, slash commands), all GIFs together.
    #[ts(type = "number")]
    pub total_shares: i64,
    /// `[title, share count]`, most shared first; GIFs never shared are left out.
    pub most_shared_gifs: Vec<(String, String)>,
}

/// `GET /api/stats/detailed` (spec §3 "Detailed stats"). Values are text, as the spec says.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DetailedStats {
    /// Exactly 7 entries, oldest first, `YYYY-MM-DD` (UTC).
    pub daily_uploads_last_week: Vec<(String, String)>,
    pub tag_distribution: Vec<(String, String)>,
    /// `inactive` (0 GIFs), `casual` (1-4), `active` (5-19), `power` (20+).
    pub user_activity_stats: Vec<(String, String)>,
    /// `[range label, count, average size MB]`.
    pub size_buckets: Vec<(String, String, String)>,
    /// `[content type, count, average size MB]`.
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
