//! The GIF maker: the recipe of `POST /api/make` and the state of `GET /api/make/{jobId}`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A rectangle of the source, in its pixels.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MakeCropDto {
    pub x: u32,
    pub y: u32,
    /// At least 16.
    pub width: u32,
    /// At least 16.
    pub height: u32,
}

/// Words drawn over every frame, in white with a black outline.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MakeCaptionDto {
    /// 1 to 100 characters, no control characters.
    pub text: String,
    #[ts(type = "\"top\" | \"bottom\"")]
    #[schema(example = "bottom")]
    pub position: String,
    #[ts(type = "\"s\" | \"m\" | \"l\"")]
    #[schema(example = "m")]
    pub size: String,
}

/// The `recipe` part of `POST /api/make`: how to make the GIF, and from what when no `file` is
/// sent (`gifId`: a GIF of the library; `sourceUrl`: a link).
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MakeRecipeDto {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub gif_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source_url: Option<String>,
    /// Seconds of the source where the GIF starts.
    pub start: f64,
    /// Seconds of the source where it ends; at most 60 s after the start.
    pub end: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub crop: Option<MakeCropDto>,
    /// 240, 320, 480 or 640 (a crop narrower keeps its own width).
    pub width: u32,
    /// 10, 15, 20 or 25.
    pub fps: u32,
    /// 0.5 to 2.
    pub speed: f64,
    #[ts(type = "\"forward\" | \"reverse\" | \"boomerang\"")]
    #[schema(example = "forward")]
    pub direction: String,
    /// How many times it plays; 0 (the default): forever.
    #[serde(default, rename = "loop", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub loops: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub caption: Option<MakeCaptionDto>,
}

/// `POST /api/make`: the multipart form (described in the OpenAPI document; parsed by hand).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MakeForm {
    /// The source (a video: MP4, WebM, MOV, MKV; or a GIF or animated WebP), at most
    /// `GIFSHELF_MAX_VIDEO_MB`; omitted when the recipe names `gifId` or `sourceUrl`.
    #[schema(value_type = Option<String>, format = Binary)]
    pub file: Option<Vec<u8>>,
    /// `GifUploadData` as JSON text, as on upload.
    pub gif_data: String,
    /// `MakeRecipeDto` as JSON text.
    pub recipe: String,
}

/// `POST /api/make`: the work is queued; poll `GET /api/make/{jobId}`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MakeStartedDto {
    #[ts(type = "number")]
    pub job_id: i64,
}

/// Why a make failed: the API's error shape.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MakeErrorDto {
    pub error: String,
    pub code: String,
}

/// `GET /api/make/{jobId}`: how far the work came.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MakeStatusDto {
    #[ts(type = "\"queued\" | \"running\" | \"done\" | \"failed\"")]
    #[schema(example = "running")]
    pub state: String,
    /// 0 to 1.
    pub progress: f32,
    /// The new GIF (done).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub gif_id: Option<i64>,
    /// Why it failed (failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<MakeErrorDto>,
}

impl From<&gifshelf_domain::make::Make> for MakeStatusDto {
    fn from(make: &gifshelf_domain::make::Make) -> Self {
        Self {
            state: make.state.as_str().to_owned(),
            progress: make.progress,
            gif_id: make.gif.map(|g| g.0),
            error: make.error.as_ref().map(|e| MakeErrorDto { error: e.message.clone(), code: e.code.clone() }),
        }
    }
}
