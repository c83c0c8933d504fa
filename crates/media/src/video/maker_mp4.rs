//! The maker's own MP4 of a video source, written beside the GIF from the same pictures.

use super::{even, Ffmpeg, Job, Video};
use crate::{MediaRejection, Rendition};

/// The maker's MP4 of a video source: the made GIF's pictures (cropped, scaled, captioned, in
/// its order) before their colours were reduced to a palette, H.264 at the recipe's constant
/// rate, at the GIF's size (even), no sound, `yuv420p`, `faststart`: what the renditions job
/// would make of the GIF, without the palette's banding and dithering.
pub(crate) struct MakerMp4 {
    job: Job,
    size: (u32, u32),
    fps: u32,
    /// Hundredths of a second shown so far, and frames written for them.
    shown_cs: u64,
    written: u64,
}

impl MakerMp4 {
    /// Starts `ffmpeg` for pictures of `size` shown at `fps`.
    pub(crate) fn start(ffmpeg: &Ffmpeg, size: (u32, u32), fps: u32) -> Result<Self, MediaRejection> {
        let out = (even(size.0), even(size.1));
        let job = Job::start(ffmpeg, size, &fps.to_string(), None, &[(Video::Mp4, out)])?;
        Ok(Self { job, size, fps: fps.max(1), shown_cs: 0, written: 0 })
    }

    /// Adds `rgba`, shown for `cs` hundredths: written as often as the constant rate needs (a
    /// picture held for several of the GIF's samples is written that many times).
    pub(crate) fn push(&mut self, rgba: &[u8], cs: u32) -> Result<(), MediaRejection> {
        self.shown_cs += u64::from(cs);
        let due = (self.shown_cs * u64::from(self.fps) + 50) / 100;
        while self.written < due {
            self.job.write(rgba)?;
            self.written += 1;
        }
        Ok(())
    }

    /// The MP4, once every picture was pushed.
    pub(crate) fn finish(mut self) -> Result<Rendition, MediaRejection> {
        self.job.end()?;
        let (width, height) = (even(self.size.0), even(self.size.1));
        let frames = u32::try_from(self.written).unwrap_or(u32::MAX);
        let duration_ms = u32::try_from(self.written * 1000 / u64::from(self.fps)).unwrap_or(u32::MAX);
        Ok(Rendition {
            bytes: self.job.output(Video::Mp4)?,
            mime: Video::Mp4.mime(),
            width,
            height,
            frames,
            duration_ms,
            codec: Video::Mp4.codec(),
        })
    }
}
