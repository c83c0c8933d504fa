#![doc = include_str!("../README.md")]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]
#![warn(missing_docs)]

mod anim_encode;
pub mod caption;
mod error;
mod gif_pipeline;
mod limits;
pub mod maker;
mod phash;
mod probe;
mod processor;
mod quantize;
mod resize;
mod sink;
mod sniff;
mod still;
mod strip;
pub mod text;
mod video;
mod webp;

#[cfg(feature = "testing")]
#[allow(clippy::panic)] // builders for tests and tools: an encoder error stops them loudly
pub mod testing;

use std::panic::{catch_unwind, AssertUnwindSafe};

pub use gifshelf_domain::media::MediaRejection;
pub use limits::Limits;
pub use probe::{probe, Probe};
pub use processor::MediaService;
use sink::Output;
pub use sniff::{sniff, MediaKind};
pub use strip::strip_metadata;
pub use video::Ffmpeg;

/// One rendered image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendition {
    /// The encoded bytes.
    pub bytes: Vec<u8>,
    /// Their MIME type (`image/gif`, `image/png`, `image/jpeg`, `video/mp4` or `video/webm`).
    pub mime: &'static str,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Frames in the file (1 for a still image).
    pub frames: u32,
    /// One loop's play time in milliseconds, as browsers time it (0 for a still image).
    pub duration_ms: u32,
    /// The video codec (`h264`, `vp9`); `None` for images.
    pub codec: Option<&'static str>,
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
    /// The perceptual hash (dHash) of the first, middle and last frames; `None` for a
    /// featureless (flat) picture.
    pub phash: Option<u64>,
}

/// What a pipeline made of an upload: the original's figures and the renditions asked for.
pub(crate) struct Made {
    pub kind: MediaKind,
    pub width: u32,
    pub height: u32,
    pub frames: u32,
    /// One per requested [`Output`], in the order asked.
    pub renditions: Vec<Rendition>,
    /// See [`Processed::phash`].
    pub phash: Option<u64>,
    /// No pixel of any decoded frame is transparent.
    pub opaque: bool,
    /// One loop's play time of the original in milliseconds, as browsers time it (0 for a
    /// single frame).
    pub duration_ms: u32,
}

/// Checks the upload against `limits` from its headers, then decodes it (one frame at a time for
/// animations) and renders the animated and static thumbnails.
pub fn process(bytes: &[u8], limits: &Limits) -> Result<Processed, MediaRejection> {
    let made = make(bytes, limits, &[Output::Thumbnail, Output::Still], sink::Tools::default())?;
    let mut renditions = made.renditions.into_iter();
    match (renditions.next(), renditions.next()) {
        (Some(thumbnail), Some(static_thumbnail)) => Ok(Processed {
            kind: made.kind,
            width: made.width,
            height: made.height,
            frames: made.frames,
            thumbnail,
            static_thumbnail,
            phash: made.phash,
        }),
        _ => Err(crate::error::internal("a rendition is missing")),
    }
}

/// Only the static thumbnail (the first frame at thumbnail width), decoding no further than the
/// first frame: for regenerating stills cheaply. The same checks as [`process`] apply.
pub fn static_thumbnail(bytes: &[u8], limits: &Limits) -> Result<Rendition, MediaRejection> {
    make(bytes, limits, &[Output::Still], sink::Tools::default())?
        .renditions
        .pop()
        .ok_or_else(|| crate::error::internal("the still rendition is missing"))
}

/// Checks the upload, decodes it once and makes the `outputs` asked for, in that order. Videos
/// need `ffmpeg`; while they are made, the pipeline's deadline is `ffmpeg`'s (encoding is what
/// takes the time, and the decoder waits for it).
pub(crate) fn make(
    bytes: &[u8],
    limits: &Limits,
    outputs: &[Output],
    tools: sink::Tools<'_>,
) -> Result<Made, MediaRejection> {
    let ffmpeg = tools.ffmpeg;
    let videos = outputs.iter().any(|o| o.video().is_some());
    let budget = match ffmpeg {
        Some(f) if videos => f.timeout().max(limits.timeout),
        _ => limits.timeout,
    };
    let deadline = limits::Deadline::new(budget);
    let run = || match sniff(bytes) {
        None => Err(MediaRejection::unsupported()),
        Some(MediaKind::Gif) => gif_pipeline::process_gif(bytes, limits, &deadline, outputs, tools),
        Some(MediaKind::Webp) => webp::process_webp(bytes, limits, &deadline, outputs, tools),
        Some(kind) => still::process_still(kind, bytes, limits, &deadline, outputs, tools),
    };
    // Defence in depth: a bug in a decoder must not take the server down with it.
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| Err(crate::error::internal("a decoder failed unexpectedly")))
}
