//! Which stored file each chat format names, and its public URL. gifshelf keeps GIFs, a still,
//! and (for animations, once the renditions job ran) MP4 and WebM videos; it makes no WebP, so
//! WebP names are answered with the GIF of the same size. A video name of a GIF that has no video
//! (a still image, or one whose job has not run yet) is answered with that size's GIF, so that
//! clients which always read a key find one.

use actix_web::{web, HttpRequest, HttpResponse};
use gifshelf_domain::gif::{Gif, Rendition, RenditionKind};

use crate::{ApiError, AppState};

use RenditionKind::{FixedHeight, Medium, Mp4, Mp4Small, Nano, Original, Still, Thumbnail, Tiny, Webm, WebmSmall};

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
    ("webp", GIF_FULL),
    ("tinywebp", GIF_TINY),
    ("nanowebp", GIF_NANO),
];

/// GIPHY's rendition names: the image kinds, and the video kind that goes in its `mp4` field.
pub const GIPHY_IMAGES: &[(&str, &[RenditionKind], Option<RenditionKind>)] = &[
    ("original", GIF_FULL, Some(Mp4)),
    ("original_still", STILL, None),
    ("fixed_height", &[FixedHeight, Thumbnail, Original], Some(Mp4Small)),
    ("fixed_height_still", STILL, None),
    ("fixed_height_downsampled", &[FixedHeight, Thumbnail, Original], None),
    ("fixed_height_small", GIF_NANO, Some(Mp4Small)),
    ("fixed_height_small_still", STILL, None),
    ("fixed_width", GIF_TINY, Some(Mp4Small)),
    ("fixed_width_still", STILL, None),
    ("fixed_width_downsampled", GIF_TINY, None),
    ("fixed_width_small", GIF_NANO, Some(Mp4Small)),
    ("fixed_width_small_still", STILL, None),
    ("downsized_still", STILL, None),
    ("preview_gif", GIF_NANO, None),
];

/// GIPHY's `downsized` (under 2 MB) and `downsized_medium` (under 5 MB): the largest GIF of the
/// full size under the bound, else the gallery's thumbnail.
pub const GIPHY_DOWNSIZED: &[(&str, i64)] = &[("downsized", 2_000_000), ("downsized_medium", 5_000_000)];

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
        for (name, kinds, _) in GIPHY_IMAGES {
            assert!(kinds.iter().any(|k| RenditionKind::AT_UPLOAD.contains(k)), "{name} may find nothing");
        }
    }
}
