//! Which stored file each chat format names, and its public URL. gifshelf keeps GIFs, a still,
//! and (for animations, once the renditions job ran) MP4 and WebM videos and animated WebPs at the
//! chat sizes. A video or WebP name of a GIF that has no such file (a still image, or one whose
//! job has not run yet) is answered with that size's GIF, so that clients which always read a key
//! find one.

use actix_web::{web, HttpRequest, HttpResponse};
use gifshelf_domain::gif::{Gif, Rendition, RenditionKind};

use crate::{ApiError, AppState};

use RenditionKind::{
    FixedHeight, Medium, Mp4, Mp4Small, Nano, Original, Still, Thumbnail, Tiny, Webm, WebmSmall, Webp, WebpFixedHeight,
    WebpNano, WebpTiny,
};

/// A file as chat APIs describe it.
#[derive(Debug, Clone)]
pub struct MediaFile<'a> {
    pub url: String,
    pub rendition: &'a Rendition,
}

impl MediaFile<'_> {
    pub fn width(&self) -> i32 {
        self.rendition.width
    }

    pub fn height(&self) -> i32 {
        self.rendition.height
    }

    pub fn size(&self) -> i64 {
        self.rendition.size
    }

    /// Seconds per loop (0 for a still).
    pub fn duration_secs(&self) -> f64 {
        f64::from(self.rendition.duration_ms.unwrap_or(0)) / 1000.0
    }
}

/// The public URL of a file of a GIF: under its share id, ending in the file's extension.
pub fn url(origin: &str, gif: &Gif, rendition: &Rendition) -> String {
    format!("{origin}/s/{}/{}.{}", gif.share_id, rendition.kind.as_str(), rendition.extension())
}

/// The first of `kinds` the GIF has.
pub fn first<'a>(origin: &str, gif: &'a Gif, kinds: &[RenditionKind]) -> Option<MediaFile<'a>> {
    kinds
        .iter()
        .find_map(|&kind| gif.rendition(kind))
        .map(|rendition| MediaFile { url: url(origin, gif, rendition), rendition })
}

/// The GIF of a size, smallest-first fallbacks included.
const GIF_FULL: &[RenditionKind] = &[Original];
const GIF_MEDIUM: &[RenditionKind] = &[Medium, Original];
const GIF_TINY: &[RenditionKind] = &[Tiny, Thumbnail, Original];
const GIF_NANO: &[RenditionKind] = &[Nano, Tiny, Thumbnail, Original];
const STILL: &[RenditionKind] = &[Still, Original];
/// The animated WebP of a size, else that size's GIF.
const WEBP_FULL: &[RenditionKind] = &[Webp, Original];
const WEBP_FIXED_HEIGHT: &[RenditionKind] = &[WebpFixedHeight, FixedHeight, Thumbnail, Original];
const WEBP_TINY: &[RenditionKind] = &[WebpTiny, Tiny, Thumbnail, Original];
const WEBP_NANO: &[RenditionKind] = &[WebpNano, Nano, Tiny, Thumbnail, Original];

/// Tenor's format names, each with the kinds that answer it (the first the GIF has).
pub const TENOR_FORMATS: &[(&str, &[RenditionKind])] = &[
    ("gif", GIF_FULL),
    ("mediumgif", GIF_MEDIUM),
    ("tinygif", GIF_TINY),
    ("nanogif", GIF_NANO),
    ("gifpreview", STILL),
    ("tinygifpreview", STILL),
    ("nanogifpreview", STILL),
    ("mp4", &[Mp4, Original]),
    ("loopedmp4", &[Mp4, Original]),
    ("tinymp4", &[Mp4Small, Tiny, Thumbnail, Original]),
    ("nanomp4", &[Mp4Small, Nano, Tiny, Thumbnail, Original]),
    ("webm", &[Webm, Original]),
    ("tinywebm", &[WebmSmall, Tiny, Thumbnail, Original]),
    ("nanowebm", &[WebmSmall, Nano, Tiny, Thumbnail, Original]),
    ("webp", WEBP_FULL),
    ("tinywebp", WEBP_TINY),
    ("nanowebp", WEBP_NANO),
];

/// Where one field of a GIPHY rendition comes from: the first of these kinds the GIF has, or the
/// largest GIF of the full size under a number of bytes (`downsized…`).
#[derive(Debug, Clone, Copy)]
pub enum Source {
    Kinds(&'static [RenditionKind]),
    Under(i64),
}

impl Source {
    pub fn file<'a>(self, origin: &str, gif: &'a Gif) -> Option<MediaFile<'a>> {
        match self {
            Source::Kinds(kinds) => first(origin, gif, kinds),
            Source::Under(bytes) => under(origin, gif, bytes),
        }
    }
}

/// One entry of GIPHY's `images`, with the fields GIPHY's image-object schema gives it: the
/// image (`url`, `width`, `height`, `size`), the MP4 (`mp4`, `mp4_size`), the WebP (`webp`,
/// `webp_size`), each from the first kind the GIF has. An entry that GIPHY describes as an MP4
/// only (`looping`, `preview`, `downsized_small`, `original_mp4`) has no `url` or `size`.
#[derive(Debug, Clone, Copy)]
pub struct GiphyImage {
    pub name: &'static str,
    pub image: Option<Source>,
    pub mp4: Option<&'static [RenditionKind]>,
    pub webp: Option<&'static [RenditionKind]>,
    /// The size an MP4-only entry states: its video's, else this file's.
    pub mp4_only: bool,
}

const MP4_FULL: &[RenditionKind] = &[Mp4, Mp4Small, Original];
const MP4_SMALL: &[RenditionKind] = &[Mp4Small, Mp4, Thumbnail, Original];
const GIF_FIXED_HEIGHT: &[RenditionKind] = &[FixedHeight, Thumbnail, Original];

const fn animated(
    name: &'static str,
    gif: &'static [RenditionKind],
    mp4: &'static [RenditionKind],
    webp: &'static [RenditionKind],
) -> GiphyImage {
    GiphyImage { name, image: Some(Source::Kinds(gif)), mp4: Some(mp4), webp: Some(webp), mp4_only: false }
}

const fn image(name: &'static str, source: Source) -> GiphyImage {
    GiphyImage { name, image: Some(source), mp4: None, webp: None, mp4_only: false }
}

const fn video(name: &'static str, mp4: &'static [RenditionKind]) -> GiphyImage {
    GiphyImage { name, image: None, mp4: Some(mp4), webp: None, mp4_only: true }
}

/// Every entry of GIPHY's `images` (its image-object schema and the renditions glossary), each
/// answered by the nearest file gifshelf keeps: every GIF has every entry, and every animated
/// size its `mp4` and `webp`, so typed clients find each field they declare.
pub const GIPHY_IMAGES: &[GiphyImage] = &[
    animated("original", GIF_FULL, MP4_FULL, WEBP_FULL),
    image("original_still", Source::Kinds(STILL)),
    video("original_mp4", MP4_FULL),
    animated("fixed_height", GIF_FIXED_HEIGHT, MP4_SMALL, WEBP_FIXED_HEIGHT),
    image("fixed_height_still", Source::Kinds(STILL)),
    GiphyImage { webp: Some(WEBP_FIXED_HEIGHT), ..image("fixed_height_downsampled", Source::Kinds(GIF_FIXED_HEIGHT)) },
    animated("fixed_height_small", GIF_NANO, MP4_SMALL, WEBP_NANO),
    image("fixed_height_small_still", Source::Kinds(STILL)),
    animated("fixed_width", GIF_TINY, MP4_SMALL, WEBP_TINY),
    image("fixed_width_still", Source::Kinds(STILL)),
    GiphyImage { webp: Some(WEBP_TINY), ..image("fixed_width_downsampled", Source::Kinds(GIF_TINY)) },
    animated("fixed_width_small", GIF_NANO, MP4_SMALL, WEBP_NANO),
    image("fixed_width_small_still", Source::Kinds(STILL)),
    image("downsized", Source::Under(2_000_000)),
    image("downsized_still", Source::Kinds(STILL)),
    image("downsized_medium", Source::Under(5_000_000)),
    image("downsized_large", Source::Under(8_000_000)),
    video("downsized_small", MP4_SMALL),
    video("looping", MP4_FULL),
    video("preview", MP4_SMALL),
    image("preview_gif", Source::Kinds(GIF_NANO)),
    image("preview_webp", Source::Kinds(WEBP_NANO)),
    image("480w_still", Source::Kinds(STILL)),
];

/// The largest GIF of the full size under `max_bytes` (GIPHY's `downsized…`), else the gallery's
/// thumbnail.
pub fn under<'a>(origin: &str, gif: &'a Gif, max_bytes: i64) -> Option<MediaFile<'a>> {
    [Original, Medium, Thumbnail, Tiny]
        .into_iter()
        .filter_map(|kind| gif.rendition(kind))
        .find(|r| r.size < max_bytes)
        .or_else(|| gif.rendition(Thumbnail))
        .map(|rendition| MediaFile { url: url(origin, gif, rendition), rendition })
}

/// Stoat's gifbox formats: the videos its picker plays, and the GIFs beside them.
pub const GIFBOX_FORMATS: &[(&str, &[RenditionKind])] = &[
    ("webm", &[Webm, Original]),
    ("tinywebm", &[WebmSmall, Tiny, Thumbnail, Original]),
    ("mp4", &[Mp4, Original]),
    ("tinymp4", &[Mp4Small, Tiny, Thumbnail, Original]),
    ("gif", GIF_FULL),
    ("tinygif", GIF_TINY),
];

/// Commet keeps only the path of each media URL and asks for it under `/proxy/klipy/media`:
/// `/proxy/klipy/media/s/{shareId}/tiny.gif` is `/s/{shareId}/tiny.gif`.
pub fn klipy_media(cfg: &mut web::ServiceConfig) {
    cfg.route("/s/{share_id}/{file}", web::get().to(klipy_file));
}

async fn klipy_file(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (share_id, file) = path.into_inner();
    crate::routes::share::serve_shared_file(&state, &req, &share_id, &file).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tenor_format_ends_in_a_kind_every_gif_has() {
        for (name, kinds) in TENOR_FORMATS.iter().chain(GIFBOX_FORMATS) {
            assert!(kinds.iter().any(|k| RenditionKind::AT_UPLOAD.contains(k)), "{name} may find nothing");
        }
        for entry in GIPHY_IMAGES {
            for kinds in [entry.mp4, entry.webp].into_iter().flatten() {
                assert!(kinds.iter().any(|k| RenditionKind::AT_UPLOAD.contains(k)), "{} may find nothing", entry.name);
            }
            if let Some(Source::Kinds(kinds)) = entry.image {
                assert!(kinds.iter().any(|k| RenditionKind::AT_UPLOAD.contains(k)), "{} may find nothing", entry.name);
            }
        }
    }
}
