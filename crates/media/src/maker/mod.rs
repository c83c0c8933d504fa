//! The maker's engine for animated sources ("Edit a copy"): a new GIF made of a GIF or an animated
//! WebP by a [`Recipe`] (a time window, a crop, a width, a frame rate, a speed, a direction, a loop
//! count and a caption), decoded by gifshelf's own pipeline and encoded by its own encoder. The
//! source is only read.

mod service;
mod video;

use gif::Repeat;

use crate::anim_encode::{AnimEncoder, Keep};
use crate::caption::{Caption, CaptionOverlay};
use crate::resize::{resize_image, Rect};
use crate::sink::{CanvasFrame, FrameSink, Output, Source, Tools};
use crate::video::{shown_delay, MakerMp4};
use crate::{Limits, MediaRejection, Rendition};

pub use video::{
    is_video, make_from_video, make_from_video_and_mp4, make_from_video_with_progress, probe_video, VideoInfo,
    DEFAULT_VIDEO_FPS,
};

/// The most source time one GIF is made of.
pub const MAX_WINDOW_MS: u32 = 60_000;
/// The widths a recipe may ask for.
pub const WIDTHS: [u32; 4] = [240, 320, 480, 640];
/// The frame rates a recipe may ask for.
pub const FRAME_RATES: [u32; 4] = [10, 15, 20, 25];
/// Frames held for a reversed or boomerang GIF, in bytes of RGBA.
const HOLD_MAX_BYTES: usize = 256 << 20;

/// Which way the frames play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// As the source.
    Forward,
    /// Last frame first.
    Reverse,
    /// Forward, then back again.
    Boomerang,
}

/// A rectangle of the source, in its pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crop {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width, at least 16.
    pub width: u32,
    /// Height, at least 16.
    pub height: u32,
}

/// How to make the new GIF.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    /// Where the window starts in the source, in milliseconds.
    pub start_ms: u32,
    /// Where it ends (exclusive); `None`: the source's end. At most [`MAX_WINDOW_MS`] after the start.
    pub end_ms: Option<u32>,
    /// The part of the picture kept; `None`: all of it.
    pub crop: Option<Crop>,
    /// One of [`WIDTHS`]; a crop narrower than it keeps its own width. `None`: the crop's width.
    pub width: Option<u32>,
    /// One of [`FRAME_RATES`]; `None`: the source's own frames and timing.
    pub fps: Option<u32>,
    /// 0.5 to 2: how much faster than the source it plays.
    pub speed: f32,
    /// Which way it plays.
    pub direction: Direction,
    /// 0: forever; otherwise how many times it plays.
    pub loops: u16,
    /// Words drawn over every frame.
    pub caption: Option<Caption>,
}

impl Recipe {
    /// The source as it is: every frame, forever.
    pub fn copy() -> Self {
        Self {
            start_ms: 0,
            end_ms: None,
            crop: None,
            width: None,
            fps: None,
            speed: 1.0,
            direction: Direction::Forward,
            loops: 0,
            caption: None,
        }
    }

    /// # Errors
    /// A sentence naming the first setting out of range.
    pub fn check(&self) -> Result<(), String> {
        if let Some(end) = self.end_ms {
            if end <= self.start_ms {
                return Err("The end must come after the start.".into());
            }
            if end - self.start_ms > MAX_WINDOW_MS {
                return Err(format!("At most {} seconds of the source make one GIF.", MAX_WINDOW_MS / 1000));
            }
        }
        if self.width.is_some_and(|w| !WIDTHS.contains(&w)) {
            return Err("The width must be 240, 320, 480 or 640 pixels.".into());
        }
        if self.fps.is_some_and(|f| !FRAME_RATES.contains(&f)) {
            return Err("The frame rate must be 10, 15, 20 or 25 frames a second.".into());
        }
        if !(0.5..=2.0).contains(&self.speed) || self.speed.is_nan() {
            return Err("The speed must be between 0.5× and 2×.".into());
        }
        if self.crop.is_some_and(|c| c.width < 16 || c.height < 16) {
            return Err("A crop is at least 16 pixels wide and high.".into());
        }
        Ok(())
    }
}

/// Makes a new GIF of an animated GIF or WebP by `recipe`.
///
/// # Errors
/// The source's own rejections (as an upload's); `InvalidImage` for a recipe out of range, a crop
/// outside the picture, a window past the end or a still image; `ImageTooLarge` for a reversed
/// animation too long to hold.
pub fn remake(bytes: &[u8], recipe: &Recipe, limits: &Limits) -> Result<Rendition, MediaRejection> {
    recipe.check().map_err(MediaRejection::invalid)?;
    if matches!(crate::sniff(bytes), Some(crate::MediaKind::Png | crate::MediaKind::Jpeg)) {
        return Err(MediaRejection::invalid("Only animations (GIF or animated WebP) can be made into a new GIF here."));
    }
    let tools = Tools { ffmpeg: None, recipe: Some(recipe) };
    let made = crate::make(bytes, limits, &[Output::Remake], tools)?;
    made.renditions.into_iter().next().ok_or_else(|| crate::error::internal("the remade GIF is missing"))
}

/// A made GIF, and the MP4 of the same pictures for a video source.
#[derive(Debug)]
pub struct Made {
    /// The GIF.
    pub gif: Rendition,
    /// H.264 of the pictures before their colours were reduced (see
    /// [`make_from_video_and_mp4`]); `None` for animated sources.
    pub mp4: Option<Rendition>,
}

/// What every maker source ends in: pictures (cropped, resized, captioned) with their times,
/// encoded in the recipe's direction. Forward frames are encoded as they come; reversed and
/// boomerang ones are held, within a bound, until the last.
pub(crate) struct Assembler {
    direction: Direction,
    /// The MP4 of a video source, fed the same pictures as the GIF (see [`MakerMp4`]).
    mp4: Option<MakerMp4>,
    size: (u32, u32),
    overlay: Option<CaptionOverlay>,
    enc: AnimEncoder,
    /// A picture made but not encoded yet: its time grows while later samples repeat it.
    pending: Option<(Vec<u8>, u32)>,
    held: Vec<(Vec<u8>, u32)>,
    frames: u32,
    shown_cs: u32,
}

impl Assembler {
    /// For pictures of `size` (after the crop and the resize), with the recipe's caption, loops and
    /// direction; `resized` says the pictures were resampled (their colours are then mapped
    /// approximately).
    pub(crate) fn new(recipe: &Recipe, size: (u32, u32), resized: bool) -> Result<Self, MediaRejection> {
        let overlay = match &recipe.caption {
            Some(caption) => {
                Some(CaptionOverlay::new(caption, size.0, size.1).map_err(|e| MediaRejection::invalid(e.to_string()))?)
            }
            None => None,
        };
        let repeat = if recipe.loops == 0 { Repeat::Infinite } else { Repeat::Finite(recipe.loops) };
        let approximate = resized || overlay.is_some();
        // Resampled pictures: a tolerance that follows the picture (none on flat areas and
        // edges, more on grain), not the thumbnails' one number that smears screen recordings.
        let keep = if approximate { Keep::Adaptive } else { Keep::Exact };
        let enc = AnimEncoder::new(size.0, size.1, repeat, None).with_keep(keep);
        Ok(Self {
            direction: recipe.direction,
            mp4: None,
            size,
            overlay,
            enc,
            pending: None,
            held: Vec::new(),
            frames: 0,
            shown_cs: 0,
        })
    }

    /// Also makes an MP4 of the pictures, at `fps` (a video source's).
    pub(crate) fn with_mp4(mut self, ffmpeg: &crate::Ffmpeg, fps: u32) -> Result<Self, MediaRejection> {
        self.mp4 = Some(MakerMp4::start(ffmpeg, self.size, fps)?);
        Ok(self)
    }

    /// Shows `picture` (RGBA of the output size, the caption not yet drawn) for `cs` hundredths
    /// more; `None` lengthens the pending picture instead (a repeat).
    pub(crate) fn push(&mut self, picture: Option<Vec<u8>>, cs: u32) -> Result<(), MediaRejection> {
        match (picture, self.pending.as_mut()) {
            (None, Some((_, delay))) => *delay += cs,
            (None, None) => {}
            (Some(mut picture), _) => {
                if let Some(overlay) = &self.overlay {
                    overlay.apply(&mut picture);
                }
                if let Some(done) = self.pending.replace((picture, cs)) {
                    self.output(done)?;
                }
            }
        }
        Ok(())
    }

    fn output(&mut self, (picture, cs): (Vec<u8>, u32)) -> Result<(), MediaRejection> {
        let cs = cs.max(2);
        if self.direction == Direction::Forward {
            return self.encode(&picture, cs);
        }
        let held: usize = self.held.iter().map(|(p, _)| p.len()).sum();
        if held + picture.len() > HOLD_MAX_BYTES {
            return Err(MediaRejection::ImageTooLarge(
                "Reversed and boomerang GIFs hold every frame: trim this one shorter or make it smaller.".into(),
            ));
        }
        self.held.push((picture, cs));
        Ok(())
    }

    fn encode(&mut self, picture: &[u8], cs: u32) -> Result<(), MediaRejection> {
        let delay = u16::try_from(cs).unwrap_or(u16::MAX);
        self.frames += 1;
        self.shown_cs += shown_delay(delay);
        if let Some(mp4) = self.mp4.as_mut() {
            mp4.push(picture, cs)?;
        }
        self.enc.push(picture, Rect::full(self.size.0, self.size.1), delay, true)
    }

    /// The new GIF, and its MP4 when one was asked for ([`with_mp4`](Self::with_mp4)).
    ///
    /// # Errors
    /// `InvalidImage` when no picture came (an empty window).
    pub(crate) fn finish(mut self) -> Result<Made, MediaRejection> {
        if let Some(last) = self.pending.take() {
            self.output(last)?;
        }
        let held = std::mem::take(&mut self.held);
        match self.direction {
            Direction::Forward => {}
            Direction::Reverse => {
                for (picture, cs) in held.iter().rev() {
                    self.encode(picture, *cs)?;
                }
            }
            Direction::Boomerang => {
                let back = held.iter().rev().skip(1).take(held.len().saturating_sub(2));
                for (picture, cs) in held.iter().chain(back) {
                    self.encode(picture, *cs)?;
                }
            }
        }
        if self.frames == 0 {
            return Err(MediaRejection::invalid("No frame of the source falls inside the chosen window."));
        }
        let (width, height) = self.size;
        let (frames, duration_ms) = (self.frames, self.shown_cs * 10);
        let bytes = self.enc.finish()?;
        let mp4 = self.mp4.take().map(MakerMp4::finish).transpose()?;
        Ok(Made { gif: Rendition { bytes, mime: "image/gif", width, height, frames, duration_ms, codec: None }, mp4 })
    }
}

/// Frame times at a rate, in whole hundredths that add up: 15 fps shows 7, 6 and 7 cs (not 7
/// always, which would drift a second every 15).
pub(crate) struct Pace {
    fps: u64,
    frames: u64,
}

impl Pace {
    pub(crate) fn new(fps: u32) -> Self {
        Self { fps: u64::from(fps.max(1)), frames: 0 }
    }

    /// The next frame's time in hundredths of a second.
    pub(crate) fn next_cs(&mut self) -> u32 {
        let at = |k: u64| (k * 100 + self.fps / 2) / self.fps;
        let cs = at(self.frames + 1) - at(self.frames);
        self.frames += 1;
        cs as u32
    }
}

/// The output size of a `crop`: `width` (a crop narrower keeps its own), the height in proportion.
pub(crate) fn output_size(crop_width: u32, crop_height: u32, width: Option<u32>) -> (u32, u32) {
    let w = width.map_or(crop_width, |w| w.min(crop_width));
    let h = ((u64::from(crop_height) * u64::from(w) + u64::from(crop_width) / 2) / u64::from(crop_width.max(1))).max(1);
    (w, h as u32)
}

/// The remake's sink: picks the frames of the window at the recipe's rate, crops and resizes them
/// for the [`Assembler`].
pub(crate) struct Remaker {
    recipe: Recipe,
    crop: Crop,
    canvas_width: u32,
    size: (u32, u32),
    out: Option<Assembler>,
    /// Where the next source frame starts, in ms of source time.
    clock: u32,
    end: u32,
    /// The next output frame's source time (with a frame rate).
    next_sample: f64,
    pace: Pace,
}

impl Remaker {
    pub(crate) fn new(recipe: &Recipe, source: &Source<'_>, _limits: &Limits) -> Result<Self, MediaRejection> {
        if source.delays.len() < 2 {
            return Err(MediaRejection::invalid(
                "Only animations (GIF or animated WebP) can be made into a new GIF here.",
            ));
        }
        let crop = recipe.crop.unwrap_or(Crop { x: 0, y: 0, width: source.width, height: source.height });
        if crop.x.saturating_add(crop.width) > source.width || crop.y.saturating_add(crop.height) > source.height {
            return Err(MediaRejection::invalid("The crop reaches outside the picture."));
        }
        let total: u32 = source.delays.iter().map(|&d| shown_delay(d) * 10).sum();
        if recipe.start_ms >= total {
            return Err(MediaRejection::invalid("The start is past the end of the animation."));
        }
        let end = recipe.end_ms.unwrap_or(total).min(total).min(recipe.start_ms + MAX_WINDOW_MS);
        let size = output_size(crop.width, crop.height, recipe.width);
        let out = Assembler::new(recipe, size, size != (crop.width, crop.height))?;
        Ok(Self {
            recipe: recipe.clone(),
            crop,
            canvas_width: source.width,
            size,
            out: Some(out),
            clock: 0,
            end,
            next_sample: f64::from(recipe.start_ms),
            pace: Pace::new(recipe.fps.unwrap_or(1)),
        })
    }

    /// The source frame cropped and resized.
    fn picture(&self, canvas: &[u8]) -> Result<Vec<u8>, MediaRejection> {
        let c = self.crop;
        let mut cropped = Vec::with_capacity((c.width * c.height * 4) as usize);
        for y in c.y..c.y + c.height {
            let at = ((y * self.canvas_width + c.x) * 4) as usize;
            cropped.extend_from_slice(&canvas[at..at + (c.width * 4) as usize]);
        }
        resize_image(&cropped, c.width, c.height, 4, self.size.0, self.size.1)
    }

    fn assembler(&mut self) -> Result<&mut Assembler, MediaRejection> {
        self.out.as_mut().ok_or_else(|| crate::error::internal("the remake was already finished"))
    }
}

impl FrameSink for Remaker {
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaRejection> {
        let from = self.clock;
        let to = from + shown_delay(frame.delay) * 10;
        self.clock = to;
        if to <= self.recipe.start_ms || from >= self.end {
            return Ok(());
        }
        let speed = f64::from(self.recipe.speed);
        match self.recipe.fps {
            Some(fps) => {
                let step = 1000.0 / f64::from(fps) * speed;
                let mut fresh = true;
                while self.next_sample < f64::from(to.min(self.end)) {
                    let picture = if fresh { Some(self.picture(frame.rgba)?) } else { None };
                    fresh = false;
                    let cs = self.pace.next_cs();
                    self.assembler()?.push(picture, cs)?;
                    self.next_sample += step;
                }
            }
            None => {
                let shown = to.min(self.end) - from.max(self.recipe.start_ms);
                let cs = (f64::from(shown) / 10.0 / speed).round() as u32;
                let picture = self.picture(frame.rgba)?;
                self.assembler()?.push(Some(picture), cs)?;
            }
        }
        Ok(())
    }

    fn wants_more(&self) -> bool {
        self.clock < self.end
    }

    fn finish(mut self: Box<Self>) -> Result<Vec<Rendition>, MediaRejection> {
        let out = self.out.take().ok_or_else(|| crate::error::internal("the remake was already finished"))?;
        Ok(vec![out.finish()?.gif])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_times_add_up_to_the_rate() {
        for fps in FRAME_RATES {
            let mut pace = Pace::new(fps);
            let times: Vec<u32> = (0..fps * 3).map(|_| pace.next_cs()).collect();
            assert_eq!(times.iter().sum::<u32>(), 300, "{fps} fps: {times:?}");
            assert!(times.iter().all(|&cs| cs.abs_diff(100 / fps) <= 1), "{fps} fps: {times:?}");
        }
    }
}
