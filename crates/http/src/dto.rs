//! Request and response bodies. The frontend's types in `frontend/src/api/generated/` are generated
//! from these with ts-rs (`cargo xtask gen-types`); a test fails when they are stale.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The stable machine code of every error answer. The SPA's generated `ErrorCode` type is this
/// list, so a new code is one variant here and the compiler shows every place that must know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A malformed request: query, path, body or upload form.
    BadRequest,
    /// A field broke a rule of the product (spec §5).
    Validation,
    /// No token, or one that is refused.
    Unauthorized,
    /// The session token has expired.
    TokenExpired,
    /// Signed in, but not allowed (not the owner, not an admin).
    Forbidden,
    NotFound,
    /// A uniqueness rule (a taken username, email or tag name).
    Conflict,
    /// The body is over its limit.
    TooLarge,
    /// The body is not of the expected type.
    UnsupportedMediaType,
    /// The body took too long to arrive.
    RequestTimeout,
    /// Too many attempts; see `Retry-After`.
    TooManyRequests,
    /// The server is busy or a dependency is down; try again shortly.
    Unavailable,
    /// A feature this server was not configured for.
    NotConfigured,
    /// Uploaded bytes that are no supported image.
    UnsupportedType,
    /// A damaged or incomplete image.
    InvalidImage,
    /// An image over a size limit.
    ImageTooLarge,
    /// An image too much work to process.
    ImageTooComplex,
    /// A fault of ours.
    Internal,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiErrorBody {
    /// A sentence a person can read.
    pub error: String,
    /// A stable machine code.
    pub code: ErrorCode,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginRequest {
    pub username: String,
    pub password: String,
}

/// `POST /api/auth/google`: the ID token ("credential") the provider's sign-in gave the browser.
#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GoogleLoginRequest {
    pub token: String,
}

/// A provider identity connected to your account (Settings, "Connected sign-in").
#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdentityDto {
    /// The provider's issuer URL (`https://accounts.google.com`).
    pub issuer: String,
    /// The email the provider shared when it was connected.
    pub email: Option<String>,
    /// ISO-8601, UTC.
    pub linked_at: String,
}

impl From<&gifshelf_domain::auth::LinkedIdentity> for IdentityDto {
    fn from(identity: &gifshelf_domain::auth::LinkedIdentity) -> Self {
        Self {
            issuer: identity.issuer.clone(),
            email: identity.email.clone(),
            linked_at: identity.linked_at.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenResponse {
    pub token: String,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterRequest {
    pub username: String,
    pub email: String,
    pub password: String,
    pub confirm_password: String,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileDto {
    pub username: String,
    pub email: String,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateProfileRequest {
    pub username: String,
    /// Omitted or null: the email stays as it is.
    #[serde(default)]
    pub email: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    pub new_password: String,
    pub confirm_password: String,
}

/// `GET /api/config`: what the SPA needs to know about this server before sign-in.
#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfig {
    pub google_client_id: Option<String>,
    #[ts(type = "number")]
    pub max_upload_bytes: u64,
    pub version: String,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthDto {
    pub status: String,
    pub database: String,
}

/// Every exported type, for the generator and the freshness test.
#[macro_export]
macro_rules! for_each_dto {
    ($m:ident) => {
        $m!(
            ErrorCode,
            ApiErrorBody,
            LoginRequest,
            GoogleLoginRequest,
            IdentityDto,
            TokenResponse,
            RegisterRequest,
            ProfileDto,
            UpdateProfileRequest,
            ChangePasswordRequest,
            PublicConfig,
            HealthDto,
            TagRef,
            TagDto,
            GifDto,
            PagedGifs,
            GifUploadData,
            UpdateGifRequest,
            DeletedTagsResponse,
            OverviewStats,
            DetailedStats,
            GifStatRow,
            UserStatRow
        );
    };
}

/// `(file name, contents)` of every generated TypeScript file.
pub fn typescript_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    macro_rules! collect {
        ($($t:ident),*) => {
            $(
                files.push((
                    format!("{}.ts", <$t as TS>::name()),
                    <$t as TS>::export_to_string().unwrap_or_else(|e| format!("// export failed: {e}\n")),
                ));
            )*
        };
    }
    for_each_dto!(collect);
    files
}

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

/// A GIF as every screen sees it (spec §3). Heights are real; the screens show 3/4 of the width.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GifDto {
    #[ts(type = "number")]
    pub id: i64,
    pub title: String,
    pub description: String,
    pub tags: Vec<TagRef>,
    #[ts(type = "number")]
    pub view_count: i64,
    pub uploaded_by: String,
    /// ISO-8601, UTC.
    pub uploaded_at: String,
    pub share_id: String,
    pub content_type: String,
    #[ts(type = "number")]
    pub content_size: i64,
    pub content_width: i32,
    pub content_height: i32,
    pub frame_count: i32,
    #[ts(type = "number")]
    pub thumbnail_size: i64,
    pub thumbnail_width: i32,
    #[ts(type = "number")]
    pub thumbnail_static_size: i64,
    pub thumbnail_static_width: i32,
}

/// One page of GIFs (spec §3 "Paged list").
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PagedGifs {
    pub content: Vec<GifDto>,
    pub current_page: u32,
    #[ts(type = "number")]
    pub total_pages: i64,
    #[ts(type = "number")]
    pub total_elements: i64,
    pub has_next: bool,
    pub has_previous: bool,
}

/// The `gifData` part of an upload.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GifUploadData {
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateGifRequest {
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
}

impl From<&gifshelf_domain::gif::Gif> for GifDto {
    fn from(gif: &gifshelf_domain::gif::Gif) -> Self {
        use gifshelf_domain::gif::RenditionKind;
        let of = |kind| gif.rendition(kind);
        let original = of(RenditionKind::Original);
        let thumbnail = of(RenditionKind::Thumbnail);
        let still = of(RenditionKind::Still);
        Self {
            id: gif.id.0,
            title: gif.title.as_str().to_owned(),
            description: gif.description.as_str().to_owned(),
            tags: gif.tags.iter().map(|t| TagRef { id: t.id.0, name: t.name.as_str().to_owned() }).collect(),
            view_count: gif.view_count,
            uploaded_by: gif.uploader.as_str().to_owned(),
            uploaded_at: gif.uploaded_at.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            share_id: gif.share_id.clone(),
            content_type: original.map(|r| r.content_type.clone()).unwrap_or_default(),
            content_size: original.map_or(0, |r| r.size),
            content_width: original.map_or(0, |r| r.width),
            content_height: original.map_or(0, |r| r.height),
            frame_count: gif.frame_count,
            thumbnail_size: thumbnail.map_or(0, |r| r.size),
            thumbnail_width: thumbnail.map_or(0, |r| r.width),
            thumbnail_static_size: still.map_or(0, |r| r.size),
            thumbnail_static_width: still.map_or(0, |r| r.width),
        }
    }
}

impl From<gifshelf_domain::gif::Page<gifshelf_domain::gif::Gif>> for PagedGifs {
    fn from(page: gifshelf_domain::gif::Page<gifshelf_domain::gif::Gif>) -> Self {
        Self {
            current_page: page.request.page,
            total_pages: page.total_pages(),
            total_elements: page.total,
            has_next: page.has_next(),
            has_previous: page.has_previous(),
            content: page.items.iter().map(GifDto::from).collect(),
        }
    }
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

/// `POST /api/gifs`: the multipart form (described in the OpenAPI document; parsed by hand).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadForm {
    /// The image (GIF, PNG, JPEG or WebP), at most the server's upload limit; its type is decided
    /// from its bytes, whatever its name or declared type say.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// `GifUploadData` as JSON text: `{"title": "...", "description": "...", "tags": ["..."]}`.
    pub gif_data: String,
}
