//! Scaling a source canvas to thumbnail size, region by region.

use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};

use crate::MediaRejection;

/// A half-open pixel rectangle `[x0, x1) × [y0, y1)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl Rect {
    pub(crate) fn full(width: u32, height: u32) -> Self {
        Rect { x0: 0, y0: 0, x1: width, y1: height }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    pub(crate) fn width(&self) -> u32 {
        self.x1.saturating_sub(self.x0)
    }

    pub(crate) fn height(&self) -> u32 {
        self.y1.saturating_sub(self.y0)
    }

    pub(crate) fn union(&self, other: &Rect) -> Rect {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        Rect {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    pub(crate) fn intersect(&self, other: &Rect) -> Rect {
        let r = Rect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        };
        if r.is_empty() {
            Rect::default()
        } else {
            r
        }
    }

    pub(crate) fn clip(&self, width: u32, height: u32) -> Rect {
        Rect { x0: self.x0.min(width), y0: self.y0.min(height), x1: self.x1.min(width), y1: self.y1.min(height) }
    }
}

/// The lanczos3 kernel reaches 3 source pixels; in destination pixels that is 3 when shrinking.
const SUPPORT: f64 = 3.0;

/// Keeps the thumbnail-sized RGBA image of a source canvas up to date.
pub(crate) struct Thumbnailer {
    src_w: u32,
    src_h: u32,
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// The current thumbnail, RGBA, `width * height * 4` bytes.
    pub(crate) rgba: Vec<u8>,
    tmp: Vec<u8>,
    resizer: Resizer,
}

fn resize_err(e: impl std::fmt::Display) -> MediaRejection {
    crate::error::internal(format!("resize failed: {e}"))
}

impl Thumbnailer {
    pub(crate) fn new(src_w: u32, src_h: u32, width: u32, height: u32) -> Self {
        Thumbnailer {
            src_w,
            src_h,
            width,
            height,
            rgba: vec![0; width as usize * height as usize * 4],
            tmp: Vec::new(),
            resizer: Resizer::new(),
        }
    }

    fn is_identity(&self) -> bool {
        self.src_w == self.width && self.src_h == self.height
    }

    /// The thumbnail pixels that overlap `dirty` (in source coordinates), without the
    /// resampling kernel's reach beyond it.
    pub(crate) fn core(&self, dirty: Rect) -> Rect {
        let dirty = dirty.clip(self.src_w, self.src_h);
        if dirty.is_empty() {
            return Rect::default();
        }
        let sx = f64::from(self.src_w) / f64::from(self.width);
        let sy = f64::from(self.src_h) / f64::from(self.height);
        Rect {
            x0: (f64::from(dirty.x0) / sx).floor() as u32,
            y0: (f64::from(dirty.y0) / sy).floor() as u32,
            x1: (f64::from(dirty.x1) / sx).ceil() as u32,
            y1: (f64::from(dirty.y1) / sy).ceil() as u32,
        }
        .clip(self.width, self.height)
    }

    /// Re-renders the part of the thumbnail that depends on `dirty` (in source coordinates) and
    /// returns that part (in thumbnail coordinates). `opaque` says no pixel of the canvas is
    /// transparent, which lets the resizer skip alpha premultiplication.
    pub(crate) fn update(&mut self, canvas: &[u8], dirty: Rect, opaque: bool) -> Result<Rect, MediaRejection> {
        let dirty = dirty.clip(self.src_w, self.src_h);
        if dirty.is_empty() {
            return Ok(Rect::default());
        }
        let row = self.width as usize * 4;
        if self.is_identity() {
            for y in dirty.y0..dirty.y1 {
                let a = y as usize * row + dirty.x0 as usize * 4;
                let b = y as usize * row + dirty.x1 as usize * 4;
                self.rgba[a..b].copy_from_slice(&canvas[a..b]);
            }
            return Ok(dirty);
        }
        let sx = f64::from(self.src_w) / f64::from(self.width);
        let sy = f64::from(self.src_h) / f64::from(self.height);
        // Destination pixels whose kernel touches the dirty source area.
        let reach_x = SUPPORT * sx.max(1.0) / sx + 1.0;
        let reach_y = SUPPORT * sy.max(1.0) / sy + 1.0;
        let out = Rect {
            x0: (f64::from(dirty.x0) / sx - reach_x).floor().max(0.0) as u32,
            y0: (f64::from(dirty.y0) / sy - reach_y).floor().max(0.0) as u32,
            x1: (f64::from(dirty.x1) / sx + reach_x).ceil() as u32,
            y1: (f64::from(dirty.y1) / sy + reach_y).ceil() as u32,
        }
        .clip(self.width, self.height);
        // Render a margin around it so that its pixels see their whole kernel.
        let m_x = reach_x.ceil() as u32 + 1;
        let m_y = reach_y.ceil() as u32 + 1;
        let region =
            Rect { x0: out.x0.saturating_sub(m_x), y0: out.y0.saturating_sub(m_y), x1: out.x1 + m_x, y1: out.y1 + m_y }
                .clip(self.width, self.height);
        let full = region == Rect::full(self.width, self.height);
        let src = ImageRef::new(self.src_w, self.src_h, canvas, PixelType::U8x4).map_err(resize_err)?;
        let mut options =
            ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3)).use_alpha(!opaque);
        if full {
            let mut dst =
                Image::from_slice_u8(self.width, self.height, &mut self.rgba, PixelType::U8x4).map_err(resize_err)?;
            self.resizer.resize(&src, &mut dst, &options).map_err(resize_err)?;
            return Ok(Rect::full(self.width, self.height));
        }
        // Clamped: `width * (src_w / width)` may exceed `src_w` by a rounding error, which the
        // resizer refuses as a crop box outside the image.
        let (left, top) = (f64::from(region.x0) * sx, f64::from(region.y0) * sy);
        options = options.crop(
            left,
            top,
            (f64::from(region.width()) * sx).min(f64::from(self.src_w) - left),
            (f64::from(region.height()) * sy).min(f64::from(self.src_h) - top),
        );
        let rw = region.width() as usize * 4;
        self.tmp.resize(rw * region.height() as usize, 0);
        {
            let mut dst = Image::from_slice_u8(region.width(), region.height(), &mut self.tmp, PixelType::U8x4)
                .map_err(resize_err)?;
            self.resizer.resize(&src, &mut dst, &options).map_err(resize_err)?;
        }
        for y in out.y0..out.y1 {
            let t = (y - region.y0) as usize * rw + (out.x0 - region.x0) as usize * 4;
            let d = y as usize * row + out.x0 as usize * 4;
            let n = out.width() as usize * 4;
            self.rgba[d..d + n].copy_from_slice(&self.tmp[t..t + n]);
        }
        Ok(out)
    }
}

/// Resizes a whole RGBA or RGB image (`channels` 4 or 3) to `width`×`height`.
pub(crate) fn resize_image(
    src: &[u8],
    src_w: u32,
    src_h: u32,
    channels: u8,
    width: u32,
    height: u32,
) -> Result<Vec<u8>, MediaRejection> {
    let pt = if channels == 4 { PixelType::U8x4 } else { PixelType::U8x3 };
    if src_w == width && src_h == height {
        return Ok(src.to_vec());
    }
    let src = ImageRef::new(src_w, src_h, src, pt).map_err(resize_err)?;
    let mut dst = Image::new(width, height, pt);
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    Resizer::new().resize(&src, &mut dst, &options).map_err(resize_err)?;
    Ok(dst.into_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(w: u32, h: u32, seed: u32) -> Vec<u8> {
        let mut s = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        (0..w * h * 4)
            .map(|i| {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                if i % 4 == 3 {
                    255
                } else {
                    (s >> 24) as u8
                }
            })
            .collect()
    }

    #[test]
    fn a_change_at_the_corner_stays_inside_the_source_at_any_ratio() {
        let (sw, sh) = (800, 600);
        let canvas = pattern(sw, sh, 3);
        for (tw, th) in [(267, 200), (120, 90), (220, 165), (320, 240), (333, 250), (299, 224)] {
            let mut t = Thumbnailer::new(sw, sh, tw, th);
            t.update(&canvas, Rect::full(sw, sh), true).unwrap();
            let corner = Rect { x0: sw - 48, y0: sh - 48, x1: sw, y1: sh };
            t.update(&canvas, corner, true).unwrap_or_else(|e| panic!("{tw}×{th}: {e}"));
        }
    }

    #[test]
    fn region_update_matches_full_resize() {
        let (sw, sh, tw, th) = (500, 300, 320, 192);
        let mut canvas = pattern(sw, sh, 1);
        let mut t = Thumbnailer::new(sw, sh, tw, th);
        t.update(&canvas, Rect::full(sw, sh), true).unwrap();
        // Change a small area.
        let dirty = Rect { x0: 200, y0: 100, x1: 260, y1: 140 };
        let patch = pattern(60, 40, 2);
        for y in 0..40usize {
            let d = ((100 + y) * sw as usize + 200) * 4;
            canvas[d..d + 240].copy_from_slice(&patch[y * 240..y * 240 + 240]);
        }
        let out = t.update(&canvas, dirty, true).unwrap();
        assert!(out.width() < tw && out.height() < th);
        let mut full = Thumbnailer::new(sw, sh, tw, th);
        full.update(&canvas, Rect::full(sw, sh), true).unwrap();
        let diff = t.rgba.iter().zip(&full.rgba).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
        assert!(diff <= 1, "region update differs from a full resize by {diff}");
    }
}
