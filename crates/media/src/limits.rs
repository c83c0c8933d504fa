//! Processing limits, the checks made against them and the processing deadline.

use std::time::{Duration, Instant};

use crate::MediaRejection;

/// Bounds on what an upload may ask of the pipeline; every one is checked from the headers,
/// before any pixel buffer is allocated.
///
/// Memory: the GIF pipeline holds an RGBA canvas (4 bytes per canvas pixel), a second one only
/// when a frame uses the "restore to previous" disposal, the decoder's one-byte-per-pixel frame
/// buffer and small thumbnail-sized buffers, so its peak is about 9 bytes per canvas pixel. The
/// WebP decoder holds about 12 bytes per canvas pixel. `max_canvas_pixels` is therefore the memory
/// cap: the default (8192×8192/2, about 33.5 megapixels) bounds one job to roughly 400 MB in the
/// worst case, while ordinary uploads (under 2 megapixels) stay well below 64 MB.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted width of the canvas or of any frame, in pixels (default 8192).
    pub max_width: u32,
    /// Largest accepted height of the canvas or of any frame, in pixels (default 8192).
    pub max_height: u32,
    /// Largest accepted number of frames (default 2000).
    pub max_frames: u32,
    /// Budget of decoded pixels across all frames: the sum of the frame rectangles for GIF, the
    /// canvas times the frame count for animated WebP (default 1,000,000,000, about ten seconds
    /// of decoding work on one core).
    pub max_total_pixels: u64,
    /// Largest accepted canvas (width × height); this is the memory cap (default 8192×8192/2).
    pub max_canvas_pixels: u64,
    /// Wall-clock budget for one `process` call, checked between frames (default 20 s).
    pub timeout: Duration,
    /// Width of the thumbnails; narrower images keep their width (default 320).
    pub thumb_width: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_width: 8192,
            max_height: 8192,
            max_frames: 2000,
            max_total_pixels: 1_000_000_000,
            max_canvas_pixels: 8192 * 8192 / 2,
            timeout: Duration::from_secs(20),
            thumb_width: 320,
        }
    }
}

impl Limits {
    /// Checks a canvas (or a still image's) dimensions.
    pub(crate) fn check_canvas(&self, width: u32, height: u32) -> Result<(), MediaRejection> {
        if width == 0 || height == 0 {
            return Err(MediaRejection::invalid(format!(
                "The image declares an empty size of {width}×{height} pixels."
            )));
        }
        if width > self.max_width || height > self.max_height {
            return Err(MediaRejection::ImageTooLarge(format!(
                "The image is {width}×{height} pixels; the limit is {}×{}.",
                self.max_width, self.max_height
            )));
        }
        let pixels = u64::from(width) * u64::from(height);
        if pixels > self.max_canvas_pixels {
            return Err(MediaRejection::ImageTooLarge(format!(
                "The image is {width}×{height} pixels ({:.1} megapixels); the limit is {:.1} megapixels.",
                pixels as f64 / 1e6,
                self.max_canvas_pixels as f64 / 1e6
            )));
        }
        Ok(())
    }

    /// Checks one animation frame's rectangle (its own size, not its position).
    pub(crate) fn check_frame(&self, index: u32, width: u32, height: u32) -> Result<(), MediaRejection> {
        let pixels = u64::from(width) * u64::from(height);
        if width > self.max_width || height > self.max_height || pixels > self.max_canvas_pixels {
            return Err(MediaRejection::ImageTooLarge(format!(
                "Frame {} is {width}×{height} pixels; the limit is {}×{} and {:.1} megapixels.",
                index + 1,
                self.max_width,
                self.max_height,
                self.max_canvas_pixels as f64 / 1e6
            )));
        }
        Ok(())
    }

    /// Checks a running frame count (call with the count so far).
    pub(crate) fn check_frame_count(&self, frames: u32) -> Result<(), MediaRejection> {
        if frames > self.max_frames {
            return Err(MediaRejection::ImageTooLarge(format!(
                "The animation has more than {} frames, which is the limit.",
                self.max_frames
            )));
        }
        Ok(())
    }

    /// Checks a running total of decoded pixels.
    pub(crate) fn check_total_pixels(&self, total: u64) -> Result<(), MediaRejection> {
        if total > self.max_total_pixels {
            return Err(MediaRejection::ImageTooLarge(format!(
                "The animation has more than {:.0} megapixels across its frames; the limit is {:.0}.",
                total as f64 / 1e6,
                self.max_total_pixels as f64 / 1e6
            )));
        }
        Ok(())
    }

    /// The thumbnail size for a source of `width`×`height`: at most `thumb_width` wide, never
    /// upscaled, height proportional and at least 1.
    pub(crate) fn thumb_size(&self, width: u32, height: u32) -> (u32, u32) {
        fit_width(width, height, self.thumb_width)
    }
}

/// The size of a `width`×`height` image scaled to at most `max` wide: never upscaled, the other
/// side proportional (rounded to nearest) and at least 1.
pub(crate) fn fit_width(width: u32, height: u32, max: u32) -> (u32, u32) {
    let tw = width.min(max.max(1)).max(1);
    if tw == width {
        return (width, height.max(1));
    }
    let th = (u64::from(height) * u64::from(tw) + u64::from(width) / 2) / u64::from(width);
    (tw, u32::try_from(th).unwrap_or(u32::MAX).max(1))
}

/// [`fit_width`] for the height: at most `max` high, never upscaled.
pub(crate) fn fit_height(width: u32, height: u32, max: u32) -> (u32, u32) {
    let (h, w) = fit_width(height, width, max);
    (w, h)
}

/// The processing deadline of one `process` call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    start: Instant,
    budget: Duration,
}

impl Deadline {
    pub(crate) fn new(budget: Duration) -> Self {
        Deadline { start: Instant::now(), budget }
    }

    pub(crate) fn check(&self) -> Result<(), MediaRejection> {
        if self.start.elapsed() > self.budget {
            Err(MediaRejection::ImageTooComplex)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumb_size_never_upscales() {
        let l = Limits::default();
        assert_eq!(l.thumb_size(116, 100), (116, 100));
        assert_eq!(l.thumb_size(1000, 175), (320, 56));
        assert_eq!(l.thumb_size(8192, 1), (320, 1));
        assert_eq!(l.thumb_size(320, 7), (320, 7));
        assert_eq!(fit_height(1000, 175, 90), (514, 90));
        assert_eq!(fit_height(116, 100, 200), (116, 100));
        assert_eq!(fit_width(116, 100, 220), (116, 100));
    }
}
