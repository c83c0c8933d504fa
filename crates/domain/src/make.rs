//! The GIF maker: a recipe (a time window, a crop, a size, a rate, a speed, a direction, loops and
//! a caption) applied to a source (a video, a GIF, or a GIF of the library), and the record of one
//! such piece of work ("a make") that its maker polls.

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use crate::gif::GifId;
use crate::media::EncodedImage;
use crate::user::UserId;
use crate::ValidationError;

/// The most source time one GIF is made of, in milliseconds.
pub const MAX_CLIP_MS: u32 = 60_000;
/// The widths a recipe may ask for.
pub const WIDTHS: [u32; 4] = [240, 320, 480, 640];
/// The frame rates a recipe may ask for.
pub const FRAME_RATES: [u32; 4] = [10, 15, 20, 25];
/// The smallest crop, in source pixels each way.
pub const MIN_CROP: u32 = 16;
/// The longest caption, in characters.
pub const CAPTION_MAX_CHARS: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MakeId(pub i64);

/// Which way the frames play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Forward,
    Reverse,
    /// Forward, then back again.
    Boomerang,
}

/// A rectangle of the source, in its pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crop {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaptionPosition {
    Top,
    Bottom,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaptionSize {
    S,
    M,
    L,
}

/// Words drawn over every frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caption {
    /// 1 to [`CAPTION_MAX_CHARS`] characters, no control characters, white space collapsed.
    pub text: String,
    pub position: CaptionPosition,
    pub size: CaptionSize,
}

/// A recipe as a client sent it (times in seconds), before its checks.
#[derive(Debug, Clone, PartialEq)]
pub struct RecipeInput {
    pub start: f64,
    pub end: f64,
    pub crop: Option<Crop>,
    pub width: u32,
    pub fps: u32,
    pub speed: f64,
    /// `forward`, `reverse` or `boomerang`.
    pub direction: String,
    /// 0 (the default): forever.
    pub loops: Option<u32>,
    /// Text, `top`|`bottom`, `s`|`m`|`l`.
    pub caption: Option<(String, String, String)>,
}

/// A checked recipe: every value in its range. What the source allows (the crop inside the
/// picture, the window inside the video) is checked against the source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recipe {
    pub start_ms: u32,
    pub end_ms: u32,
    pub crop: Option<Crop>,
    pub width: u32,
    pub fps: u32,
    pub speed: f32,
    pub direction: Direction,
    /// 0: forever.
    pub loops: u16,
    pub caption: Option<Caption>,
}

fn seconds_to_ms(field: &'static str, seconds: f64) -> Result<u32, ValidationError> {
    if !seconds.is_finite() || seconds < 0.0 || seconds > f64::from(u32::MAX / 1000) {
        return Err(ValidationError::new(field, format!("The {field} must be a time in seconds, 0 or more.")));
    }
    Ok((seconds * 1000.0).round() as u32)
}

impl Recipe {
    /// # Errors
    /// `ValidationError` naming the first field out of range (`end`, `crop`, `width`, `fps`,
    /// `speed`, `direction`, `loop`, `caption`).
    pub fn parse(input: &RecipeInput) -> Result<Self, ValidationError> {
        let start_ms = seconds_to_ms("start", input.start)?;
        let end_ms = seconds_to_ms("end", input.end)?;
        if end_ms <= start_ms {
            return Err(ValidationError::new("end", "The end must come after the start."));
        }
        if end_ms - start_ms > MAX_CLIP_MS {
            return Err(ValidationError::new("end", "At most 60 seconds of the source make one GIF."));
        }
        if input.crop.is_some_and(|c| c.width < MIN_CROP || c.height < MIN_CROP) {
            return Err(ValidationError::new("crop", "A crop is at least 16 pixels wide and high."));
        }
        if !WIDTHS.contains(&input.width) {
            return Err(ValidationError::new("width", "The width must be 240, 320, 480 or 640 pixels."));
        }
        if !FRAME_RATES.contains(&input.fps) {
            return Err(ValidationError::new("fps", "The frame rate must be 10, 15, 20 or 25 frames a second."));
        }
        if !(0.5..=2.0).contains(&input.speed) {
            return Err(ValidationError::new("speed", "The speed must be between 0.5× and 2×."));
        }
        let direction = match input.direction.as_str() {
            "forward" => Direction::Forward,
            "reverse" => Direction::Reverse,
            "boomerang" => Direction::Boomerang,
            _ => return Err(ValidationError::new("direction", "The direction must be forward, reverse or boomerang.")),
        };
        let loops = u16::try_from(input.loops.unwrap_or(0))
            .map_err(|_| ValidationError::new("loop", "The loop count must be 0 (forever) to 65535."))?;
        let caption = input.caption.as_ref().map(|(text, position, size)| parse_caption(text, position, size));
        Ok(Self {
            start_ms,
            end_ms,
            crop: input.crop,
            width: input.width,
            fps: input.fps,
            speed: input.speed as f32,
            direction,
            loops,
            caption: caption.transpose()?,
        })
    }

    /// The crop inside a `width`×`height` picture.
    ///
    /// # Errors
    /// `crop` when it reaches outside.
    pub fn check_crop(&self, width: u32, height: u32) -> Result<(), ValidationError> {
        match self.crop {
            Some(c) if c.x.saturating_add(c.width) > width || c.y.saturating_add(c.height) > height => {
                Err(ValidationError::new("crop", format!("The crop reaches outside the {width}×{height} picture.")))
            }
            _ => Ok(()),
        }
    }
}

fn parse_caption(text: &str, position: &str, size: &str) -> Result<Caption, ValidationError> {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().any(char::is_control) {
        return Err(ValidationError::new("caption", "A caption cannot hold control characters."));
    }
    if words.is_empty() || words.chars().count() > CAPTION_MAX_CHARS {
        return Err(ValidationError::new("caption", "A caption is 1 to 100 characters."));
    }
    let position = match position {
        "top" => CaptionPosition::Top,
        "bottom" => CaptionPosition::Bottom,
        _ => return Err(ValidationError::new("caption", "A caption goes at the top or the bottom.")),
    };
    let size = match size {
        "s" => CaptionSize::S,
        "m" => CaptionSize::M,
        "l" => CaptionSize::L,
        _ => return Err(ValidationError::new("caption", "A caption's size is s, m or l.")),
    };
    Ok(Caption { text: words, position, size })
}

/// What a source holds, as the maker read it before accepting the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceInfo {
    /// A video (decoded by ffmpeg) rather than an animation (GIF, WebP).
    pub video: bool,
    pub width: u32,
    pub height: u32,
    /// One play of the source.
    pub duration_ms: u32,
}

/// How far a make has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MakeState {
    Queued,
    Running,
    Done,
    Failed,
}

impl MakeState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Done => "done",
            Self::Failed => "failed",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Queued, Self::Running, Self::Done, Self::Failed].into_iter().find(|s| s.as_str() == raw)
    }

    /// Done or failed: nothing more happens to it.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Done | Self::Failed)
    }
}

/// The title, description, tags and rating of the GIF to be made (as on upload; checked when asked).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MadeGifData {
    pub title: String,
    pub description: String,
    pub tags: Vec<String>,
    pub rating: Option<String>,
}

/// A make to queue: its row and its job are stored together.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMake {
    pub owner: UserId,
    /// The source's bytes in the blob store (removed when the make ends).
    pub source_key: String,
    /// The GIF of the library it is a copy of.
    pub source_gif: Option<GifId>,
    pub recipe: Recipe,
    pub gif_data: MadeGifData,
    pub at: NaiveDateTime,
}

/// Why a make failed, as its maker is told: the error code and sentence of the API's error shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MakeError {
    pub code: String,
    pub message: String,
}

/// A make as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Make {
    pub id: MakeId,
    pub owner: UserId,
    pub state: MakeState,
    /// 0 to 1.
    pub progress: f32,
    pub source_key: String,
    pub source_gif: Option<GifId>,
    pub recipe: Recipe,
    pub gif_data: MadeGifData,
    /// The GIF made (done).
    pub gif: Option<GifId>,
    /// Why it failed (failed).
    pub error: Option<MakeError>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> RecipeInput {
        RecipeInput {
            start: 1.0,
            end: 3.5,
            crop: None,
            width: 320,
            fps: 15,
            speed: 1.0,
            direction: "forward".into(),
            loops: None,
            caption: Some(("  hello   there ".into(), "top".into(), "m".into())),
        }
    }

    #[test]
    fn a_good_recipe_reads_in_milliseconds_with_its_caption_tidied() {
        let recipe = Recipe::parse(&input()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((recipe.start_ms, recipe.end_ms, recipe.loops), (1000, 3500, 0));
        assert_eq!(recipe.caption.map(|c| c.text), Some("hello there".to_owned()));
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases: Vec<(RecipeInput, &str)> = vec![
            (RecipeInput { end: 1.0, ..input() }, "end"),
            (RecipeInput { end: 61.5, ..input() }, "end"),
            (RecipeInput { start: -1.0, ..input() }, "start"),
            (RecipeInput { start: f64::NAN, ..input() }, "start"),
            (RecipeInput { crop: Some(Crop { x: 0, y: 0, width: 15, height: 100 }), ..input() }, "crop"),
            (RecipeInput { width: 300, ..input() }, "width"),
            (RecipeInput { fps: 30, ..input() }, "fps"),
            (RecipeInput { speed: 2.5, ..input() }, "speed"),
            (RecipeInput { speed: f64::NAN, ..input() }, "speed"),
            (RecipeInput { direction: "sideways".into(), ..input() }, "direction"),
            (RecipeInput { loops: Some(70_000), ..input() }, "loop"),
            (RecipeInput { caption: Some(("x".repeat(101), "top".into(), "s".into())), ..input() }, "caption"),
            (RecipeInput { caption: Some(("a\u{7}b".into(), "top".into(), "s".into())), ..input() }, "caption"),
            (RecipeInput { caption: Some(("a\nb".into(), "top".into(), "s".into())), ..input() }, "caption"),
            (RecipeInput { caption: Some(("ab".into(), "middle".into(), "s".into())), ..input() }, "caption"),
        ];
        for (case, field) in cases {
            let err = Recipe::parse(&case).err();
            assert_eq!(err.map(|e| e.field), Some(field), "{case:?}");
        }
    }

    #[test]
    fn a_crop_must_lie_inside_the_picture() {
        let recipe =
            Recipe::parse(&RecipeInput { crop: Some(Crop { x: 100, y: 0, width: 60, height: 40 }), ..input() })
                .unwrap_or_else(|e| panic!("{e}"));
        assert!(recipe.check_crop(160, 120).is_ok());
        assert_eq!(recipe.check_crop(159, 120).err().map(|e| e.field), Some("crop"));
    }
}

/// What the maker's engine made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeGif {
    /// The GIF.
    pub gif: EncodedImage,
    /// For a video source: H.264 in MP4 of the GIF's pictures before their colours were reduced
    /// to a palette (same window, crop, speed, direction and caption, the GIF's size, no sound),
    /// stored as the GIF's `mp4` rendition instead of one made of the GIF.
    pub mp4: Option<EncodedImage>,
}
