//! The streaming GIF pipeline: one frame at a time onto one RGBA canvas, handed to every sink.

use std::num::NonZeroU64;

use gif::{ColorOutput, DecodeOptions, DisposalMethod, MemoryLimit, Repeat};

use crate::anim_encode::KEEP_CLOSE_RESIZED;
use crate::limits::{Deadline, Limits};
use crate::phash::Sampler;
use crate::probe::gif_info;
use crate::resize::Rect;
use crate::sink::{CanvasFrame, Output, Sinks, Source};
use crate::{Made, MediaError, MediaKind};

fn gif_err(e: gif::DecodingError) -> MediaError {
    match e {
        gif::DecodingError::MemoryLimit => {
            MediaError::TooLarge("A frame of the GIF needs more memory than the limit allows.".into())
        }
        other => MediaError::corrupt("GIF", other),
    }
}

/// Allocates a zeroed buffer, failing cleanly instead of aborting when memory is short.
pub(crate) fn try_zeroed(len: usize) -> Result<Vec<u8>, MediaError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| MediaError::TooLarge("The image needs more memory than the server can spare.".into()))?;
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

    /// Draws an indexed frame; `clip` is its rectangle clipped to the canvas.
    fn draw(&mut self, frame: &gif::Frame<'_>, clip: Rect, lut: &[[u8; 4]; 256]) {
        if clip.is_empty() {
            return;
        }
        let fw = usize::from(frame.width);
        let trns = frame.transparent.map(usize::from);
        let left = u32::from(frame.left);
        let top = u32::from(frame.top);
        for y in clip.y0..clip.y1 {
            let src_row = (y - top) as usize * fw;
            let Some(src) = frame.buffer.get(src_row + (clip.x0 - left) as usize..src_row + (clip.x1 - left) as usize)
            else {
                continue;
            };
            let a = (y * self.w + clip.x0) as usize * 4;
            let b = (y * self.w + clip.x1) as usize * 4;
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

fn build_lut(palette: &[u8]) -> [[u8; 4]; 256] {
    let mut lut = [[0, 0, 0, 255]; 256];
    for (l, c) in lut.iter_mut().zip(palette.chunks_exact(3)) {
        *l = [c[0], c[1], c[2], 255];
    }
    lut
}

/// The frame rectangle of `frame`, clipped to a `w`×`h` canvas.
fn frame_rect(frame: &gif::Frame<'_>, w: u32, h: u32) -> Rect {
    Rect {
        x0: u32::from(frame.left),
        y0: u32::from(frame.top),
        x1: u32::from(frame.left) + u32::from(frame.width),
        y1: u32::from(frame.top) + u32::from(frame.height),
    }
    .clip(w, h)
}

/// The decoder, with the memory limit (one canvas worth of pixels per frame) set.
fn decoder<'a>(bytes: &'a [u8], limits: &Limits) -> Result<gif::Decoder<&'a [u8]>, MediaError> {
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
    fn new(w: u32, h: u32, global_palette: Option<&[u8]>) -> Result<Self, MediaError> {
        let canvas = Canvas { w, h, px: try_zeroed(w as usize * h as usize * 4)?, clear: w as usize * h as usize };
        Ok(Compositor { canvas, saved: Vec::new(), pending_disposal: None, global_lut: global_palette.map(build_lut) })
    }

    /// Disposes of the previous frame as it asked, draws `frame` (the `number`th) and returns the
    /// part of the canvas that changed.
    fn draw(&mut self, frame: &gif::Frame<'_>, number: u32) -> Result<Rect, MediaError> {
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
            None => self.global_lut.as_ref().ok_or_else(|| {
                MediaError::Corrupt(format!("The GIF file is damaged: frame {number} has no colour table."))
            })?,
        };
        canvas.draw(frame, rect, lut);
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
) -> Result<Made, MediaError> {
    let info = gif_info(bytes, limits)?;
    deadline.check()?;
    let (cw, ch) = (info.width, info.height);
    let mut dec = decoder(bytes, limits)?;
    let global: Option<Vec<u8>> = dec.global_palette().map(<[u8]>::to_vec);
    let source = Source {
        width: cw,
        height: ch,
        repeat: repeat_of(info.loop_count),
        global_palette: global.as_deref(),
        keep_close: KEEP_CLOSE_RESIZED,
    };
    let mut compositor = Compositor::new(cw, ch, global.as_deref())?;
    let mut sinks = Sinks::new(outputs, &source, limits);
    let mut sampler = Sampler::new(info.frames);
    let mut frames = 0u32;
    while let Some(frame) = dec.read_next_frame().map_err(gif_err)? {
        deadline.check()?;
        frames += 1;
        if frames > info.frames {
            return Err(MediaError::Corrupt(
                "The GIF file is damaged: it has more frames than its structure shows.".into(),
            ));
        }
        let dirty = compositor.draw(frame, frames)?;
        let canvas = &compositor.canvas;
        sinks.frame(&CanvasFrame {
            rgba: &canvas.px,
            dirty,
            opaque: canvas.clear == 0,
            delay: frame.delay,
            own_table: frame.palette.is_some(),
        })?;
        sampler.frame(frames, &canvas.px, cw, ch);
        if !sinks.want_more() {
            break;
        }
    }
    if frames == 0 {
        return Err(MediaError::Corrupt("The GIF file contains no frames.".into()));
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
    })
}
