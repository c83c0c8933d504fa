//! Arbitrary bytes into the upload pipeline: a refusal the uploader can read (never `Internal`, never
//! a panic, an abort or a hang past the timeout), or renditions within every limit.
#![no_main]

use std::time::Duration;

use gifshelf_media::{Limits, MediaError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits { timeout: Duration::from_secs(5), ..Limits::default() };
    match gifshelf_media::process(data, &limits) {
        Ok(out) => {
            assert!(out.width >= 1 && out.width <= limits.max_width, "width {}", out.width);
            assert!(out.height >= 1 && out.height <= limits.max_height, "height {}", out.height);
            assert!(out.frames >= 1 && out.frames <= limits.max_frames, "frames {}", out.frames);
            for rendition in [&out.thumbnail, &out.static_thumbnail] {
                assert!(rendition.width <= limits.thumb_width.max(out.width), "thumbnail width {}", rendition.width);
                assert!(rendition.width >= 1 && rendition.height >= 1 && !rendition.bytes.is_empty());
            }
        }
        Err(MediaError::Internal(detail)) => panic!("an internal error for uploaded bytes: {detail}"),
        Err(MediaError::UnsupportedType | MediaError::Corrupt(_) | MediaError::TooLarge(_) | MediaError::Timeout) => {}
    }
});
