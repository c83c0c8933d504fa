//! GIFs, their files and pages of them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{iso, TagRef};

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
    /// How suitable it is: `g`, `pg`, `pg-13` or `r` (the chat APIs filter by it).
    pub rating: Rating,
    /// The GIF this one was made from in the maker ("Edit a copy"); `null` for any other GIF, and
    /// once that GIF is deleted.
    pub made_from: Option<GifLinkDto>,
    /// Set when a moderator hid it: then only its owner and admins see it (and they do: this says
    /// why). Null for a GIF everyone sees.
    pub hidden: Option<HiddenDto>,
    /// The text in the GIF ("Text in this GIF"): read from its frames after the upload, typed by
    /// its owner or an admin, or the caption the maker drew. At most 500 characters, lines
    /// separated by `\n`; null while it was not read yet or when the GIF has no text.
    pub caption_text: Option<String>,
}

/// Why and when a moderator hid a GIF.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HiddenDto {
    /// What its owner is shown: a report's reason ("Spam", "Offensive content", "Copyright
    /// infringement", "Other") or the words of the admin who hid it.
    pub reason: String,
    /// ISO-8601, UTC.
    pub hidden_at: String,
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
            rating: gif.rating.into(),
            made_from: gif.made_from.as_ref().map(GifLinkDto::from),
            hidden: gif.hidden.as_ref().map(|h| HiddenDto { reason: h.reason.clone(), hidden_at: iso(h.at) }),
            caption_text: gif.caption_text.as_ref().map(|t| t.as_str().to_owned()),
        }
    }
}

/// One file of a GIF. Within a size (`original`/`medium`/`mp4`/`webm`/`webp`;
/// `thumbnail`/`mp4_small`/`webm_small`; …) `preferred` marks the smallest animated file a browser
/// should play: a video only for an opaque animation (it has no transparency), an animated WebP
/// for any animation, never a still. `poster` is the first frame as a still WebP at most 640 wide,
/// what the detail page paints before its animation.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenditionDto {
    #[ts(
        type = "\"original\" | \"thumbnail\" | \"still\" | \"tiny\" | \"nano\" | \"fixed_height\" | \"medium\" | \"mp4\" | \"mp4_small\" | \"webm\" | \"webm_small\" | \"webp\" | \"webp_fixed_height\" | \"webp_tiny\" | \"webp_nano\" | \"poster\""
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

#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateGifRequest {
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
    /// `g`, `pg`, `pg-13` or `r` (lower case; anything else is a 400 `validation`); absent: the
    /// rating stays as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<Rating>")]
    #[schema(value_type = Option<String>, example = "pg")]
    pub rating: Option<String>,
    /// The text in the GIF, at most 500 characters; `""` clears it. Absent: it stays as it is.
    /// Either way given, it is kept over later readings of the frames.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    #[schema(example = "this is fine")]
    pub caption_text: Option<String>,
}

/// How suitable a GIF is, mildest first (GIPHY's and Tenor's scale).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, utoipa::ToSchema)]
pub enum Rating {
    #[serde(rename = "g")]
    G,
    #[serde(rename = "pg")]
    Pg,
    #[serde(rename = "pg-13")]
    Pg13,
    #[serde(rename = "r")]
    R,
}

impl From<gifshelf_domain::gif::Rating> for Rating {
    fn from(rating: gifshelf_domain::gif::Rating) -> Self {
        use gifshelf_domain::gif::Rating as R;
        match rating {
            R::G => Self::G,
            R::Pg => Self::Pg,
            R::Pg13 => Self::Pg13,
            R::R => Self::R,
        }
    }
}
