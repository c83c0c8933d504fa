//! What the image pipeline produces and how it refuses input.

use crate::gif::{Fingerprint, RenditionKind};

/// One rendition as bytes, before it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedImage {
    pub bytes: Vec<u8>,
    pub content_type: String,
    pub width: u32,
    pub height: u32,
    /// Frames in the file (1 for a still image).
    pub frames: u32,
    /// One loop's play time.
    pub duration_ms: u32,
    /// The video codec (`h264`, `vp9`); `None` for images.
    pub codec: Option<String>,
}

/// An accepted upload: its sniffed type, size and frames, and the renditions asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessedMedia {
    /// From the bytes' magic numbers, never the file name or the client's content type.
    pub content_type: String,
    pub extension: String,
    pub width: u32,
    pub height: u32,
    pub frames: u32,
    /// One per kind asked for, in the order asked. The original is the upload as stored: its
    /// metadata (EXIF, XMP, comments) removed, its pixels untouched.
    pub renditions: Vec<(RenditionKind, EncodedImage)>,
    /// Of the stored original: its SHA-256 and the perceptual hash of its frames.
    pub fingerprint: Fingerprint,
    /// No pixel of any frame is transparent (a video can then stand in for the GIF).
    pub opaque: bool,
}

/// Why an upload's bytes were refused. Messages are sentences a user can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaRejection {
    #[error("{0}")]
    UnsupportedType(String),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    TooLarge(String),
    /// Every processing slot is taken; try again shortly.
    #[error("The server is busy processing other uploads. Please try again in a moment.")]
    Busy,
    #[error("The image took too long to process.")]
    Timeout,
    /// A fault of ours, not of the input.
    #[error("image processing failed: {0}")]
    Internal(String),
}
