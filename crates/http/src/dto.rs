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
    /// A link the server will not fetch (not http(s), credentials, a private address).
    UrlRefused,
    /// A link the server could not fetch (unreachable, an error answer, too slow, redirects).
    UrlFetchFailed,
    /// The upload is byte for byte a GIF of the library; `existingId` names it.
    Duplicate,
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
    /// With `duplicate` only: the GIF of the library the upload is identical to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub existing_id: Option<i64>,
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
        Self { issuer: identity.issuer.clone(), email: identity.email.clone(), linked_at: iso(identity.linked_at) }
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
            FavouriteStateDto,
            GifLinkDto,
            RenditionDto,
            CreateApiKeyRequest,
            CreatedApiKeyDto,
            ApiKeyDto,
            CreateIntegrationRequest,
            IntegrationDto,
            UploadedGifDto,
            DuplicateGroupsDto,
            PagedGifs,
            GifUploadData,
            FromUrlRequest,
            OembedResponse,
            UpdateGifRequest,
            DeletedTagsResponse,
            OverviewStats,
            DetailedStats,
            GifStatRow,
            UserStatRow,
            Visibility,
            CollectionDto,
            CollectionRequest,
            ShareRequest,
            OrderRequest,
            BulkRequest,
            BulkStatus,
            BulkResult,
            BulkResponse
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
    /// Whether the GIF is among the caller's favourites (always false on share pages).
    pub favourite: bool,
    /// How many people have it among their favourites.
    #[ts(type = "number")]
    pub favourite_count: i64,
    /// How often a chat app posted it (Tenor's `registershare`, slash commands).
    #[ts(type = "number")]
    pub share_count: i64,
    /// Every file of the GIF (as `GET /api/gifs/{id}/renditions`): the videos and chat sizes
    /// appear once the renditions job has made them.
    pub renditions: Vec<RenditionDto>,
}

/// One file of a GIF. Within a size (`original`/`medium`/`mp4`/`webm`;
/// `thumbnail`/`mp4_small`/`webm_small`) `preferred` marks the smallest animated file a browser
/// should play; a video is never preferred over a GIF it would show wrongly (transparency) or
/// that is smaller.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenditionDto {
    #[ts(
        type = "\"original\" | \"thumbnail\" | \"still\" | \"tiny\" | \"nano\" | \"fixed_height\" | \"medium\" | \"mp4\" | \"mp4_small\" | \"webm\" | \"webm_small\""
    )]
    pub kind: String,
    /// For a signed-in reader (bearer token or session cookie): `/api/gifs/{id}/files/{kind}.{ext}`.
    pub url: String,
    pub content_type: String,
    pub width: i32,
    pub height: i32,
    /// Bytes.
    #[ts(type = "number")]
    pub size: i64,
    pub frames: i32,
    /// One loop's play time; null when not recorded (files stored before it was).
    pub duration_ms: Option<i32>,
    /// `h264` or `vp9` for videos, null for images.
    pub codec: Option<String>,
    pub preferred: bool,
}

impl RenditionDto {
    pub fn of(gif: &gifshelf_domain::gif::Gif, rendition: &gifshelf_domain::gif::Rendition) -> Self {
        Self {
            kind: rendition.kind.as_str().to_owned(),
            url: format!("/api/gifs/{}/files/{}.{}", gif.id.0, rendition.kind.as_str(), rendition.extension()),
            content_type: rendition.content_type.clone(),
            width: rendition.width,
            height: rendition.height,
            size: rendition.size,
            frames: rendition.frames,
            duration_ms: rendition.duration_ms,
            codec: rendition.codec.clone(),
            preferred: rendition.preferred,
        }
    }

    pub fn all(gif: &gifshelf_domain::gif::Gif) -> Vec<Self> {
        gif.renditions.iter().map(|r| Self::of(gif, r)).collect()
    }
}

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

/// `POST /api/integrations` (admins): a chat platform's secret for slash commands.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateIntegrationRequest {
    /// `slack` (the app's signing secret), `mattermost` (the slash command's token) or `zulip`
    /// (the outgoing webhook bot's token).
    #[ts(type = "\"slack\" | \"mattermost\" | \"zulip\"")]
    pub platform: String,
    /// What the integration is for ("Team Slack"): 1 to 50 characters.
    pub name: String,
    /// The signing secret or token as the platform shows it: 8 to 200 characters.
    pub secret: String,
}

/// A chat integration as listed: never its secret.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationDto {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "\"slack\" | \"mattermost\" | \"zulip\"")]
    pub platform: String,
    pub name: String,
    /// The secret's last four characters.
    pub secret_hint: String,
    /// ISO-8601, UTC.
    pub created_at: String,
}

impl From<&gifshelf_domain::integration::Integration> for IntegrationDto {
    fn from(integration: &gifshelf_domain::integration::Integration) -> Self {
        Self {
            id: integration.id.0,
            platform: integration.platform.as_str().to_owned(),
            name: integration.name.as_str().to_owned(),
            secret_hint: integration.secret.hint(),
            created_at: iso(integration.created_at),
        }
    }
}

/// `POST /api/chat/command`: the fields of Slack's and Mattermost's form that gifshelf reads (the
/// platforms send more; Zulip sends JSON with `data` and `token` instead). For the document only:
/// the handler reads the raw body, which a signature covers.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlashCommandForm {
    /// The command as typed (`/gif`).
    pub command: Option<String>,
    /// The words after it (`happy cat`).
    pub text: Option<String>,
    /// Mattermost's command token (Slack signs the body instead).
    pub token: Option<String>,
}

/// `POST /api/chat/command`, answering Slack or Mattermost: the message to post.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlashCommandReply {
    pub response_type: ResponseType,
    /// Slack: mrkdwn (the notification text beside the blocks); Mattermost: Markdown.
    pub text: String,
    /// Slack only: the image and a link to its share page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<SlackBlock>,
}

/// Who sees a slash command's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResponseType {
    /// Everyone in the channel.
    InChannel,
    /// Only the person who typed the command.
    Ephemeral,
}

/// The Slack Block Kit blocks an answer uses.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SlackBlock {
    Image { image_url: String, alt_text: String, title: SlackText },
    Context { elements: Vec<SlackText> },
}

/// A Slack text object.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlackText {
    /// `plain_text` or `mrkdwn`.
    #[serde(rename = "type")]
    pub kind: String,
    pub text: String,
}

/// `POST /api/chat/command`, answering a Zulip outgoing webhook: the bot's reply (Markdown).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ZulipReply {
    pub content: String,
}

/// A UTC time as the API writes it (ISO-8601, seconds).
pub fn iso(at: chrono::NaiveDateTime) -> String {
    at.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// `PUT`/`DELETE /api/gifs/{id}/favourite`: the GIF's favourite state afterwards.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FavouriteStateDto {
    pub favourite: bool,
    #[ts(type = "number")]
    pub favourite_count: i64,
}

/// A GIF named by id and title: a link to it.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GifLinkDto {
    #[ts(type = "number")]
    pub id: i64,
    pub title: String,
}

impl From<&gifshelf_domain::gif::GifSummary> for GifLinkDto {
    fn from(summary: &gifshelf_domain::gif::GifSummary) -> Self {
        Self { id: summary.id.0, title: summary.title.as_str().to_owned() }
    }
}

/// `POST /api/gifs`: the stored GIF, and the GIFs of the library it looks like (stored anyway).
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadedGifDto {
    #[serde(flatten)]
    pub gif: GifDto,
    /// Near duplicates by perceptual hash, closest first (empty for most uploads).
    pub likely_duplicates: Vec<GifLinkDto>,
}

/// `GET /api/admin/duplicates`: groups of GIFs that look alike, for review.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DuplicateGroupsDto {
    /// Each group has two or more GIFs, by id.
    pub groups: Vec<Vec<GifLinkDto>>,
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

/// `POST /api/gifs/from-url`: the link of an image (or of a page naming one in `og:image`) and the form.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FromUrlRequest {
    pub url: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
}

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
            uploaded_at: iso(gif.uploaded_at),
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
            favourite: gif.favourite,
            favourite_count: gif.favourite_count,
            share_count: gif.share_count,
            renditions: RenditionDto::all(gif),
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
