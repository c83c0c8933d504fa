//! How far a resampled frame's colours may stray from the nearest palette colour to keep a shown
//! pixel unchanged, or to continue the run of the pixel on its left: fewer changed pixels and
//! longer runs are fewer bytes, and the error they cost is what decides how far.

use super::screen::inside;
use crate::resize::Rect;

/// Extra squared RGB error tolerated over the nearest palette colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// None: exact copies stay exact.
    Exact,
    /// The same everywhere (animated thumbnails, see `KEEP_CLOSE_RESIZED`).
    Uniform(u32),
    /// Following the picture ([`Tolerances`]): the maker's video frames.
    Adaptive,
}

/// The most extra squared error an adaptive tolerance allows (about 10 levels a channel).
const ADAPTIVE_MAX: u32 = 300;

/// A tolerance is the grain measured around the pixel times `ADAPTIVE_GAIN / 8`. Higher gains
/// (or a higher maximum) trade the camera clip's SSIM for bytes along one line: 2× scores 0.862
/// at 4904 KB, 8× 0.841 at 4625 KB (`cargo xtask bench make --clip camera`).
const ADAPTIVE_GAIN: u32 = 16;

/// A pixel is steady when it changed since the previous frame by at most `STEADY_GAIN` times its
/// grain measure plus `STEADY_FLOOR` (the compression's flicker on a flat area), in squared RGB
/// error. Grain alone changes a pixel by about half its measure.
const STEADY_GAIN: u32 = 4;
const STEADY_FLOOR: u32 = 48;

/// Per-pixel tolerances of one frame, in squared RGB error.
///
/// The grain around a pixel is measured as the squared differences of neighbouring pixels (to
/// the right and below, over the three channels), averaged over the 3×3 pixels around it, then
/// the least of those averages over the 5×5 pixels around it. A flat area or a smooth gradient
/// measures about nothing; so does an edge or a thin line on a flat area (some average nearby
/// does not reach it), where every level of error shows; grain and noise measure high
/// everywhere, and there errors of their size are not seen (and a structure measure such as
/// SSIM hardly counts them). A run along a row may take its left neighbour's colour within the
/// tolerance; a shown colour is kept within it only when the source pixel is steady (it changed
/// since the previous frame by no more than its grain explains): where the source clearly
/// changed (a cursor passed) the new colour is drawn.
#[derive(Default)]
pub(super) struct Tolerances {
    /// The picture's width.
    width: usize,
    /// The part of the picture measured: the changed pixels' box and a margin around it.
    area: Rect,
    /// Tolerance of each pixel of `area`.
    run: Vec<u32>,
    /// Whether each pixel of `area` is steady.
    steady: Vec<bool>,
    /// Whether each pixel of `area` measured no grain at all (a flat area, a gradient, an edge).
    flat: Vec<bool>,
    scratch: Vec<u32>,
    /// `area`'s pixels of the new frame.
    pixels: Vec<u8>,
}

/// How far the measure around a pixel reaches: one pixel for the differences, one for the 3×3
/// average, and the least's radius.
const REACH: u32 = 2 + LEAST_RADIUS as u32;

/// The least is taken over the (2r + 1)² pixels around: 5×5.
const LEAST_RADIUS: usize = 2;

impl Tolerances {
    /// Measures the frame `rgba` (`width` pixels a row) against the previous one, `last`, for the
    /// pixels of `changed` (the others are not asked for).
    pub(super) fn measure(&mut self, rgba: &[u8], last: &[u8], width: usize, changed: Rect) {
        let n = rgba.len() / 4;
        self.width = width;
        if width == 0 || n == 0 || changed.is_empty() {
            self.area = Rect::default();
            return;
        }
        let height = n / width;
        let area = Rect {
            x0: changed.x0.saturating_sub(REACH),
            y0: changed.y0.saturating_sub(REACH),
            x1: (changed.x1 + REACH).min(width as u32),
            y1: (changed.y1 + REACH).min(height as u32),
        };
        self.area = area;
        let (w, h) = (area.width() as usize, area.height() as usize);
        self.pixels.clear();
        for y in area.y0..area.y1 {
            let row = (y as usize * width + area.x0 as usize) * 4;
            self.pixels.extend_from_slice(&rgba[row..row + w * 4]);
        }
        self.run.resize(w * h, 0);
        self.steady.resize(w * h, false);
        self.flat.resize(w * h, false);
        self.scratch.resize(w * h, 0);
        gradient_energy(&self.pixels, w, h, &mut self.run);
        box3(&mut self.run, &mut self.scratch, w, h);
        least(&mut self.run, &mut self.scratch, w, h);
        let r = LEAST_RADIUS;
        for (row, y) in (area.y0 as usize..area.y1 as usize).enumerate() {
            let k0 = row * w;
            for (i, x) in (area.x0 as usize..area.x1 as usize).enumerate() {
                let k = k0 + i;
                let mut grain = self.run[k];
                self.flat[k] = grain == 0;
                // Next to the picture's border a window cannot reach past a small object to the
                // flat area beyond it: the border's pixels get no tolerance.
                if x < r || y < r || x + r >= width || y + r >= height {
                    grain = 0;
                }
                let p = (y * width + x) * 4;
                let change = sq_diff(&rgba[p..p + 3], &last[p..p + 3]);
                self.steady[k] = change <= grain.saturating_mul(STEADY_GAIN) + STEADY_FLOOR;
                self.run[k] = (grain * ADAPTIVE_GAIN / 8).min(ADAPTIVE_MAX);
            }
        }
    }

    /// Where pixel `p` of the picture is in the measured `area`, if it is in it.
    fn index(&self, p: usize) -> Option<usize> {
        let (x, y) = ((p % self.width.max(1)) as u32, (p / self.width.max(1)) as u32);
        inside(&self.area, x, y)
            .then(|| (y - self.area.y0) as usize * self.area.width() as usize + (x - self.area.x0) as usize)
    }

    /// What pixel `p` tolerates (nothing outside the measured area).
    pub(super) fn at(&self, p: usize) -> Tolerance {
        let Some(k) = self.index(p) else { return Tolerance::default() };
        match (self.run.get(k), self.steady.get(k), self.flat.get(k)) {
            (Some(&t), Some(&steady), Some(&flat)) => Tolerance { keep: steady.then_some(t), run: Some(t), flat },
            _ => Tolerance::default(),
        }
    }
}

/// What one pixel tolerates.
#[derive(Clone, Copy, Default)]
pub(super) struct Tolerance {
    /// To keep its shown colour (`None`: the pixel is not steady).
    pub keep: Option<u32>,
    /// To continue a run.
    pub run: Option<u32>,
    /// It measured no grain: there every level of error shows, and its colour is mapped exactly.
    pub flat: bool,
}

fn sq_diff(a: &[u8], b: &[u8]) -> u32 {
    a.iter().zip(b).map(|(&x, &y)| u32::from(x.abs_diff(y)).pow(2)).sum()
}

/// Squared differences of each pixel with the ones to its right and below, summed over RGB (the
/// last column and row compare with themselves to the right and below).
fn gradient_energy(rgba: &[u8], width: usize, height: usize, out: &mut [u32]) {
    for y in 0..height {
        let row = &rgba[y * width * 4..(y + 1) * width * 4];
        let below = if y + 1 < height { &rgba[(y + 1) * width * 4..(y + 2) * width * 4] } else { row };
        let out = &mut out[y * width..(y + 1) * width];
        for x in 0..width {
            let c = &row[x * 4..x * 4 + 3];
            let right = (x + 1).min(width - 1) * 4;
            out[x] = sq_diff(c, &row[right..right + 3]) + sq_diff(c, &below[x * 4..x * 4 + 3]);
        }
    }
}

/// `v` averaged over the 3×3 pixels around each (fewer at the borders).
fn box3(v: &mut [u32], tmp: &mut [u32], width: usize, height: usize) {
    along_rows(v, tmp, width, 1, |a, b| a + b, 0);
    down_columns(tmp, v, width, height, 1, |a, b| a + b, 0);
    for e in v.iter_mut() {
        *e /= 9;
    }
}

/// The least of `v` over the pixels around each (see [`LEAST_RADIUS`]).
fn least(v: &mut [u32], tmp: &mut [u32], width: usize, height: usize) {
    along_rows(v, tmp, width, LEAST_RADIUS, u32::min, u32::MAX);
    down_columns(tmp, v, width, height, LEAST_RADIUS, u32::min, u32::MAX);
}

/// `to[x]` folds `from` over `x - r ..= x + r` of its row, within the row.
fn along_rows(from: &[u32], to: &mut [u32], width: usize, r: usize, fold: impl Fn(u32, u32) -> u32, init: u32) {
    for (src, dst) in from.chunks_exact(width).zip(to.chunks_exact_mut(width)) {
        for (x, out) in dst.iter_mut().enumerate() {
            let window = &src[x.saturating_sub(r)..=(x + r).min(width - 1)];
            *out = window.iter().fold(init, |a, &b| fold(a, b));
        }
    }
}

/// `to[p]` folds `from` over the rows `y - r ..= y + r` of `p`'s column, within the picture:
/// whole rows at a time.
fn down_columns(
    from: &[u32],
    to: &mut [u32],
    width: usize,
    height: usize,
    r: usize,
    fold: impl Fn(u32, u32) -> u32,
    init: u32,
) {
    for (y, dst) in to.chunks_exact_mut(width).enumerate() {
        dst.fill(init);
        for k in y.saturating_sub(r)..=(y + r).min(height - 1) {
            for (out, &v) in dst.iter_mut().zip(&from[k * width..(k + 1) * width]) {
                *out = fold(*out, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use gif::Repeat;
    use image::codecs::gif::GifDecoder;
    use image::AnimationDecoder;

    use super::Keep;
    use crate::anim_encode::AnimEncoder;
    use crate::resize::Rect;

    const W: u32 = 64;
    const H: u32 = 48;
    /// Rows from here down are grain; above, two flat colours meet at `EDGE`.
    const GRAIN_ROW: u32 = 32;
    const EDGE: u32 = 32;
    const LEFT: [u8; 3] = [200, 60, 40];
    /// Close to `LEFT` (192 of squared error): a uniform tolerance of 300 runs one into the other.
    const RIGHT: [u8; 3] = [208, 68, 48];

    /// The next grey of the tests' grain (a linear congruential sequence from `seed`).
    fn grain(seed: &mut u32) -> [u8; 3] {
        *seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let v = 110 + (*seed >> 24) as u8 % 40;
        [v, v, v]
    }

    /// Frame `k`: the two flat colours, a 4×6 black cursor with a faint rim (5 % darker, within
    /// the uniform tolerance of `LEFT`) moving 6 px right a frame, and fresh grain below.
    fn frame(k: u32, seed: &mut u32) -> Vec<u8> {
        let mut out = Vec::with_capacity((W * H * 4) as usize);
        let (cx, cy) = (2 + 6 * k, 10);
        for y in 0..H {
            for x in 0..W {
                let mut c = if x < EDGE { LEFT } else { RIGHT };
                if y >= GRAIN_ROW {
                    c = grain(seed);
                } else if (cx..cx + 4).contains(&x) && (cy..cy + 6).contains(&y) {
                    c = [0, 0, 0];
                } else if (cx.saturating_sub(1)..cx + 5).contains(&x) && (cy - 1..cy + 7).contains(&y) {
                    c = c.map(|v| (u32::from(v) * 95 / 100) as u8);
                }
                out.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        out
    }

    fn encode(keep: Keep, frames: &[Vec<u8>]) -> Vec<u8> {
        let mut enc = AnimEncoder::new(W, H, Repeat::Infinite, None).with_keep(keep);
        for f in frames {
            enc.push(f, Rect::full(W, H), 7, true).unwrap();
        }
        enc.finish().unwrap()
    }

    fn decoded(gif: &[u8]) -> Vec<Vec<u8>> {
        let frames = GifDecoder::new(std::io::Cursor::new(gif)).unwrap().into_frames().collect_frames().unwrap();
        frames.into_iter().map(|f| f.into_buffer().into_raw()).collect()
    }

    /// The pixels above the grain, outside the cursor and its rim, that differ from the source,
    /// as (frame, x, y). (The rim's colours may be mapped onto a reused palette's nearest.)
    fn flat_errors(source: &[Vec<u8>], shown: &[Vec<u8>]) -> Vec<(usize, u32, u32)> {
        let mut bad = Vec::new();
        for (k, (s, g)) in source.iter().zip(shown).enumerate() {
            let cx = 2 + 6 * k as u32;
            for y in 0..GRAIN_ROW {
                for x in 0..W {
                    let p = ((y * W + x) * 4) as usize;
                    let cursor = (cx.saturating_sub(1)..cx + 5).contains(&x) && (9..17).contains(&y);
                    if !cursor && s[p..p + 3] != g[p..p + 3] {
                        bad.push((k, x, y));
                    }
                }
            }
        }
        bad
    }

    #[test]
    fn adaptive_tolerance_keeps_flat_edges_exact_and_leaves_no_cursor_trail() {
        let mut seed = 7;
        let source: Vec<Vec<u8>> = (0..9).map(|k| frame(k, &mut seed)).collect();
        // The uniform tolerance smears the edge and leaves the cursor's rim behind: the test sees it.
        let uniform = flat_errors(&source, &decoded(&encode(Keep::Uniform(300), &source)));
        assert!(uniform.iter().any(|&(_, x, _)| x == EDGE), "the uniform tolerance kept the edge");
        assert!(uniform.iter().any(|&(k, _, _)| k > 0), "the uniform tolerance left no trail");
        let adaptive = encode(Keep::Adaptive, &source);
        let shown = decoded(&adaptive);
        assert_eq!(shown.len(), source.len());
        assert_eq!(flat_errors(&source, &shown), vec![], "flat areas, their edge and the cursor's path stay exact");
        // On the grain the tolerance does its work: fewer bytes than an exact encoding.
        let exact = encode(Keep::Exact, &source);
        assert!(adaptive.len() < exact.len(), "adaptive {} vs exact {} bytes", adaptive.len(), exact.len());
    }

    #[test]
    fn a_flat_area_keeps_its_colour_where_the_approximate_mapping_would_shift_it() {
        // A flat blue over most of the picture, a small patch of a blue closer to the blue's
        // 5/6/5 cell's middle, and grain below: the approximate mapping would paint the whole
        // flat area in the patch's blue (three levels of red off, which SSIM sees on a dark
        // channel).
        let (blue, patch) = ([48, 101, 201], [51, 101, 201]);
        let mut seed: u32 = 11;
        let source: Vec<Vec<u8>> = (0..3)
            .map(|k| {
                let mut out = Vec::with_capacity((W * H * 4) as usize);
                for y in 0..H {
                    for x in 0..W {
                        let c = if y >= GRAIN_ROW {
                            grain(&mut seed)
                        } else if (40 + k..44 + k).contains(&x) && (4..8).contains(&y) {
                            patch
                        } else {
                            blue
                        };
                        out.extend_from_slice(&[c[0], c[1], c[2], 255]);
                    }
                }
                out
            })
            .collect();
        let shown = decoded(&encode(Keep::Adaptive, &source));
        for (k, frame) in shown.iter().enumerate() {
            for y in 0..GRAIN_ROW - 2 {
                for x in 0..W {
                    let p = ((y * W + x) * 4) as usize;
                    let want = &source[k][p..p + 3];
                    assert_eq!(&frame[p..p + 3], want, "frame {k}, pixel ({x}, {y})");
                }
            }
        }
    }
}
