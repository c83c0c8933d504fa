//! The streaming GIF pipeline: one frame at a time onto one RGBA canvas, resized and re-encoded.

use std::num::NonZeroU64;

use gif::{ColorOutput, DecodeOptions, DisposalMethod, MemoryLimit, Repeat};

use crate::anim_encode::{AnimEncoder, KEEP_CLOSE_RESIZED};
use crate::limits::{Deadline, Limits};
use crate::probe::gif_info;
use crate::resize::{Rect, Thumbnailer};
use crate::still::encode_static;
use crate::{MediaError, MediaKind, Processed, Rendition};

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

/// Decodes, composites and re-encodes a GIF. With `first_only`, stops after the first frame and
/// makes only the static thumbnail (the animated rendition is then that still too).
pub(crate) fn process_gif(
    bytes: &[u8],
    limits: &Limits,
    deadline: &Deadline,
    first_only: bool,
) -> Result<Processed, MediaError> {
    let info = gif_info(bytes, limits)?;
    deadline.check()?;
    let (cw, ch) = (info.width, info.height);
    let (tw, th) = limits.thumb_size(cw, ch);

    let mut opts = DecodeOptions::new();
    opts.set_color_output(ColorOutput::Indexed);
    let cap = NonZeroU64::new(limits.max_canvas_pixels.max(1)).unwrap_or(NonZeroU64::MIN);
    opts.set_memory_limit(MemoryLimit::Bytes(cap));
    let mut dec = opts.read_info(bytes).map_err(gif_err)?;
    let global: Option<Vec<u8>> = dec.global_palette().map(<[u8]>::to_vec);
    let global_lut = global.as_deref().map(build_lut);

    let mut canvas =
        Canvas { w: cw, h: ch, px: try_zeroed(cw as usize * ch as usize * 4)?, clear: cw as usize * ch as usize };
    let mut saved = Vec::new();
    let mut thumb = Thumbnailer::new(cw, ch, tw, th);
    let mut enc = AnimEncoder::new(tw, th, repeat_of(info.loop_count), global.as_deref())
        .with_keep_close(if (tw, th) == (cw, ch) { 0 } else { KEEP_CLOSE_RESIZED });
    let mut pending_disposal: Option<(DisposalMethod, Rect)> = None;
    let mut first: Option<Vec<u8>> = None;
    let mut frames = 0u32;

    while let Some(frame) = dec.read_next_frame().map_err(gif_err)? {
        deadline.check()?;
        frames += 1;
        if frames > info.frames {
            return Err(MediaError::Corrupt(
                "The GIF file is damaged: it has more frames than its structure shows.".into(),
            ));
        }
        let rect = Rect {
            x0: u32::from(frame.left),
            y0: u32::from(frame.top),
            x1: u32::from(frame.left) + u32::from(frame.width),
            y1: u32::from(frame.top) + u32::from(frame.height),
        }
        .clip(canvas.w, canvas.h);
        let mut dirty = Rect::default();
        match pending_disposal.take() {
            Some((DisposalMethod::Background, r)) => {
                canvas.clear_rect(r);
                dirty = r;
            }
            Some((DisposalMethod::Previous, r)) => {
                canvas.restore_rect(r, &saved);
                dirty = r;
            }
            _ => {}
        }
        if frame.dispose == DisposalMethod::Previous {
            canvas.save_rect(rect, &mut saved);
        }
        let local_lut;
        let lut = match frame.palette.as_deref() {
            Some(p) => {
                local_lut = build_lut(p);
                &local_lut
            }
            None => match global_lut.as_ref() {
                Some(l) => l,
                None => {
                    return Err(MediaError::Corrupt(format!(
                        "The GIF file is damaged: frame {frames} has no colour table."
                    )))
                }
            },
        };
        canvas.draw(frame, rect, lut);
        dirty = dirty.union(&rect);
        if matches!(frame.dispose, DisposalMethod::Background | DisposalMethod::Previous) {
            pending_disposal = Some((frame.dispose, rect));
        }
        let out = thumb.update(&canvas.px, dirty, canvas.clear == 0)?;
        if first.is_none() {
            first = Some(thumb.rgba.clone());
        }
        if first_only {
            break;
        }
        enc.push(&thumb.rgba, out, frame.delay, frame.palette.is_some())?;
    }
    let Some(first) = first else {
        return Err(MediaError::Corrupt("The GIF file contains no frames.".into()));
    };
    // Free the big buffers before encoding the still.
    drop(canvas);
    drop(saved);
    let static_thumbnail = encode_static(&first, tw, th)?;
    let thumbnail = if first_only {
        static_thumbnail.clone()
    } else {
        Rendition { bytes: enc.finish()?, mime: "image/gif", width: tw, height: th }
    };
    Ok(Processed {
        kind: MediaKind::Gif,
        width: cw,
        height: ch,
        frames: if first_only { info.frames } else { frames },
        thumbnail,
        static_thumbnail,
    })
}
