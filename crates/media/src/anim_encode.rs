//! Animated GIF writer: palette mapping, changed-rectangle frames and transparency for
//! unchanged pixels.

use std::borrow::Cow;

use gif::{DisposalMethod, Encoder, Frame, Repeat};

use crate::quantize::{pack, Mapper, Palette};
use crate::resize::Rect;
use crate::MediaError;

/// Below this alpha a pixel that is shown opaque becomes transparent (128 for the others).
const ALPHA_DROP: u8 = 48;

fn enc_err(e: gif::EncodingError) -> MediaError {
    MediaError::internal(format!("GIF encoding failed: {e}"))
}

/// A frame held back until the next one tells whether it must be cleared after display.
struct Pending {
    rect: Rect,
    buf: Vec<u8>,
    delay: u16,
    /// `None` when the frame uses the global palette.
    local: Option<Palette>,
}

/// Writes the animated thumbnail one full thumbnail-sized RGBA frame at a time.
///
/// Frames without a source colour table of their own reuse the source's global palette
/// (nearest colour); every other frame gets a palette of the colours it actually changes:
/// exact when they are few, quantized (NeuQuant) otherwise.
pub(crate) struct AnimEncoder {
    width: u32,
    height: u32,
    repeat: Repeat,
    enc: Option<Encoder<Vec<u8>>>,
    global: Option<Palette>,
    global_map: Option<Mapper>,
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
    pending: Option<Pending>,
    frames: u32,
}

impl AnimEncoder {
    /// `global` is the source's global colour table, reused for frames that have no table of
    /// their own.
    pub(crate) fn new(width: u32, height: u32, repeat: Repeat, global: Option<&[u8]>) -> Self {
        let n = width as usize * height as usize;
        let global = global.map(Palette::from_table);
        AnimEncoder {
            width,
            height,
            repeat,
            enc: None,
            global_map: global.as_ref().map(Mapper::new),
            global,
            last_rgba: vec![0; n * 4],
            changed: vec![false; n],
            prev: vec![0; n],
            cur: vec![0; n],
            idx: vec![0; n],
            pending: None,
            frames: 0,
        }
    }

    fn start(&mut self) -> Result<(), MediaError> {
        if self.enc.is_none() {
            let w = u16::try_from(self.width).map_err(|_| MediaError::internal("thumbnail too wide"))?;
            let h = u16::try_from(self.height).map_err(|_| MediaError::internal("thumbnail too tall"))?;
            let table = self.global.as_ref().map(Palette::table).unwrap_or_default();
            let mut enc = Encoder::new(Vec::new(), w, h, &table).map_err(enc_err)?;
            enc.set_repeat(self.repeat).map_err(enc_err)?;
            self.enc = Some(enc);
        }
        Ok(())
    }

    /// Marks the pixels of `dirty` whose RGBA differs from the previous frame; returns the
    /// opaque colours among them.
    fn find_changes(&mut self, rgba: &[u8], dirty: Rect, first: bool) -> Vec<u32> {
        let w = self.width as usize;
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
            let (a, b) = ((row + dirty.x0 as usize) * 4, (row + dirty.x1 as usize) * 4);
            self.last_rgba[a..b].copy_from_slice(&rgba[a..b]);
        }
        colors
    }

    /// Adds one frame. `rgba` is the whole thumbnail; only `dirty` changed since the last call
    /// (the first call treats everything as changed). `own_table` says the source frame had its
    /// own colour table (or there is no global one). `delay` is in hundredths of a second.
    pub(crate) fn push(&mut self, rgba: &[u8], dirty: Rect, delay: u16, own_table: bool) -> Result<(), MediaError> {
        let full = Rect::full(self.width, self.height);
        let first = self.frames == 0;
        let dirty = if first { full } else { dirty.clip(self.width, self.height) };
        self.start()?;
        let colors = self.find_changes(rgba, dirty, first);
        let use_local = own_table || self.global.is_none();
        let mut local_map;
        let (palette, mapper) = if use_local {
            let p = Palette::for_colors(colors);
            local_map = Mapper::new(&p);
            (p, &mut local_map)
        } else {
            match (self.global.as_ref(), self.global_map.as_mut()) {
                (Some(p), Some(m)) => (p.clone(), m),
                _ => return Err(MediaError::internal("palette missing")),
            }
        };
        let t = palette.transparent();
        let w = self.width as usize;

        // Map the changed pixels onto the palette.
        for y in dirty.y0..dirty.y1 {
            let row = y as usize * w;
            for x in dirty.x0..dirty.x1 {
                let p = row + x as usize;
                if !self.changed[p] {
                    continue;
                }
                let px = &rgba[p * 4..p * 4 + 4];
                // Resampling rings: a neighbour turning opaque can pull a pixel's alpha a little
                // below the threshold. Only a clear drop makes a shown pixel transparent.
                let cutoff = if self.prev[p] != 0 { ALPHA_DROP } else { 128 };
                if px[3] < cutoff {
                    self.cur[p] = 0;
                    self.idx[p] = t;
                } else {
                    let i = mapper.map(px[0], px[1], px[2]);
                    self.idx[p] = i;
                    self.cur[p] = palette.packed(i);
                }
            }
        }

        // A pixel that must turn transparent needs the previous frame cleared after display.
        let needs_clear = !first
            && (dirty.y0..dirty.y1).any(|y| {
                let row = y as usize * w;
                (dirty.x0..dirty.x1).any(|x| {
                    let p = row + x as usize;
                    self.cur[p] == 0 && self.prev[p] != 0
                })
            });

        let mut dispose_prev = DisposalMethod::Keep;
        let (rect, buf) = if needs_clear {
            dispose_prev = DisposalMethod::Background;
            // The pending frame becomes a full frame, so clearing it leaves an empty canvas.
            if let Some(pend) = self.pending.as_mut() {
                let pp = match pend.local.as_ref().or(self.global.as_ref()) {
                    Some(pp) => pp,
                    None => return Err(MediaError::internal("palette missing")),
                };
                pend.buf = remap(&self.prev, pp, Mapper::new(pp));
                pend.rect = full;
            }
            let rect = bbox(full, w, |p| self.cur[p] != 0);
            // Unchanged pixels may hold colours of other palettes: map them all again.
            let mut m2 = Mapper::new(&palette);
            let buf = extract(rect, w, |p| {
                let c = self.cur[p];
                if c == 0 {
                    t
                } else {
                    let b = c.to_be_bytes();
                    m2.map(b[1], b[2], b[3])
                }
            });
            self.prev.copy_from_slice(&self.cur);
            (rect, buf)
        } else if first {
            let buf = self.idx.clone();
            self.prev.copy_from_slice(&self.cur);
            (full, buf)
        } else {
            let rect = bbox(dirty, w, |p| self.cur[p] != self.prev[p]);
            let buf = extract(rect, w, |p| if self.cur[p] == self.prev[p] { t } else { self.idx[p] });
            for y in dirty.y0..dirty.y1 {
                let a = y as usize * w + dirty.x0 as usize;
                let b = y as usize * w + dirty.x1 as usize;
                self.prev[a..b].copy_from_slice(&self.cur[a..b]);
            }
            (rect, buf)
        };
        if let Some(p) = self.pending.take() {
            self.write(p, dispose_prev)?;
        }
        let (rect, buf) = if rect.is_empty() { (Rect { x0: 0, y0: 0, x1: 1, y1: 1 }, vec![t]) } else { (rect, buf) };
        self.pending = Some(Pending { rect, buf, delay, local: use_local.then_some(palette) });
        self.frames += 1;
        Ok(())
    }

    fn write(&mut self, p: Pending, dispose: DisposalMethod) -> Result<(), MediaError> {
        let t = match &p.local {
            Some(lp) => lp.transparent(),
            None => self.global.as_ref().map(Palette::transparent).unwrap_or(0),
        };
        let frame = Frame {
            delay: p.delay,
            dispose,
            transparent: Some(t),
            left: p.rect.x0 as u16,
            top: p.rect.y0 as u16,
            width: p.rect.width() as u16,
            height: p.rect.height() as u16,
            palette: p.local.as_ref().map(|lp| lp.table()),
            buffer: Cow::Borrowed(&p.buf),
            ..Frame::default()
        };
        let enc = self.enc.as_mut().ok_or_else(|| MediaError::internal("GIF encoder missing"))?;
        enc.write_frame(&frame).map_err(enc_err)
    }

    /// Writes the last frame and returns the GIF bytes.
    pub(crate) fn finish(mut self) -> Result<Vec<u8>, MediaError> {
        if let Some(p) = self.pending.take() {
            self.write(p, DisposalMethod::Keep)?;
        }
        match self.enc.take() {
            Some(enc) => enc.into_inner().map_err(enc_err),
            None => Err(MediaError::Corrupt("The animation has no frames.".into())),
        }
    }
}

fn remap(colors: &[u32], palette: &Palette, mut m: Mapper) -> Vec<u8> {
    let t = palette.transparent();
    colors
        .iter()
        .map(|&c| {
            if c == 0 {
                t
            } else {
                let b = c.to_be_bytes();
                m.map(b[1], b[2], b[3])
            }
        })
        .collect()
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

fn extract(rect: Rect, w: usize, mut f: impl FnMut(usize) -> u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(rect.width() as usize * rect.height() as usize);
    for y in rect.y0..rect.y1 {
        let row = y as usize * w;
        for x in rect.x0..rect.x1 {
            out.push(f(row + x as usize));
        }
    }
    out
}
