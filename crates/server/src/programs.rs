//! The outside programs the media work runs, when they are usable: `ffmpeg` (videos) and
//! `tesseract` (the text in GIFs). Each says once in the log when it is off or missing.

use crate::Settings;

/// The `ffmpeg` videos are made with, when it is usable (one log line when not).
pub(crate) fn video_maker(settings: &Settings) -> Option<gifshelf_media::Ffmpeg> {
    match &settings.ffmpeg {
        None => {
            tracing::info!("video renditions are off (GIFSHELF_FFMPEG=off)");
            None
        }
        Some(path) => match gifshelf_media::Ffmpeg::detect(Some(path)) {
            Ok(ffmpeg) => Some(
                ffmpeg
                    .with_timeout(std::time::Duration::from_secs(settings.video_timeout_secs))
                    .with_memory_limit(settings.video_memory_mb * 1024 * 1024),
            ),
            Err(reason) => {
                tracing::warn!(%reason, "video renditions are off: ffmpeg is not usable; GIFs and stills work as before");
                None
            }
        },
    }
}

/// The `tesseract` text in GIFs is read with, when it is usable (one log line when not).
pub(crate) fn text_reader(settings: &Settings) -> Option<gifshelf_media::text::Tesseract> {
    match &settings.tesseract {
        None => {
            tracing::info!("the text in GIFs is not read (GIFSHELF_TESSERACT=off)");
            None
        }
        Some(path) => match gifshelf_media::text::Tesseract::detect(Some(path)) {
            Ok(tesseract) => Some(tesseract),
            Err(reason) => {
                tracing::warn!(%reason, "the text in GIFs is not read: tesseract is not usable; everything else works as before");
                None
            }
        },
    }
}
