//! Captions in the reaction-GIF style: white bold letters with a black outline, drawn by gifshelf
//! itself (no fontconfig, no ffmpeg `drawtext`) in DejaVu Sans Condensed Bold, which ships with the
//! crate (`fonts/`, Bitstream Vera licence). A caption is laid out once per canvas size into an
//! overlay (coverage of the fill and of the outline), then laid over every frame.

use ab_glyph::{point, Font, FontRef, Glyph, PxScale, ScaleFont};

/// Why a caption cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptionError {
    /// Blank, too long, or with control characters.
    #[error("A caption is 1 to {CAPTION_MAX_CHARS} characters without control characters.")]
    BadText,
    /// The shipped font could not be read (a build fault).
    #[error("the caption font is unreadable")]
    Font,
}

static FONT_BYTES: &[u8] = include_bytes!("../fonts/DejaVuSansCondensed-Bold.ttf");

/// The longest caption, in characters.
pub const CAPTION_MAX_CHARS: usize = 100;
/// At most this many lines; a caption that does not fit is drawn smaller.
const MAX_LINES: usize = 3;

/// Where the caption sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptionPlace {
    /// Near the top edge.
    Top,
    /// Near the bottom edge.
    Bottom,
}

/// How large the letters are, as a share of the canvas height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptionSize {
    /// Letters about 8 % of the height.
    Small,
    /// About 11 %.
    Medium,
    /// About 15 %.
    Large,
}

impl CaptionSize {
    fn share_of_height(self) -> f32 {
        match self {
            Self::Small => 0.08,
            Self::Medium => 0.11,
            Self::Large => 0.15,
        }
    }
}

/// A caption to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caption {
    /// The words (white space collapsed when drawn).
    pub text: String,
    /// Top or bottom.
    pub place: CaptionPlace,
    /// How large.
    pub size: CaptionSize,
}

/// A caption laid out for one canvas size: per pixel, how much of the white fill and of the black
/// outline covers it (0 to 255).
pub struct CaptionOverlay {
    width: u32,
    height: u32,
    fill: Vec<u8>,
    outline: Vec<u8>,
}

impl CaptionOverlay {
    /// Lays `caption` out over a `width`×`height` canvas: words wrapped to at most three lines
    /// within 92 % of the width, the letters made smaller until they fit.
    ///
    /// # Errors
    /// A blank caption, one longer than [`CAPTION_MAX_CHARS`], or with control characters.
    pub fn new(caption: &Caption, width: u32, height: u32) -> Result<Self, CaptionError> {
        let text = caption.text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() || text.chars().count() > CAPTION_MAX_CHARS || text.chars().any(char::is_control) {
            return Err(CaptionError::BadText);
        }
        let font = FontRef::try_from_slice(FONT_BYTES).map_err(|_| CaptionError::Font)?;
        let max_width = width as f32 * 0.92;
        let mut px = (height as f32 * caption.size.share_of_height()).max(10.0);
        let lines = loop {
            let lines = wrap(&font, PxScale::from(px), &text, max_width);
            if lines.len() <= MAX_LINES || px <= 8.0 {
                break lines;
            }
            px *= 0.85;
        };
        let scale = PxScale::from(px);
        let scaled = font.as_scaled(scale);
        let line_height = scaled.height() + scaled.line_gap();
        let block = line_height * lines.len() as f32;
        let margin = (height as f32 * 0.04).max(2.0);
        let top = match caption.place {
            CaptionPlace::Top => margin,
            CaptionPlace::Bottom => (height as f32 - margin - block).max(0.0),
        };
        let (w, h) = (width as usize, height as usize);
        let mut fill = vec![0_u8; w * h];
        for (i, line) in lines.iter().enumerate() {
            let line_width = measure(&font, scale, line);
            let x0 = ((width as f32 - line_width) / 2.0).max(0.0);
            let baseline = top + line_height * i as f32 + scaled.ascent();
            for glyph in layout(&font, scale, line, point(x0, baseline)) {
                let Some(outlined) = font.outline_glyph(glyph) else { continue };
                let bounds = outlined.px_bounds();
                outlined.draw(|gx, gy, coverage| {
                    let x = bounds.min.x as i64 + i64::from(gx);
                    let y = bounds.min.y as i64 + i64::from(gy);
                    if (0..w as i64).contains(&x) && (0..h as i64).contains(&y) {
                        let at = y as usize * w + x as usize;
                        fill[at] = fill[at].max((coverage.clamp(0.0, 1.0) * 255.0) as u8);
                    }
                });
            }
        }
        let radius = ((px / 14.0).round() as usize).clamp(1, 6);
        let outline = dilate(&fill, w, h, radius);
        Ok(Self { width, height, fill, outline })
    }

    /// Lays the caption over one RGBA frame of the canvas size: outline first, white over it.
    /// Transparent pixels under the letters become opaque.
    pub fn apply(&self, rgba: &mut [u8]) {
        let pixels = (self.width * self.height) as usize;
        for (i, px) in rgba.chunks_exact_mut(4).take(pixels).enumerate() {
            let (outline, fill) = (u32::from(self.outline[i]), u32::from(self.fill[i]));
            if outline == 0 {
                continue;
            }
            for c in &mut px[..3] {
                let dark = u32::from(*c) * (255 - outline) / 255;
                *c = ((dark * (255 - fill) + 255 * fill) / 255) as u8;
            }
            px[3] = px[3].max(self.outline[i]);
        }
    }

    /// Whether any pixel of this row is covered: for tests and the maker's preview.
    pub fn covers_row(&self, y: u32) -> bool {
        let w = self.width as usize;
        self.outline[y as usize * w..(y as usize + 1) * w].iter().any(|&a| a > 0)
    }
}

fn layout(font: &FontRef<'_>, scale: PxScale, text: &str, origin: ab_glyph::Point) -> Vec<Glyph> {
    let scaled = font.as_scaled(scale);
    let mut caret = origin;
    let mut previous: Option<ab_glyph::GlyphId> = None;
    let mut glyphs = Vec::with_capacity(text.len());
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(prev) = previous {
            caret.x += scaled.kern(prev, id);
        }
        glyphs.push(id.with_scale_and_position(scale, caret));
        caret.x += scaled.h_advance(id);
        previous = Some(id);
    }
    glyphs
}

fn measure(font: &FontRef<'_>, scale: PxScale, text: &str) -> f32 {
    let scaled = font.as_scaled(scale);
    let mut width = 0.0;
    let mut previous: Option<ab_glyph::GlyphId> = None;
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(prev) = previous {
            width += scaled.kern(prev, id);
        }
        width += scaled.h_advance(id);
        previous = Some(id);
    }
    width
}

/// Words into lines of at most `max_width` (a word wider than that gets a line of its own).
fn wrap(font: &FontRef<'_>, scale: PxScale, text: &str, max_width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if measure(font, scale, &format!("{line} {word}")) <= max_width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    if lines.iter().any(|l| measure(font, scale, l) > max_width) {
        // Too wide even alone: report more lines than allowed so that the letters shrink.
        lines.extend(std::iter::repeat_n(String::new(), MAX_LINES));
    }
    lines
}

/// The largest coverage within `radius` (a disc) of each pixel: the outline's coverage.
fn dilate(fill: &[u8], w: usize, h: usize, radius: usize) -> Vec<u8> {
    let r = radius as i64;
    let offsets: Vec<(i64, i64)> = (-r..=r)
        .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
        .filter(|(dx, dy)| dx * dx + dy * dy <= r * r + r)
        .collect();
    let mut out = vec![0_u8; fill.len()];
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            let mut best = 0_u8;
            for &(dx, dy) in &offsets {
                let (nx, ny) = (x + dx, y + dy);
                if nx >= 0 && ny >= 0 && nx < w as i64 && ny < h as i64 {
                    best = best.max(fill[ny as usize * w + nx as usize]);
                    if best == 255 {
                        break;
                    }
                }
            }
            out[y as usize * w + x as usize] = best;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caption(text: &str, place: CaptionPlace, size: CaptionSize) -> Caption {
        Caption { text: text.into(), place, size }
    }

    #[test]
    fn a_caption_sits_where_it_is_asked_and_is_white_inside_black() {
        let (w, h) = (320_u32, 180_u32);
        let bottom = CaptionOverlay::new(&caption("ship it", CaptionPlace::Bottom, CaptionSize::Medium), w, h)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(bottom.covers_row(h - 15) && !bottom.covers_row(20), "bottom caption");
        let top = CaptionOverlay::new(&caption("ship it", CaptionPlace::Top, CaptionSize::Medium), w, h)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(top.covers_row(20) && !top.covers_row(h - 15), "top caption");

        let mut frame = vec![128_u8; (w * h * 4) as usize];
        bottom.apply(&mut frame);
        let lum: Vec<u8> = frame.chunks_exact(4).map(|p| p[0]).collect();
        assert!(lum.contains(&255), "white letters");
        assert!(lum.contains(&0), "a black outline");
        assert!(lum[..(w * 40) as usize].iter().all(|&v| v == 128), "the rest untouched");
    }

    #[test]
    fn long_captions_wrap_and_shrink_and_bad_ones_are_refused() {
        let long = "this is fine said the dog in the burning room while drinking his coffee calmly";
        let overlay = CaptionOverlay::new(&caption(long, CaptionPlace::Top, CaptionSize::Large), 240, 240);
        let overlay = overlay.unwrap_or_else(|e| panic!("{e:?}"));
        let covered = (0..240).filter(|&y| overlay.covers_row(y)).count();
        assert!(covered > 40 && covered < 200, "{covered} rows: wrapped, not one huge line");
        for bad in ["", "   ", &"x".repeat(101), "a\u{7}b"] {
            let refused = CaptionOverlay::new(&caption(bad, CaptionPlace::Top, CaptionSize::Small), 100, 100);
            assert!(matches!(refused, Err(CaptionError::BadText)), "{bad:?}");
        }
    }
}
