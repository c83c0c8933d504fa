//! The streaming GIF pipeline: one frame at a time onto one RGBA canvas, handed to every sink.

use std::num::NonZeroU64;

use gif::{ColorOutput, DecodeOptions, DisposalMethod, MemoryLimit, Repeat};

use crate::anim_encode::KEEP_CLOSE_RESIZED;
use crate::limits::{Deadline, Limits};
use crate::phash::Sampler;
use crate::probe::gif_info;
use crate::resize::Rect;
use crate::sink::{CanvasFrame, Output, Sinks, Source, Tools};
use crate::video::duration_ms;
use crate::{Made, MediaKind, MediaRejection};

fn gif_err(e: gif::DecodingError) -> MediaRejection {
    match e {
        gif::DecodingError::MemoryLimit => {
            MediaRejection::ImageTooLarge("A frame of the GIF needs more memory than the limit allows.".into())
        }
        other => crate::error::corrupt_by("GIF", other),
    }
}

/// Allocates a zeroed buffer, failing cleanly instead of aborting when memory is short.
pub(crate) fn try_zeroed(len: usize) -> Result<Vec<u8>, MediaRejection> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| MediaRejection::ImageTooLarge("The image needs more memory than the server can spare.".into()))?;
    v.resize(len, 0);
    Ok(v)
}

/// Maps a NETSCAPE loop count to the `gif` crate's notion (`Finite(0)` writes no extension).
pub(crate) fn repeat_of(loop_count: Option<u16>) -> Repeat {
    match loop_count {
        None => Repeat::Finite(0),
        Some(0) => Repeat::Infinite,
        Some(n) => Repeat::Finite(n),
    }
}

/// The RGBA canvas with its count of fully transparent pixels.
struct Canvas {
    w: u32,
    h: u32,
    px: Vec<u8>,
    clear: usize,
}

impl Canvas {
    fn count_clear(&self, r: Rect) -> usize {
        let mut n = 0;
        for y in r.y0..r.y1 {
            let a = (y * self.w + r.x0) as usize * 4;
            let b = (y * self.w + r.x1) as usize * 4;
            n += self.px[a..b].chunks_exact(4).filter(|p| p[3] == 0).count();
        }
        n
    }

    fn clear_rect(&mut self, r: Rect) {
        let before = self.count_clear(r);
        for y in r.y0..r.y1 {
            let a = (y * self.w + r.x0) as usize * 4;
            let b = (y * self.w + r.x1) as usize * 4;
            self.px[a..b].fill(0);
        }
        self.clear += r.width() as usize * r.height() as usize - before;
    }

    fn save_rect(&self, r: Rect, into: &mut Vec<u8>) {
        into.clear();
        for y in r.y0..r.y1 {
            let a = (y * self.w + r.x0) as usize * 4;
            let b = (y * self.w + r.x1) as usize * 4;
            into.extend_from_slice(&self.px[a..b]);
        }
    }

    fn restore_rect(&mut self, r: Rect, from: &[u8]) {
        let before = self.count_clear(r);
        let n = r.width() as usize * 4;
        for (i, y) in (r.y0..r.y1).enumerate() {
            let a = (y * self.w + r.x0) as usize * 4;
            if let Some(src) = from.get(i * n..i * n + n) {
                self.px[a..a + n].copy_from_slice(src);
            }
        }
        let after = self.count_clear(r);
        self.clear = self.clear + after - before;
    }

    /// Draws an indexed frame; `clip` is its rectangle clipped to the canvas. Only the first
    /// `valid[row]` pixels of each row of `pixels` were decoded; the others are left transparent,
    /// as browsers leave the part of a frame whose data is missing.
    fn draw(&mut self, frame: &FrameMeta, pixels: &[u8], valid: &[usize], clip: Rect, lut: &[[u8; 4]; 256]) {
        if clip.is_empty() {
            return;
        }
        let fw = usize::from(frame.width);
        let trns = frame.transparent.map(usize::from);
        let left = u32::from(frame.left);
        let top = u32::from(frame.top);
        for y in clip.y0..clip.y1 {
            let row = (y - top) as usize;
            let x1 = clip.x1.min(left + valid.get(row).map_or(0, |&v| v as u32));
            if x1 <= clip.x0 {
                continue;
            }
            let src_row = row * fw;
            let Some(src) = pixels.get(src_row + (clip.x0 - left) as usize..src_row + (x1 - left) as usize) else {
                continue;
            };
            let a = (y * self.w + clip.x0) as usize * 4;
            let b = (y * self.w + x1) as usize * 4;
            let dst = &mut self.px[a..b];
            for (d, &i) in dst.chunks_exact_mut(4).zip(src) {
                let i = usize::from(i);
                if Some(i) == trns {
                    continue;
                }
                if d[3] == 0 {
                    self.clear -= 1;
                }
                d.copy_from_slice(&lut[i]);
            }
        }
    }
}

/// What the compositor needs of a frame besides its pixels.
struct FrameMeta {
    left: u16,
    top: u16,
    width: u16,
    height: u16,
    transparent: Option<u8>,
    dispose: DisposalMethod,
    delay: u16,
    interlaced: bool,
    palette: Option<Vec<u8>>,
}

impl FrameMeta {
    fn of(frame: &gif::Frame<'_>) -> Self {
        FrameMeta {
            left: frame.left,
            top: frame.top,
            width: frame.width,
            height: frame.height,
            transparent: frame.transparent,
            dispose: frame.dispose,
            delay: frame.delay,
            interlaced: frame.interlaced,
            palette: frame.palette.clone(),
        }
    }
}

/// The colour table of a GIF that has none at all (neither global nor local), which browsers
/// draw with a default of their own: index 0 black and 1 white, as the GIF89a specification
/// advises (Appendix: "it is recommended that such a table have black and white as its first two
/// entries"), so that two-colour images look right; every other index `n` is the grey (n, n, n).
pub(crate) fn default_palette() -> Vec<u8> {
    (0..=255u8)
        .flat_map(|n| match n {
            0 => [0, 0, 0],
            1 => [255, 255, 255],
            n => [n, n, n],
        })
        .collect()
}

/// The file with [`default_palette`] inserted as its global colour table, for a GIF that has no
/// colour table at all (the `gif` crate refuses to decode such a frame).
fn with_default_palette(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 768);
    out.extend_from_slice(bytes.get(..13).unwrap_or(bytes));
    if let Some(packed) = out.get_mut(10) {
        // Global table present, 2^(7+1) = 256 entries; keep the colour resolution bits.
        *packed = (*packed & 0x70) | 0x87;
    }
    out.extend(default_palette());
    out.extend_from_slice(bytes.get(13..).unwrap_or_default());
    out
}

/// The display row of each stored row of an interlaced frame of `height` rows (GIF89a's four
/// passes: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
fn interlaced_rows(height: usize) -> impl Iterator<Item = usize> {
    [(0, 8), (4, 8), (2, 4), (1, 2)].into_iter().flat_map(move |(start, step)| (start..height).step_by(step))
}

/// Reads the current frame's pixels into `pixels` (`width`×`height`, display order) and sets
/// `valid[row]` to the number of leading pixels of each display row that were decoded.
///
/// LZW data that ends before the frame is full is shown as far as it goes, as browsers do (the
/// rest of the frame is left transparent) instead of failing. The `gif` crate does not say how
/// many pixels it decoded then, so the buffer is first filled with the frame's transparent index
/// (or 0) and the decoded part ends after the last pixel that differs from it: at worst a damaged
/// frame loses trailing pixels of that one index.
fn read_pixels(
    dec: &mut gif::Decoder<&[u8]>,
    meta: &FrameMeta,
    pixels: &mut Vec<u8>,
    stored: &mut Vec<u8>,
    valid: &mut Vec<usize>,
) -> Result<(), MediaRejection> {
    let (w, h) = (usize::from(meta.width), usize::from(meta.height));
    let len = w * h;
    let fill = meta.transparent.unwrap_or(0);
    let into = if meta.interlaced { &mut *stored } else { &mut *pixels };
    into.clear();
    into.try_reserve(len)
        .map_err(|_| MediaRejection::ImageTooLarge("The image needs more memory than the server can spare.".into()))?;
    into.resize(len, fill);
    let decoded = if len == 0 || dec.fill_buffer(into).map_err(gif_err)? {
        len
    } else {
        into.iter().rposition(|&p| p != fill).map_or(0, |i| i + 1)
    };
    valid.clear();
    valid.resize(h, 0);
    if meta.interlaced {
        pixels.clear();
        pixels.try_reserve(len).map_err(|_| {
            MediaRejection::ImageTooLarge("The image needs more memory than the server can spare.".into())
        })?;
        pixels.resize(len, fill);
        for (k, row) in interlaced_rows(h).enumerate() {
            if let (Some(src), Some(dst)) = (stored.get(k * w..k * w + w), pixels.get_mut(row * w..row * w + w)) {
                dst.copy_from_slice(src);
            }
            if let Some(v) = valid.get_mut(row) {
                *v = decoded.saturating_sub(k * w).min(w);
            }
        }
    } else {
        for (row, v) in valid.iter_mut().enumerate() {
            *v = decoded.saturating_sub(row * w).min(w);
        }
    }
    Ok(())
}

fn build_lut(palette: &[u8]) -> [[u8; 4]; 256] {
    let mut lut = [[0, 0, 0, 255]; 256];
    for (l, c) in lut.iter_mut().zip(palette.chunks_exact(3)) {
        *l = [c[0], c[1], c[2], 255];
    }
    lut
}

/// The frame rectangle of `frame`, clipped to a `w`×`h` canvas.
fn frame_rect(frame: &FrameMeta, w: u32, h: u32) -> Rect {
    Rect {
        x0: u32::from(frame.left),
        y0: u32::from(frame.top),
        x1: u32::from(frame.left) + u32::from(frame.width),
        y1: u32::from(frame.top) + u32::from(frame.height),
    }
    .clip(w, h)
}

/// The decoder, with the memory limit (one canvas worth of pixels per frame) set.
fn decoder<'a>(bytes: &'a [u8], limits: &Limits) -> Result<gif::Decoder<&'a [u8]>, MediaRejection> {
    let mut opts = DecodeOptions::new();
    opts.set_color_output(ColorOutput::Indexed);
    let cap = NonZeroU64::new(limits.max_canvas_pixels.max(1)).unwrap_or(NonZeroU64::MIN);
    opts.set_memory_limit(MemoryLimit::Bytes(cap));
    opts.read_info(bytes).map_err(gif_err)
}

/// Composites frames one at a time onto one canvas, applying each frame's disposal before the
/// next is drawn.
struct Compositor {
    canvas: Canvas,
    /// The pixels under a frame disposed with `Previous`.
    saved: Vec<u8>,
    pending_disposal: Option<(DisposalMethod, Rect)>,
    global_lut: Option<[[u8; 4]; 256]>,
}

impl Compositor {
    fn new(w: u32, h: u32, global_palette: Option<&[u8]>) -> Result<Self, MediaRejection> {
        let canvas = Canvas { w, h, px: try_zeroed(w as usize * h as usize * 4)?, clear: w as usize * h as usize };
        Ok(Compositor { canvas, saved: Vec::new(), pending_disposal: None, global_lut: global_palette.map(build_lut) })
    }

    /// Disposes of the previous frame as it asked, draws `frame` (the `number`th; `pixels` and
    /// `valid` as [`read_pixels`] left them) and returns the part of the canvas that changed.
    fn draw(&mut self, frame: &FrameMeta, pixels: &[u8], valid: &[usize], number: u32) -> Result<Rect, MediaRejection> {
        let canvas = &mut self.canvas;
        let rect = frame_rect(frame, canvas.w, canvas.h);
        let mut dirty = Rect::default();
        match self.pending_disposal.take() {
            Some((DisposalMethod::Background, r)) => {
                canvas.clear_rect(r);
                dirty = r;
            }
            Some((DisposalMethod::Previous, r)) => {
                canvas.restore_rect(r, &self.saved);
                dirty = r;
            }
            _ => {}
        }
        if frame.dispose == DisposalMethod::Previous {
            canvas.save_rect(rect, &mut self.saved);
        }
        let local_lut;
        let lut = match frame.palette.as_deref() {
            Some(p) => {
                local_lut = build_lut(p);
                &local_lut
            }
            // Unreachable in practice: a file without any colour table is given the default one.
            None => self.global_lut.as_ref().ok_or_else(|| {
                MediaRejection::invalid(format!("The GIF file is damaged: frame {number} has no colour table."))
            })?,
        };
        canvas.draw(frame, pixels, valid, rect, lut);
        if matches!(frame.dispose, DisposalMethod::Background | DisposalMethod::Previous) {
            self.pending_disposal = Some((frame.dispose, rect));
        }
        Ok(dirty.union(&rect))
    }
}

/// Decodes and composites a GIF once, feeding every composited frame to the sinks of `outputs`,
/// and stops as soon as none of them wants more frames.
pub(crate) fn process_gif(
    bytes: &[u8],
    limits: &Limits,
    deadline: &Deadline,
    outputs: &[Output],
    tools: Tools<'_>,
) -> Result<Made, MediaRejection> {
    let info = gif_info(bytes, limits)?;
    deadline.check()?;
    let (cw, ch) = (info.width, info.height);
    let patched;
    let bytes = if info.needs_default_palette {
        patched = with_default_palette(bytes);
        patched.as_slice()
    } else {
        bytes
    };
    let mut dec = decoder(bytes, limits)?;
    let global: Option<Vec<u8>> = dec.global_palette().map(<[u8]>::to_vec);
    let source = Source {
        width: cw,
        height: ch,
        repeat: repeat_of(info.loop_count),
        global_palette: global.as_deref(),
        keep_close: KEEP_CLOSE_RESIZED,
        delays: &info.delays,
    };
    let mut compositor = Compositor::new(cw, ch, global.as_deref())?;
    let mut sinks = Sinks::new(outputs, &source, limits, tools)?;
    let mut sampler = Sampler::new(info.frames);
    let mut frames = 0u32;
    let mut opaque = true;
    let (mut pixels, mut stored, mut valid) = (Vec::new(), Vec::new(), Vec::new());
    // Only the complete frames the header pass counted: a file cut short ends after them.
    while frames < info.frames {
        let Some(frame) = dec.next_frame_info().map_err(gif_err)? else {
            break;
        };
        let meta = FrameMeta::of(frame);
        read_pixels(&mut dec, &meta, &mut pixels, &mut stored, &mut valid)?;
        deadline.check()?;
        frames += 1;
        let dirty = compositor.draw(&meta, &pixels, &valid, frames)?;
        let canvas = &compositor.canvas;
        opaque &= canvas.clear == 0;
        sinks.frame(&CanvasFrame {
            rgba: &canvas.px,
            dirty,
            opaque: canvas.clear == 0,
            delay: meta.delay,
            own_table: meta.palette.is_some(),
        })?;
        sampler.frame(frames, &canvas.px, cw, ch);
        if !sinks.want_more() {
            break;
        }
    }
    if frames == 0 {
        return Err(MediaRejection::invalid("The GIF file contains no frames."));
    }
    let read_all = sinks.want_more();
    let phash = sampler.finish(frames, &compositor.canvas.px, cw, ch);
    // Free the big buffers before encoding.
    drop(compositor);
    Ok(Made {
        kind: MediaKind::Gif,
        width: cw,
        height: ch,
        frames: if read_all { frames } else { info.frames },
        renditions: sinks.finish()?,
        phash,
        opaque,
        duration_ms: if info.frames > 1 { duration_ms(&info.delays) } else { 0 },
    })
}
