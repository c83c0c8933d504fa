//! Animated GIF writer: palette mapping, changed-rectangle frames and transparency for
//! unchanged pixels, coded by its own LZW coder ([`lzw`]) so that the maker's frames can be made
//! lossy where their tolerance allows ([`lossy`]).

use std::borrow::Cow;

use gif::{DisposalMethod, Encoder, Frame, Repeat};

use crate::quantize::{Mapper, Palette};
use crate::resize::Rect;
use crate::MediaRejection;

mod layout;
mod lossy;
mod lzw;
mod palettes;
mod screen;
mod tolerance;

use layout::Layout;
use palettes::{Choice, Palettes};
use screen::Screen;
pub(crate) use tolerance::Keep;

fn enc_err(e: gif::EncodingError) -> MediaRejection {
    crate::error::internal(format!("GIF encoding failed: {e}"))
}

/// A frame held back until the next one tells whether it must be cleared after display.
struct Pending {
    rect: Rect,
    /// Palette index written for each pixel of `rect`.
    indices: Vec<u8>,
    delay: u16,
    /// `None` when the frame uses the global palette.
    local: Option<Palette>,
    /// The LZW code size the lossy pass parsed the frame with (see [`Screen::loosen`]).
    code_size: Option<u8>,
}

/// Writes the animated thumbnail one full thumbnail-sized RGBA frame at a time.
///
/// Frames without a source colour table of their own reuse the source's global palette
/// (nearest colour). Every other frame first tries the global palette and then the palette of
/// the last frame that needed its own, and keeps the first that maps its changed colours closely
/// enough; only otherwise does it get a palette of the colours it actually changes: exact when
/// they are few, quantized (NeuQuant) otherwise. A source without a global table gets its first
/// frame's palette as the output's global one.
pub(crate) struct AnimEncoder {
    width: u32,
    height: u32,
    repeat: Repeat,
    palettes: Palettes,
    screen: Screen,
    pending: Option<Pending>,
    /// Frames complete but not encoded yet: the colour tables are laid out once every frame is
    /// known (see [`AnimEncoder::finish`]).
    done: Vec<Done>,
    /// Bytes of indices `done` holds, and the most it may hold before the frames are written
    /// as they come, with the colour tables as they are.
    held: usize,
    hold_max: usize,
    /// Set once `hold_max` was passed: the encoder, its global table laid out as is.
    streaming: Option<(Encoder<Vec<u8>>, Option<Layout>)>,
    frames: u32,
    /// Extra squared error tolerated to keep a shown pixel unchanged or continue a run.
    keep: Keep,
}

/// A frame whose pixels and disposal are final, waiting for the colour tables to be laid out.
struct Done {
    rect: Rect,
    indices: Vec<u8>,
    delay: u16,
    dispose: DisposalMethod,
    local: Option<Palette>,
    code_size: Option<u8>,
}

/// The most frame indices an encoder holds back to lay out its colour tables at the end (16 MiB:
/// 200 full 320×240 frames); a longer or larger animation is written as it comes instead, with
/// its tables as they are, so memory stays bounded whatever the upload.
const HOLD_MAX: usize = 16 << 20;

/// Extra squared RGB error a resized frame may keep to leave a pixel unchanged: resampling
/// turns small source changes into many slightly different colours, and every changed pixel
/// costs bytes. 300 (about 10 levels on each channel) halves the bytes of dithered sources
/// against 48 for a few hundredths of a dB of PSNR (`cargo xtask bench media`).
pub(crate) const KEEP_CLOSE_RESIZED: u32 = 300;

impl AnimEncoder {
    /// `global` is the source's global colour table, reused for frames that have no table of
    /// their own.
    pub(crate) fn new(width: u32, height: u32, repeat: Repeat, global: Option<&[u8]>) -> Self {
        let global = global.map(Palette::from_table);
        AnimEncoder {
            width,
            height,
            repeat,
            palettes: Palettes {
                global_map: global.as_ref().map(Mapper::new),
                global,
                recent: None,
                approximate: false,
                seeded: false,
            },
            screen: Screen::new(width, height),
            pending: None,
            done: Vec::new(),
            held: 0,
            hold_max: HOLD_MAX,
            streaming: None,
            frames: 0,
            keep: Keep::Exact,
        }
    }

    /// Lets frames keep a shown pixel whose colour is within `extra` squared RGB error of the
    /// best new one (for resized thumbnails; exact copies should stay exact).
    /// Such frames are resampled, and their colours are mapped approximately (see
    /// [`Mapper::approximate`]).
    pub(crate) fn with_keep_close(self, extra: u32) -> Self {
        self.with_keep(if extra == 0 { Keep::Exact } else { Keep::Uniform(extra) })
    }

    /// Lets frames keep shown pixels and continue runs within `keep` (see [`Keep`]); any
    /// tolerance also maps colours approximately ([`Mapper::approximate`]).
    pub(crate) fn with_keep(mut self, keep: Keep) -> Self {
        self.keep = keep;
        self.palettes.seeded = keep == Keep::Adaptive;
        let approximate = keep != Keep::Exact;
        if approximate != self.palettes.approximate {
            self.palettes.approximate = approximate;
            self.palettes.global_map = self.palettes.global.as_ref().map(|p| self.palettes.mapper(p));
        }
        self
    }

    /// Adds one frame. `rgba` is the whole thumbnail; only `dirty` changed since the last call
    /// (the first call treats everything as changed). `own_table` says the source frame had its
    /// own colour table (or there is no global one). `delay` is in hundredths of a second.
    ///
    /// The phases: find the changed pixels, choose a palette, map the changes onto it, clear
    /// the pending frame's rectangle if pixels turn transparent, then hold the new frame back
    /// (its disposal depends on the next one) and write the one before.
    pub(crate) fn push(&mut self, rgba: &[u8], dirty: Rect, delay: u16, own_table: bool) -> Result<(), MediaRejection> {
        let full = Rect::full(self.width, self.height);
        let first = self.frames == 0;
        let dirty = if first { full } else { dirty.clip(self.width, self.height) };
        let colors = self.screen.find_changes(rgba, dirty, first, self.keep);
        let choice = if own_table || self.palettes.global.is_none() {
            self.palettes.choose(colors, first)
        } else {
            Choice::Global
        };
        let (palette, mapper) = self.palettes.get(choice)?;
        self.screen.map_changes(rgba, dirty, palette, mapper, self.keep);
        let (dispose_prev, cleared) =
            if first { (DisposalMethod::Keep, Rect::default()) } else { self.clear_pending(dirty)? };
        let (area, rect) = if first {
            (full, full)
        } else {
            let area = dirty.union(&cleared);
            (area, self.screen.frame_rect(area, cleared))
        };
        let (palette, mapper) = self.palettes.get(choice)?;
        let mut indices = self.screen.indices(rect, dirty, cleared, palette, mapper);
        let code_size = (self.keep == Keep::Adaptive)
            .then(|| self.screen.loosen(&mut indices, rect, (dirty, cleared), rgba, palette, mapper));
        let t = palette.transparent();
        let local = (choice == Choice::Recent).then(|| palette.clone());
        self.screen.commit(area);
        if let Some(p) = self.pending.take() {
            self.write(p, dispose_prev)?;
        }
        let (rect, indices) =
            if rect.is_empty() { (Rect { x0: 0, y0: 0, x1: 1, y1: 1 }, vec![t]) } else { (rect, indices) };
        self.pending = Some(Pending { rect, indices, delay, local, code_size });
        self.frames += 1;
        Ok(())
    }

    /// Pixels that must turn transparent need the pending frame's rectangle cleared after
    /// display (disposal Background), grown to cover them if needed. Only that rectangle is
    /// cleared; the new frame redraws the pixels there that stay visible. Returns the pending
    /// frame's disposal and the cleared rectangle.
    fn clear_pending(&mut self, dirty: Rect) -> Result<(DisposalMethod, Rect), MediaRejection> {
        let turning = self.screen.turning_clear(dirty);
        let Some(pend) = self.pending.as_mut().filter(|_| !turning.is_empty()) else {
            return Ok((DisposalMethod::Keep, Rect::default()));
        };
        let t = self.palettes.transparent_of(pend.local.as_ref())?;
        let grown = pend.rect.union(&turning);
        if grown != pend.rect {
            pend.indices = regrow(&pend.indices, pend.rect, grown, t);
            pend.rect = grown;
        }
        Ok((DisposalMethod::Background, grown))
    }

    /// Holds a finished frame back, or writes it when holding would pass `hold_max`.
    fn write(&mut self, p: Pending, dispose: DisposalMethod) -> Result<(), MediaRejection> {
        let frame =
            Done { rect: p.rect, indices: p.indices, delay: p.delay, dispose, local: p.local, code_size: p.code_size };
        if self.streaming.is_none() && self.held + frame.indices.len() <= self.hold_max {
            self.held += frame.indices.len();
            self.done.push(frame);
            return Ok(());
        }
        if self.streaming.is_none() {
            // Too much to hold: the global table as it is, and the frames held so far written now.
            let global = self.palettes.global.as_ref().map(Layout::as_is);
            let enc = self.encoder(global.as_ref())?;
            self.streaming = Some((enc, global));
            self.held = 0;
            for held in std::mem::take(&mut self.done) {
                self.encode(held)?;
            }
        }
        self.encode(frame)
    }

    /// A GIF encoder for the thumbnail, with `global`'s table.
    fn encoder(&self, global: Option<&Layout>) -> Result<Encoder<Vec<u8>>, MediaRejection> {
        let w = u16::try_from(self.width).map_err(|_| crate::error::internal("thumbnail too wide"))?;
        let h = u16::try_from(self.height).map_err(|_| crate::error::internal("thumbnail too tall"))?;
        let table = global.map(|l| l.table.clone()).unwrap_or_default();
        let mut enc = Encoder::new(Vec::new(), w, h, &table).map_err(enc_err)?;
        enc.set_repeat(self.repeat).map_err(enc_err)?;
        Ok(enc)
    }

    /// Writes `frame` through the streaming encoder.
    fn encode(&mut self, frame: Done) -> Result<(), MediaRejection> {
        let t = self.palettes.transparent_of(None).ok();
        match self.streaming.as_mut() {
            Some((enc, global)) => write_frame(enc, frame, global.as_ref(), t),
            None => Err(crate::error::internal("GIF encoder missing")),
        }
    }

    /// Writes the last frame and returns the GIF bytes.
    ///
    /// The colour tables are laid out now that every frame is known, the way gifsicle does: the
    /// global table keeps only the colours some frame uses, ordered so that most frames need only
    /// low indices, and each frame takes as transparent the lowest index it does not use. A GIF
    /// frame's codes are as wide as its highest index needs, so a small frame with a few common
    /// colours is written with 2- to 5-bit codes instead of 8-bit ones. A local table keeps only
    /// the colours its frame uses. (Past `hold_max`, frames were written as they came instead.)
    pub(crate) fn finish(mut self) -> Result<Vec<u8>, MediaRejection> {
        if let Some(p) = self.pending.take() {
            self.write(p, DisposalMethod::Keep)?;
        }
        if let Some((enc, _)) = self.streaming.take() {
            return enc.into_inner().map_err(enc_err);
        }
        if self.done.is_empty() {
            return Err(MediaRejection::invalid("The animation has no frames."));
        }
        let global = self.palettes.global.as_ref().map(|g| Layout::global(g, &self.done));
        let mut enc = self.encoder(global.as_ref())?;
        let t = self.palettes.transparent_of(None).ok();
        for frame in std::mem::take(&mut self.done) {
            write_frame(&mut enc, frame, global.as_ref(), t)?;
        }
        enc.into_inner().map_err(enc_err)
    }
}

/// Writes one frame: its local table cut to its colours, or its indices in `global`'s layout
/// (`global_transparent` being the global palette's transparent index).
fn write_frame(
    enc: &mut Encoder<Vec<u8>>,
    frame: Done,
    global: Option<&Layout>,
    global_transparent: Option<u8>,
) -> Result<(), MediaRejection> {
    let (indices, transparent, palette) = match (&frame.local, global, global_transparent) {
        (Some(local), _, _) => {
            let layout = Layout::local(local, &frame.indices);
            let (indices, t) = layout.remap(&frame.indices, local.transparent());
            (indices, t, Some(layout.table))
        }
        (None, Some(layout), Some(t)) => {
            let (indices, t) = layout.remap(&frame.indices, t);
            (indices, t, None)
        }
        _ => return Err(crate::error::internal("palette missing")),
    };
    // The lossy pass's code size when it ran (the coder must parse as it did; remapping only
    // lowers indices, so it is wide enough), else the smallest.
    let code_size = frame.code_size.unwrap_or_else(|| lzw::min_code_size(&indices));
    let out = Frame {
        delay: frame.delay,
        dispose: frame.dispose,
        transparent,
        left: frame.rect.x0 as u16,
        top: frame.rect.y0 as u16,
        width: frame.rect.width() as u16,
        height: frame.rect.height() as u16,
        palette,
        buffer: Cow::Owned(lzw::encode(&indices, code_size)),
        ..Frame::default()
    };
    enc.write_lzw_pre_encoded_frame(&out).map_err(enc_err)
}

/// Re-lays `buf` (the pixels of `from`) over the larger `to`, filling new pixels with `fill`.
fn regrow(buf: &[u8], from: Rect, to: Rect, fill: u8) -> Vec<u8> {
    let fw = from.width() as usize;
    let mut out = Vec::with_capacity(to.width() as usize * to.height() as usize);
    for y in to.y0..to.y1 {
        for x in to.x0..to.x1 {
            let v = if x >= from.x0 && x < from.x1 && y >= from.y0 && y < from.y1 {
                let i = (y - from.y0) as usize * fw + (x - from.x0) as usize;
                buf.get(i).copied().unwrap_or(fill)
            } else {
                fill
            };
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use gif::Repeat;
    use image::codecs::gif::GifDecoder;
    use image::AnimationDecoder;

    use super::AnimEncoder;
    use crate::resize::Rect;

    const W: u32 = 40;
    const H: u32 = 30;

    /// A palette of 64 colours and 12 frames, each repainting a band of the canvas with them.
    fn frames() -> (Vec<u8>, Vec<Vec<u8>>) {
        let palette: Vec<u8> = (0..64u8).flat_map(|i| [i * 4, 255 - i * 4, i.wrapping_mul(37)]).collect();
        let mut canvas = vec![0u8; (W * H * 4) as usize];
        let mut out = Vec::new();
        for k in 0..12u32 {
            for y in 0..H {
                for x in 0..W {
                    if k == 0 || (y + k) % 4 == 0 {
                        let c = ((x * 7 + y * 3 + k * 11) % 64) as usize;
                        let p = ((y * W + x) * 4) as usize;
                        canvas[p..p + 3].copy_from_slice(&palette[c * 3..c * 3 + 3]);
                        canvas[p + 3] = 255;
                    }
                }
            }
            out.push(canvas.clone());
        }
        (palette, out)
    }

    fn encode(hold_max: usize) -> Vec<u8> {
        let (palette, frames) = frames();
        let mut enc = AnimEncoder::new(W, H, Repeat::Infinite, Some(&palette));
        enc.hold_max = hold_max;
        for frame in &frames {
            enc.push(frame, Rect::full(W, H), 10, false).unwrap();
        }
        enc.finish().unwrap()
    }

    fn decoded(gif: &[u8]) -> Vec<Vec<u8>> {
        let frames = GifDecoder::new(std::io::Cursor::new(gif)).unwrap().into_frames().collect_frames().unwrap();
        frames.into_iter().map(|f| f.into_buffer().into_raw()).collect()
    }

    #[test]
    fn past_the_hold_budget_frames_are_written_as_they_come_and_stay_exact() {
        let (_, source) = frames();
        let laid_out = encode(usize::MAX);
        // A budget of two frames: the third one makes the encoder write everything as it comes.
        let streamed = encode((W * H * 2) as usize);
        assert_ne!(laid_out, streamed, "the budget was not reached");
        assert_eq!(decoded(&laid_out), source);
        assert_eq!(decoded(&streamed), source);
    }
}
