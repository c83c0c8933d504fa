//! The one error type of the crate: every message is a sentence meant for the uploader.

/// Why an upload could not be probed or processed.
///
/// The `Display` text of every variant is a complete, human sentence that can be shown to the
/// person who uploaded the file (the server maps all of them to a 400).
#[derive(thiserror::Error, Debug)]
pub enum MediaError {
    /// The bytes are not a GIF, PNG, JPEG or WebP image.
    #[error("The file is not a supported image; upload a GIF, PNG, JPEG or WebP file.")]
    UnsupportedType,
    /// The file claims to be a supported image but is damaged or incomplete.
    #[error("{0}")]
    Corrupt(String),
    /// The image is larger than the configured limits (dimensions, frames, pixels or memory).
    #[error("{0}")]
    TooLarge(String),
    /// Processing took longer than the configured timeout.
    #[error("The image took too long to process; try a smaller or shorter animation.")]
    Timeout,
    /// A failure that is not the uploader's fault.
    #[error("{0}")]
    Internal(String),
}

impl MediaError {
    pub(crate) fn corrupt(what: &str, detail: impl std::fmt::Display) -> Self {
        MediaError::Corrupt(format!("The {what} file is damaged or incomplete ({detail})."))
    }

    pub(crate) fn internal(what: impl std::fmt::Display) -> Self {
        MediaError::Internal(format!("The image could not be processed because of an internal error ({what})."))
    }
}
