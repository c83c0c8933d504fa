//! What the image pipeline produces and how it refuses input.

use crate::gif::{Fingerprint, RenditionKind};
use crate::Cause;

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

/// Why an image was not taken: the uploader's bytes (the first four, each its own error code),
/// the server's load, or a fault of ours. The one type of every layer: the image pipeline
/// produces it, the use cases pass it on, the HTTP adapter maps it to a status and code.
/// Messages are sentences a user can read, except `Internal`'s, which go to the log with their
/// causes.
#[derive(Debug, thiserror::Error)]
pub enum MediaRejection {
    /// Not a GIF, PNG, JPEG or WebP.
    #[error("{0}")]
    UnsupportedType(String),
    /// Damaged or incomplete; `cause` is the decoder's error when it gave one.
    #[error("{message}")]
    InvalidImage {
        message: String,
        #[source]
        cause: Option<Cause>,
    },
    /// Over a size limit (dimensions, frames, pixels, memory).
    #[error("{0}")]
    ImageTooLarge(String),
    /// Too much work to process in the time allowed.
    #[error("The image is too complex to process. Please try a smaller or shorter animation.")]
    ImageTooComplex,
    /// Every processing slot is taken; try again shortly.
    #[error("The server is busy processing other uploads. Please try again in a moment.")]
    Busy,
    /// A fault of ours, not of the input.
    #[error("image processing failed")]
    Internal(#[source] Cause),
}

impl MediaRejection {
    /// Bytes of no supported type, in the pipeline's words.
    pub fn unsupported() -> Self {
        Self::UnsupportedType("The file is not a supported image; upload a GIF, PNG, JPEG or WebP file.".into())
    }

    /// A damaged image, without a decoder's error.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::InvalidImage { message: message.into(), cause: None }
    }

    /// A fault of ours with its cause (an error, or a message).
    pub fn internal(cause: impl Into<Cause>) -> Self {
        Self::Internal(cause.into())
    }
}
