#![doc = include_str!("../README.md")]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]
#![warn(missing_docs)]

mod anim_encode;
mod error;
mod gif_pipeline;
mod limits;
mod lzw;
mod probe;
mod processor;
mod quantize;
mod resize;
mod sniff;
mod still;
mod strip;
mod webp;

use std::panic::{catch_unwind, AssertUnwindSafe};

pub use error::MediaError;
pub use limits::Limits;
pub use probe::{probe, Probe};
pub use processor::MediaService;
pub use sniff::{sniff, MediaKind};
pub use strip::strip_metadata;

/// One rendered image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendition {
    /// The encoded bytes.
    pub bytes: Vec<u8>,
    /// Their MIME type (`image/gif`, `image/png` or `image/jpeg`).
    pub mime: &'static str,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// What `process` made of an upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processed {
    /// The type decided from the magic bytes.
    pub kind: MediaKind,
    /// Display width of the original.
    pub width: u32,
    /// Display height of the original.
    pub height: u32,
    /// Number of frames of the original (and of an animated thumbnail).
    pub frames: u32,
    /// At most `thumb_width` wide; an animated GIF when the source is animated.
    pub thumbnail: Rendition,
    /// The first frame at the same size, as a still image.
    pub static_thumbnail: Rendition,
}

/// Checks the upload against `limits` from its headers, then decodes it (one frame at a time for
/// animations) and renders the animated and static thumbnails.
pub fn process(bytes: &[u8], limits: &Limits) -> Result<Processed, MediaError> {
    run(bytes, limits, false)
}

/// Only the static thumbnail (the first frame at thumbnail width), decoding no further than the
/// first frame: for regenerating stills cheaply. The same checks as [`process`] apply.
pub fn static_thumbnail(bytes: &[u8], limits: &Limits) -> Result<Rendition, MediaError> {
    run(bytes, limits, true).map(|p| p.static_thumbnail)
}

fn run(bytes: &[u8], limits: &Limits, first_only: bool) -> Result<Processed, MediaError> {
    let deadline = limits::Deadline::new(limits.timeout);
    let run = || match sniff(bytes) {
        None => Err(MediaError::UnsupportedType),
        Some(MediaKind::Gif) => gif_pipeline::process_gif(bytes, limits, &deadline, first_only),
        Some(MediaKind::Webp) => webp::process_webp(bytes, limits, &deadline, first_only),
        Some(kind) => still::process_still(kind, bytes, limits, &deadline),
    };
    // Defence in depth: a bug in a decoder must not take the server down with it.
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| Err(MediaError::internal("a decoder failed unexpectedly")))
}
