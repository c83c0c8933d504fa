//! The pipeline's refusals are the domain's `MediaRejection`: one type from the decoder to the
//! HTTP answer. These build its sentences; every message but `Internal`'s is meant for the uploader.

use gifshelf_domain::media::MediaRejection;

/// A damaged or incomplete file; `detail` says what is wrong with it.
pub(crate) fn corrupt(what: &str, detail: impl std::fmt::Display) -> MediaRejection {
    MediaRejection::invalid(format!("The {what} file is damaged or incomplete ({detail})."))
}

/// A damaged or incomplete file, as a decoder found: its error is kept as the cause.
pub(crate) fn corrupt_by<E>(what: &str, err: E) -> MediaRejection
where
    E: std::error::Error + Send + Sync + 'static,
{
    MediaRejection::InvalidImage {
        message: format!("The {what} file is damaged or incomplete ({err})."),
        cause: Some(Box::new(err)),
    }
}

/// A failure that is not the uploader's fault.
pub(crate) fn internal(what: impl std::fmt::Display) -> MediaRejection {
    MediaRejection::internal(format!("The image could not be processed because of an internal error ({what})."))
}
