//! What the viewer shows, and which pixels a new frame changes and how they map onto a palette.

use super::lossy::{self, Want};
use super::lzw;
use super::tolerance::{Keep, Tolerance, Tolerances};
use crate::quantize::{pack, Mapper, Palette};
use crate::resize::Rect;

/// Below this alpha a pixel that is shown opaque becomes transparent (128 for the others).
const ALPHA_DROP: u8 = 48;

/// What the viewer shows, pixel by pixel, and what the frame being added changes.
pub(super) struct Screen {
    width: usize,
    /// The previous frame's RGBA thumbnail, to find the pixels that changed.
    last_rgba: Vec<u8>,
    /// Which pixels of the dirty rectangle changed in the frame being added.
    changed: Vec<bool>,
    /// Packed colours the viewer shows after the pending frame (0 = transparent).
    prev: Vec<u32>,
    /// Packed colours of the frame being added.
    cur: Vec<u32>,
    /// Palette indices of `cur`, valid for the pixels changed by the frame being added.
    idx: Vec<u8>,
    /// Per-pixel tolerances of the frame being added ([`Keep::Adaptive`] only).
    tol: Tolerances,
}

pub(super) fn inside(r: &Rect, x: u32, y: u32) -> bool {
    x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1
}

impl Screen {
    pub(super) fn new(width: u32, height: u32) -> Self {
        let n = width as usize * height as usize;
        Screen {
            width: width as usize,
            last_rgba: vec![0; n * 4],
            changed: vec![false; n],
            prev: vec![0; n],
            cur: vec![0; n],
            idx: vec![0; n],
            tol: Tolerances::default(),
        }
    }

    /// Marks the pixels of `dirty` whose RGBA differs from the previous frame; returns the
    /// opaque colours among them.
    pub(super) fn find_changes(&mut self, rgba: &[u8], dirty: Rect, first: bool, keep: Keep) -> Vec<u32> {
        let w = self.width;
        let mut colors = Vec::new();
        for y in dirty.y0..dirty.y1 {
            let row = y as usize * w;
            for x in dirty.x0..dirty.x1 {
                let p = row + x as usize;
                let new = &rgba[p * 4..p * 4 + 4];
                let old = &self.last_rgba[p * 4..p * 4 + 4];
                let changed = first || (new != old && (new[3] != 0 || old[3] != 0));
                self.changed[p] = changed;
                if changed && new[3] >= 128 {
                    colors.push(pack([new[0], new[1], new[2]]));
                }
            }
        }
        if keep == Keep::Adaptive {
            // Before `last_rgba` takes the new frame: the tolerances compare the two.
            let changed = bbox(dirty, w, |p| self.changed[p]);
            self.tol.measure(rgba, &self.last_rgba, w, changed);
        }
        for y in dirty.y0..dirty.y1 {
            let row = y as usize * w;
            let (a, b) = ((row + dirty.x0 as usize) * 4, (row + dirty.x1 as usize) * 4);
            self.last_rgba[a..b].copy_from_slice(&rgba[a..b]);
        }
        colors
    }

    /// Maps the changed pixels of `dirty` onto the palette (`cur`, `idx`). A shown colour within
    /// the pixel's tolerance (`keep`: extra squared error over the new nearest colour) stays, and
    /// its pixel is unchanged; so does the colour just given to the pixel on the left (a longer
    /// run).
    pub(super) fn map_changes(&mut self, rgba: &[u8], dirty: Rect, palette: &Palette, mapper: &mut Mapper, keep: Keep) {
        let t = palette.transparent();
        for y in dirty.y0..dirty.y1 {
            let row = y as usize * self.width;
            let mut left: Option<u8> = None;
            for x in dirty.x0..dirty.x1 {
                let p = row + x as usize;
                if !self.changed[p] {
                    left = None;
                    continue;
                }
                let px = &rgba[p * 4..p * 4 + 4];
                // Resampling rings: a neighbour turning opaque can pull a pixel's alpha a little
                // below the threshold. Only a clear drop makes a shown pixel transparent.
                let cutoff = if self.prev[p] != 0 { ALPHA_DROP } else { 128 };
                if px[3] < cutoff {
                    self.cur[p] = 0;
                    self.idx[p] = t;
                    left = None;
                    continue;
                }
                let Tolerance { keep: keep_close, run: run_close, flat } = match keep {
                    Keep::Exact | Keep::Uniform(0) => Tolerance::default(),
                    Keep::Uniform(t) => Tolerance { keep: Some(t), run: Some(t), flat: false },
                    Keep::Adaptive => self.tol.at(p),
                };
                // Where the picture has no grain (a flat area, a gradient, an edge) an error is
                // seen: such a pixel gets its nearest colour exactly, not its cell's.
                let i = if flat { mapper.map_exact(px[0], px[1], px[2]) } else { mapper.map(px[0], px[1], px[2]) };
                let q = palette.packed(i);
                let old = self.prev[p];
                let rgb = [px[0], px[1], px[2]];
                // Hysteresis: a shown colour about as close as the new nearest one stays.
                let close = |c: u32, k: u32| dist_packed(rgb, c) <= dist_packed(rgb, q) + k;
                if old != 0 && q != old && keep_close.is_some_and(|k| close(old, k)) {
                    self.changed[p] = false;
                    self.cur[p] = old;
                    left = None;
                    continue;
                }
                // Runs: the colour of the pixel to the left, when about as close, continues its
                // run (LZW codes grow with runs, not with scattered near-equal colours).
                let (i, q) = match left {
                    Some(l) if l != i && run_close.is_some_and(|k| close(palette.packed(l), k)) => {
                        (l, palette.packed(l))
                    }
                    _ => (i, q),
                };
                left = Some(i);
                self.idx[p] = i;
                self.cur[p] = q;
            }
        }
    }

    /// The bounding box of the pixels of `dirty` that turn transparent.
    pub(super) fn turning_clear(&self, dirty: Rect) -> Rect {
        bbox(dirty, self.width, |p| self.cur[p] == 0 && self.prev[p] != 0)
    }

    /// The rectangle the new frame must draw: inside `cleared` every visible pixel, elsewhere
    /// every pixel that differs from what is shown.
    pub(super) fn frame_rect(&self, area: Rect, cleared: Rect) -> Rect {
        let w = self.width;
        bbox(area, w, |p| {
            let (x, y) = ((p % w) as u32, (p / w) as u32);
            if inside(&cleared, x, y) {
                self.cur[p] != 0
            } else {
                self.cur[p] != self.prev[p]
            }
        })
    }

    /// The palette indices of `rect`: changed pixels get their colour, pixels inside `cleared`
    /// are drawn again in this frame's palette, pixels already shown right are transparent.
    pub(super) fn indices(
        &mut self,
        rect: Rect,
        dirty: Rect,
        cleared: Rect,
        palette: &Palette,
        mapper: &mut Mapper,
    ) -> Vec<u8> {
        let t = palette.transparent();
        let mut out = Vec::with_capacity(rect.width() as usize * rect.height() as usize);
        for y in rect.y0..rect.y1 {
            let row = y as usize * self.width;
            for x in rect.x0..rect.x1 {
                let p = row + x as usize;
                let c = self.cur[p];
                let i = if c == 0 {
                    t
                } else if inside(&cleared, x, y) {
                    // Cleared: must be drawn again, in this frame's palette.
                    if inside(&dirty, x, y) && self.changed[p] {
                        self.idx[p]
                    } else {
                        let b = c.to_be_bytes();
                        let i = mapper.map(b[1], b[2], b[3]);
                        self.cur[p] = palette.packed(i);
                        i
                    }
                } else if c != self.prev[p] {
                    self.idx[p]
                } else {
                    // Already shown: transparent.
                    t
                };
                out.push(i);
            }
        }
        out
    }

    /// Lets the changed pixels of `rect` (whose `indices` [`Screen::indices`] gave) take another
    /// palette colour within their tolerance where it continues an LZW string ([`lossy`]), and
    /// shows what they became (for the adaptive tolerance only: it gives none to flat areas and
    /// edges). `dirty` is where pixels changed, `cleared` the rectangle cleared before the frame.
    /// Returns the LZW code size the pass parsed with, which the frame must be written with.
    pub(super) fn loosen(
        &mut self,
        indices: &mut [u8],
        rect: Rect,
        (dirty, cleared): (Rect, Rect),
        rgba: &[u8],
        palette: &Palette,
        mapper: &mut Mapper,
    ) -> u8 {
        let t = palette.transparent();
        let code_size = lzw::min_code_size(&[t]);
        let mut wants = Vec::with_capacity(indices.len());
        let mut k = 0;
        for y in rect.y0..rect.y1 {
            let row = y as usize * self.width;
            for x in rect.x0..rect.x1 {
                let p = row + x as usize;
                let free = inside(&dirty, x, y) && self.changed[p] && self.cur[p] != 0 && indices[k] == self.idx[p];
                let Tolerance { keep: steady, run: tolerance, .. } = self.tol.at(p);
                let tolerance = tolerance.unwrap_or(0);
                wants.push((free && tolerance > 0).then(|| {
                    let rgb = [rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2]];
                    let nearest = palette.packed(mapper.map(rgb[0], rgb[1], rgb[2]));
                    let old = self.prev[p].to_be_bytes();
                    let shown = (steady.is_some() && self.prev[p] != 0 && !inside(&cleared, x, y))
                        .then_some([old[1], old[2], old[3]]);
                    Want { rgb, limit: dist_packed(rgb, nearest) + tolerance, shown }
                }));
                k += 1;
            }
        }
        if lossy::rewrite(indices, &wants, &palette.rgb, code_size) == 0 {
            return code_size;
        }
        let mut k = 0;
        for y in rect.y0..rect.y1 {
            let row = y as usize * self.width;
            for x in rect.x0..rect.x1 {
                let p = row + x as usize;
                if wants[k].is_some() && indices[k] != self.idx[p] {
                    if indices[k] == t {
                        self.changed[p] = false;
                        self.cur[p] = self.prev[p];
                    } else {
                        self.idx[p] = indices[k];
                        self.cur[p] = palette.packed(indices[k]);
                    }
                }
                k += 1;
            }
        }
        code_size
    }

    /// What the viewer shows after the new frame, inside `area`.
    pub(super) fn commit(&mut self, area: Rect) {
        for y in area.y0..area.y1 {
            let a = y as usize * self.width + area.x0 as usize;
            let b = y as usize * self.width + area.x1 as usize;
            self.prev[a..b].copy_from_slice(&self.cur[a..b]);
        }
    }
}

fn dist_packed(rgb: [u8; 3], c: u32) -> u32 {
    let b = c.to_be_bytes();
    (0..3).map(|k| u32::from(rgb[k].abs_diff(b[k + 1])).pow(2)).sum()
}

/// Bounding box of the pixels of `area` for which `hit` holds.
fn bbox(area: Rect, w: usize, hit: impl Fn(usize) -> bool) -> Rect {
    let mut r = Rect { x0: u32::MAX, y0: u32::MAX, x1: 0, y1: 0 };
    for y in area.y0..area.y1 {
        let row = y as usize * w;
        let mut first = None;
        for x in area.x0..area.x1 {
            if hit(row + x as usize) {
                first = Some(x);
                break;
            }
        }
        let Some(fx) = first else { continue };
        let mut last = fx;
        for x in (fx..area.x1).rev() {
            if hit(row + x as usize) {
                last = x;
                break;
            }
        }
        r.x0 = r.x0.min(fx);
        r.x1 = r.x1.max(last + 1);
        r.y0 = r.y0.min(y);
        r.y1 = y + 1;
    }
    if r.x1 == 0 {
        Rect::default()
    } else {
        r
    }
}
