//! The perceptual hash of an image: a 64-bit dHash of the average of its first, middle and last
//! frames, each reduced to a 9×8 grey grid (transparent pixels over white). Resizing and
//! re-encoding move a few bits; different pictures differ in many.

const GRID_W: usize = 9;
const GRID_H: usize = 8;

/// A frame reduced to 9×8 grey levels (0 to 255).
type Grid = [f32; GRID_W * GRID_H];

/// Below this spread of grey levels a picture is featureless (a flat colour): its dHash would be
/// all zeros and match every other flat picture, so it gets none.
const MIN_SPREAD: f32 = 2.0;

/// The 9×8 grid of an RGBA image, each cell the average luminance of the pixels under it.
fn grid(rgba: &[u8], width: u32, height: u32) -> Grid {
    let (w, h) = (width as usize, height as usize);
    let mut cells = [255.0; GRID_W * GRID_H];
    if w == 0 || h == 0 || rgba.len() < w * h * 4 {
        return cells;
    }
    for (gy, row) in cells.chunks_exact_mut(GRID_W).enumerate() {
        let y0 = gy * h / GRID_H;
        let y1 = ((gy + 1) * h / GRID_H).max(y0 + 1).min(h);
        for (gx, cell) in row.iter_mut().enumerate() {
            let x0 = gx * w / GRID_W;
            let x1 = ((gx + 1) * w / GRID_W).max(x0 + 1).min(w);
            // Luminance × 1000 over white, in integers (one division per cell, not per pixel):
            // (299 r + 587 g + 114 b) × a + 255 000 × (255 − a), summed, then ÷ (255 000 n).
            let (mut sum, mut n) = (0_u64, 0_u64);
            for y in y0..y1 {
                for p in rgba[(y * w + x0) * 4..(y * w + x1) * 4].chunks_exact(4) {
                    let alpha = u64::from(p[3]);
                    let luma = 299 * u64::from(p[0]) + 587 * u64::from(p[1]) + 114 * u64::from(p[2]);
                    sum += luma * alpha + 255_000 * (255 - alpha);
                }
                n += (x1 - x0) as u64;
            }
            if n > 0 {
                *cell = (sum as f64 / (n as f64 * 255_000.0)) as f32;
            }
        }
    }
    cells
}

/// The dHash of the average of `grids`: bit (row × 8 + column), most significant first, is set
/// when a cell is brighter than its right neighbour. `None` for no grid or a featureless picture.
fn dhash(grids: &[Grid]) -> Option<u64> {
    if grids.is_empty() {
        return None;
    }
    let mut avg = [0.0_f32; GRID_W * GRID_H];
    for g in grids {
        for (a, v) in avg.iter_mut().zip(g) {
            *a += v / grids.len() as f32;
        }
    }
    let (min, max) = avg.iter().fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    if max - min < MIN_SPREAD {
        return None;
    }
    let mut hash = 0_u64;
    for row in avg.chunks_exact(GRID_W) {
        for pair in row.windows(2) {
            hash = (hash << 1) | u64::from(pair[0] > pair[1]);
        }
    }
    Some(hash)
}

/// Collects the grids of the first, middle and last frames of an animation decoded one frame at a
/// time.
pub(crate) struct Sampler {
    middle: u32,
    grids: Vec<Grid>,
}

impl Sampler {
    /// For an animation of `frames` frames (as its headers say).
    pub(crate) fn new(frames: u32) -> Self {
        Self { middle: frames.div_ceil(2).max(1), grids: Vec::with_capacity(3) }
    }

    /// Frame `n` (from 1) is on screen as `rgba`.
    pub(crate) fn frame(&mut self, n: u32, rgba: &[u8], width: u32, height: u32) {
        if n == 1 || n == self.middle {
            self.grids.push(grid(rgba, width, height));
        }
    }

    /// The hash, given the last frame (`frames` in all were seen).
    pub(crate) fn finish(mut self, frames: u32, last: &[u8], width: u32, height: u32) -> Option<u64> {
        if frames > 1 && frames != self.middle {
            self.grids.push(grid(last, width, height));
        }
        dhash(&self.grids)
    }
}

/// The hash of a still image.
pub(crate) fn still(rgba: &[u8], width: u32, height: u32) -> Option<u64> {
    dhash(&[grid(rgba, width, height)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waves across a `w`×`h` picture (mirrored left to right with `flip`).
    fn gradient(w: u32, h: u32, flip: bool) -> Vec<u8> {
        let mut px = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let u = if flip { w - 1 - x } else { x } as f64 / w as f64;
                let v = y as f64 / h as f64;
                let g = (128.0 + 100.0 * (u * 9.0).sin() * (v * 5.0 + u * 2.0).cos()) as u8;
                px.extend_from_slice(&[g, g, g, 255]);
            }
        }
        px
    }

    #[test]
    fn a_flat_picture_has_no_hash() {
        assert_eq!(still(&[10, 20, 30, 255].repeat(100), 10, 10), None);
    }

    #[test]
    fn a_resized_picture_keeps_its_hash_and_a_mirrored_one_does_not() {
        let a = still(&gradient(90, 80, false), 90, 80).unwrap();
        let b = still(&gradient(45, 40, false), 45, 40).unwrap();
        let c = still(&gradient(90, 80, true), 90, 80).unwrap();
        assert!((a ^ b).count_ones() <= 4, "{a:064b} {b:064b}");
        assert!((a ^ c).count_ones() >= 12, "{a:064b} {c:064b}");
    }

    #[test]
    fn tiny_pictures_hash_without_panicking() {
        let _ = still(&gradient(3, 2, false), 3, 2);
        let _ = still(&[], 0, 0);
    }
}
