//! Adding GIFs: the upload form and the import of a link.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{GifDto, GifLinkDto, Rating};

/// `POST /api/gifs`: the stored GIF, and the GIFs of the library it looks like (stored anyway).
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadedGifDto {
    #[serde(flatten)]
    pub gif: GifDto,
    /// Near duplicates by perceptual hash, closest first (empty for most uploads).
    pub likely_duplicates: Vec<GifLinkDto>,
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
    /// `g`, `pg`, `pg-13` or `r` (lower case; anything else is a 400 `validation`); absent: the
    /// server's default (`GIFSHELF_DEFAULT_RATING`, `g` out of the box).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<Rating>")]
    #[schema(value_type = Option<String>, example = "pg")]
    pub rating: Option<String>,
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
    /// `g`, `pg`, `pg-13` or `r` (lower case; anything else is a 400 `validation`); absent: the
    /// server's default (`GIFSHELF_DEFAULT_RATING`, `g` out of the box).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<Rating>")]
    #[schema(value_type = Option<String>, example = "pg")]
    pub rating: Option<String>,
}

/// `POST /api/gifs`: the multipart form (described in the OpenAPI document; parsed by hand).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadForm {
    /// The image (GIF, PNG, JPEG or WebP), at most the server's upload limit; its type is decided
    /// from its bytes, whatever its name or declared type say.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// `GifUploadData` as JSON text: `{"title": "...", "description": "...", "tags": ["..."], "rating": "g"}`.
    pub gif_data: String,
}
