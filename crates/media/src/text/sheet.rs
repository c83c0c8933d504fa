//! The sheets text is read from: a few distinct scenes of an animation (the first frame, then each
//! frame that differs clearly from every scene kept so far, and the middle one), each drawn as dark
//! ink on white up to four times: light letters (the white captions of reaction GIFs, whose black
//! outline is then background), dark letters, the light letters their outline cuts off from a light
//! picture (a white caption over a sky), and the dark letters a light box encloses (a caption
//! band); upscaled so that small captions reach the size Tesseract reads best (captions are drawn
//! in proportion to the frame, so a wider frame is upscaled less).

use crate::sink::{CanvasFrame, FrameSink};
use crate::{MediaRejection, Rendition};

/// Scenes kept at most.
const MAX_SCENES: usize = 4;
/// Frames looked at, at most: scenes of very long animations beyond it are not read.
const MAX_FRAMES: u32 = 300;
/// Mean difference (0 to 255) over a 16×16 grid of luminance above which a frame is a new scene.
const NEW_SCENE: u32 = 10;
/// The widest sheet, in pixels: wider sources are upscaled less (or not at all). Upscaled further,
/// large captions grow past the size Tesseract reads well, and each run takes longer.
const MAX_SHEET_WIDTH: u32 = 1000;
/// White rows between panels.
const GAP: u32 = 24;

/// The scenes of one animation and the sheet they make.
pub(crate) struct TextSheet {
    width: u32,
    height: u32,
    frames: u32,
    middle: u32,
    /// Each kept scene's grid signature and its ink panels at source size.
    scenes: Vec<([u8; 256], Vec<Vec<u8>>)>,
}

impl TextSheet {
    pub(crate) fn new(width: u32, height: u32, frames: usize) -> Self {
        let frames = u32::try_from(frames).unwrap_or(u32::MAX).min(MAX_FRAMES);
        Self { width, height, frames: 0, middle: frames / 2, scenes: Vec::new() }
    }

    /// The mean luminance of a 16×16 grid, from at most about 128×128 pixels of the frame.
    fn signature(&self, rgba: &[u8]) -> [u8; 256] {
        let (w, h) = (self.width as usize, self.height as usize);
        let (step_x, step_y) = ((w / 128).max(1), (h / 128).max(1));
        let mut sums = [0_u64; 256];
        let mut counts = [0_u64; 256];
        for y in (0..h).step_by(step_y) {
            let gy = y * 16 / h.max(1);
            for x in (0..w).step_by(step_x) {
                let gx = x * 16 / w.max(1);
                let px = &rgba[(y * w + x) * 4..(y * w + x) * 4 + 4];
                sums[gy * 16 + gx] += u64::from(luminance(px));
                counts[gy * 16 + gx] += 1;
            }
        }
        let mut out = [0_u8; 256];
        for (i, o) in out.iter_mut().enumerate() {
            *o = (sums[i] / counts[i].max(1)) as u8;
        }
        out
    }

    /// The sheets as grayscale PNGs: the panels cut to the box around their ink (a panel without
    /// ink is left out), shared between two sheets of about the same area, so that two runs of
    /// Tesseract (whose time grows with the pixels it is given) read them at once on two cores.
    /// Without ink at all, one blank sheet of no panel (`frames` 0), which needs no reading.
    pub(crate) fn sheets(&self) -> Result<Vec<Rendition>, MediaRejection> {
        let panels: Vec<(&Vec<u8>, Inked)> = self
            .scenes
            .iter()
            .flat_map(|(_, panels)| panels)
            .filter_map(|panel| inked(panel, self.width, self.height).map(|inked| (panel, inked)))
            .collect();
        // Largest first, each to the lighter sheet; reading order within a sheet is kept.
        let mut order: Vec<usize> = (0..panels.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(panels[i].1.width * panels[i].1.height));
        let (mut groups, mut areas) = ([Vec::new(), Vec::new()], [0_u32, 0]);
        for i in order {
            let lighter = usize::from(areas[1] < areas[0]);
            areas[lighter] += panels[i].1.width * panels[i].1.height;
            groups[lighter].push(i);
        }
        let mut sheets = Vec::new();
        if panels.is_empty() {
            sheets.push(Rendition { frames: 0, ..self.sheet_of(&[])? });
        }
        for mut group in groups.into_iter().filter(|g| !g.is_empty()) {
            group.sort_unstable();
            let chosen: Vec<(&Vec<u8>, Inked)> = group.iter().map(|&i| panels[i]).collect();
            sheets.push(self.sheet_of(&chosen)?);
        }
        Ok(sheets)
    }

    /// One sheet of these panels.
    fn sheet_of(&self, panels: &[(&Vec<u8>, Inked)]) -> Result<Rendition, MediaRejection> {
        let scale = (MAX_SHEET_WIDTH / self.width.max(1)).clamp(1, 3);
        let widest = panels.iter().map(|(_, b)| b.width).max().unwrap_or(1);
        let sw = widest * scale + 2 * GAP;
        let sh = GAP + panels.iter().map(|(_, b)| b.height * scale + GAP).sum::<u32>();
        let mut sheet = vec![255_u8; (sw * sh) as usize];
        let mut top = GAP;
        for (panel, inked) in panels {
            let cut = inked.cut(panel, self.width);
            upscale_into(&cut, inked.width, inked.height, scale, &mut sheet, sw, (GAP, top));
            top += inked.height * scale + GAP;
        }
        let img = image::GrayImage::from_raw(sw, sh, sheet).ok_or_else(|| crate::error::internal("sheet size"))?;
        let mut bytes = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
            .map_err(|e| crate::error::internal(format!("sheet encoding: {e}")))?;
        Ok(Rendition { bytes, mime: "image/png", width: sw, height: sh, frames: 1, duration_ms: 0, codec: None })
    }
}

/// The box of a panel holding its ink, with a margin (source pixels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Inked {
    left: u32,
    top: u32,
    width: u32,
    height: u32,
}

/// Ink: at least half dark.
const INK: u8 = 128;
/// Source pixels kept around the ink, so that no letter is cut at its edge.
const MARGIN: u32 = 6;

/// The box around a panel's ink, or `None` when it has none.
fn inked(panel: &[u8], w: u32, h: u32) -> Option<Inked> {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (y, row) in (0..h).zip(panel.chunks_exact(w as usize)) {
        let Some(first) = row.iter().position(|&v| v < INK) else { continue };
        let last = row.iter().rposition(|&v| v < INK).unwrap_or(first);
        x0 = x0.min(first as u32);
        x1 = x1.max(last as u32);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    (x0 != u32::MAX).then(|| {
        let (left, top) = (x0.saturating_sub(MARGIN), y0.saturating_sub(MARGIN));
        let (right, bottom) = ((x1 + MARGIN).min(w - 1), (y1 + MARGIN).min(h - 1));
        Inked { left, top, width: right - left + 1, height: bottom - top + 1 }
    })
}

impl Inked {
    /// The box's pixels of a `w`-wide panel.
    fn cut(self, panel: &[u8], w: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity((self.width * self.height) as usize);
        for y in self.top..self.top + self.height {
            let start = (y * w + self.left) as usize;
            out.extend_from_slice(&panel[start..start + self.width as usize]);
        }
        out
    }
}

impl FrameSink for TextSheet {
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaRejection> {
        let index = self.frames;
        self.frames += 1;
        if self.scenes.len() >= MAX_SCENES || index >= MAX_FRAMES {
            return Ok(());
        }
        let signature = self.signature(frame.rgba);
        let closest = self
            .scenes
            .iter()
            .map(|(kept, _)| kept.iter().zip(&signature).map(|(a, b)| u32::from(a.abs_diff(*b))).sum::<u32>() / 256)
            .min();
        let keep = match closest {
            None => true,
            Some(diff) => diff > NEW_SCENE || (index == self.middle && diff > NEW_SCENE / 3),
        };
        if keep {
            let (light, dark) = inks(frame.rgba);
            let mut panels = vec![light, dark];
            panels.extend(off_the_edge(&panels[0], self.width, self.height));
            panels.extend(holes(&panels[0], self.width, self.height));
            self.scenes.push((signature, panels));
        }
        Ok(())
    }

    fn wants_more(&self) -> bool {
        self.scenes.len() < MAX_SCENES && self.frames < MAX_FRAMES
    }

    fn finish(self: Box<Self>) -> Result<Vec<Rendition>, MediaRejection> {
        self.sheets()
    }
}

/// Rec. 601 luminance of a pixel laid over black (transparent counts as black).
fn luminance(px: &[u8]) -> u8 {
    let l = (299 * u32::from(px[0]) + 587 * u32::from(px[1]) + 114 * u32::from(px[2])) / 1000;
    (l * u32::from(px[3]) / 255) as u8
}

/// Two panels of dark ink on white: how white and unsaturated each pixel is (light letters), and
/// how dark (dark letters on a visible background).
fn inks(rgba: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut light = Vec::with_capacity(rgba.len() / 4);
    let mut dark = Vec::with_capacity(rgba.len() / 4);
    for px in rgba.chunks_exact(4) {
        let alpha = u32::from(px[3]);
        let lo = u32::from(*px[..3].iter().min().unwrap_or(&0)) * alpha / 255;
        let hi = u32::from(*px[..3].iter().max().unwrap_or(&0)) * alpha / 255 + (255 - alpha);
        // Light letters: every channel above 170, fully inked from 230.
        let ink = lo.saturating_sub(170).min(60) * 255 / 60;
        light.push(255 - ink as u8);
        // Dark letters: every channel below 90, fully inked under 40 (a transparent pixel is not ink).
        let ink = if alpha < 128 { 0 } else { (90_u32.saturating_sub(hi)).min(50) * 255 / 50 };
        dark.push(255 - ink as u8);
    }
    (light, dark)
}

/// The light letters of a caption over a light picture (white letters outlined in black on a
/// sky): the light panel without the ink that reaches the frame's edge, which leaves the letters
/// their outline cuts off from the rest. `None` when no ink reaches the edge or nothing else is
/// left.
fn off_the_edge(light: &[u8], w: u32, h: u32) -> Option<Vec<u8>> {
    let reached = from_the_edge(light, w, h);
    let panel: Vec<u8> = light.iter().zip(&reached).map(|(&v, &edge)| if edge { 255 } else { v }).collect();
    (reached.contains(&true) && panel.iter().any(|&v| v < INK)).then_some(panel)
}

/// Dark letters in a light box (a caption band): what the light panel's ink encloses, as ink,
/// when what encloses it spans a third of the frame or more (the holes of light letters, such as
/// the inside of an "o", are left out). `None` when there is none.
fn holes(light: &[u8], w: u32, h: u32) -> Option<Vec<u8>> {
    let inverted: Vec<u8> = light.iter().map(|&v| 255 - v).collect();
    let reached = from_the_edge(&inverted, w, h);
    let (labels, widths) = ink_parts(light, w, h);
    let wide = |label: u32| label > 0 && widths[label as usize - 1] * 3 >= w;
    let (wu, mut panel) = (w as usize, vec![255_u8; light.len()]);
    let mut any = false;
    for (i, out) in panel.iter_mut().enumerate() {
        if inverted[i] >= INK || reached[i] {
            continue;
        }
        // The ink to the hole's left on its row encloses it (the edge is never a hole).
        let row = i - i % wu;
        let enclosing = (row..i).rev().find(|&j| light[j] < INK).map_or(0, |j| labels[j]);
        if wide(enclosing) {
            *out = inverted[i];
            any = true;
        }
    }
    any.then_some(panel)
}

/// The parts of a panel's ink (joined left, right, up, down): each ink pixel's part (from 1; 0
/// for no ink) and each part's width.
fn ink_parts(panel: &[u8], w: u32, h: u32) -> (Vec<u32>, Vec<u32>) {
    let (wu, hu) = (w as usize, h as usize);
    let mut labels = vec![0_u32; panel.len()];
    let mut widths = Vec::new();
    for start in 0..panel.len() {
        if panel[start] >= INK || labels[start] != 0 {
            continue;
        }
        let label = widths.len() as u32 + 1;
        let (mut left, mut right) = (start % wu, start % wu);
        let mut todo = vec![start];
        labels[start] = label;
        while let Some(i) = todo.pop() {
            left = left.min(i % wu);
            right = right.max(i % wu);
            for j in beside(i, wu, hu) {
                if panel[j] < INK && labels[j] == 0 {
                    labels[j] = label;
                    todo.push(j);
                }
            }
        }
        widths.push((right - left + 1) as u32);
    }
    (labels, widths)
}

/// The ink pixels of a `w`×`h` panel joined to its edge by ink (left, right, up, down).
fn from_the_edge(panel: &[u8], w: u32, h: u32) -> Vec<bool> {
    let (w, h) = (w as usize, h as usize);
    let mut reached = vec![false; panel.len()];
    let mut todo: Vec<usize> =
        (0..w).flat_map(|x| [x, (h - 1) * w + x]).chain((0..h).flat_map(|y| [y * w, y * w + w - 1])).collect();
    while let Some(i) = todo.pop() {
        if reached[i] || panel[i] >= INK {
            continue;
        }
        reached[i] = true;
        todo.extend(beside(i, w, h));
    }
    reached
}

/// The pixels left, right, above and below pixel `i` of a `w`×`h` panel, within it.
fn beside(i: usize, w: usize, h: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (i % w, i / w);
    [(x > 0).then(|| i - 1), (x + 1 < w).then(|| i + 1), (y > 0).then(|| i - w), (y + 1 < h).then(|| i + w)]
        .into_iter()
        .flatten()
}

/// Bilinear upscale of a `w`×`h` panel by `scale` into `sheet` (`sheet_width` wide) at `at`.
fn upscale_into(panel: &[u8], w: u32, h: u32, scale: u32, sheet: &mut [u8], sheet_width: u32, at: (u32, u32)) {
    let (w, h, s) = (w as usize, h as usize, scale as usize);
    for y in 0..h * s {
        let fy = ((y as f32 + 0.5) / s as f32 - 0.5).max(0.0);
        let (y0, ty) = (fy as usize, fy.fract());
        let y1 = (y0 + 1).min(h - 1);
        for x in 0..w * s {
            let fx = ((x as f32 + 0.5) / s as f32 - 0.5).max(0.0);
            let (x0, tx) = (fx as usize, fx.fract());
            let x1 = (x0 + 1).min(w - 1);
            let p = |xx: usize, yy: usize| f32::from(panel[yy * w + xx]);
            let top = p(x0, y0) * (1.0 - tx) + p(x1, y0) * tx;
            let bottom = p(x0, y1) * (1.0 - tx) + p(x1, y1) * tx;
            let value = top * (1.0 - ty) + bottom * ty;
            sheet[(at.1 as usize + y) * sheet_width as usize + at.0 as usize + x] = value.round() as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 12×7 panel from rows of `#` (ink) and `.` (white).
    fn panel(rows: &[&str]) -> Vec<u8> {
        rows.iter().flat_map(|r| r.chars().map(|c| if c == '#' { 0 } else { 255 })).collect()
    }

    fn shown(panel: &[u8]) -> Vec<String> {
        panel.chunks(12).map(|row| row.iter().map(|&v| if v < INK { '#' } else { '.' }).collect()).collect()
    }

    #[test]
    fn letters_cut_off_by_their_outline_stay_and_the_light_picture_goes() {
        // A light sky (ink) reaching the edge, a letter inside a ring of outline (white).
        let sky = panel(&[
            "############",
            "##.......###",
            "##.#####.###",
            "##.#...#.###",
            "##.#####.###",
            "##.......###",
            "############",
        ]);
        let letters = off_the_edge(&sky, 12, 7).map(|p| shown(&p));
        let expected = [
            "............",
            "............",
            "...#####....",
            "...#...#....",
            "...#####....",
            "............",
            "............",
        ];
        assert_eq!(letters, Some(expected.map(str::to_owned).to_vec()));
        // Nothing reaches the edge: the light panel alone reads it.
        assert_eq!(off_the_edge(&panel(&[".....#......"; 7]), 12, 7), None);
    }

    #[test]
    fn a_light_box_gives_the_dark_letters_it_encloses() {
        let band = panel(&[
            "............",
            "############",
            "##..##.#.###",
            "##.###..####",
            "##..##.#.###",
            "############",
            "............",
        ]);
        let letters = holes(&band, 12, 7).map(|p| shown(&p));
        let expected = [
            "............",
            "............",
            "..##..#.#...",
            "..#...##....",
            "..##..#.#...",
            "............",
            "............",
        ];
        assert_eq!(letters, Some(expected.map(str::to_owned).to_vec()));
        // Ink that encloses nothing (a bar, an open shape) gives no panel.
        assert_eq!(
            holes(
                &panel(&[
                    "............",
                    "#########...",
                    "............",
                    "............",
                    "............",
                    "............",
                    "............"
                ]),
                12,
                7
            ),
            None
        );
    }
}
