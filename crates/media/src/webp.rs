//! WebP: our own RIFF header parse (the decoder has no limits) and the animated pipeline.

use std::io::Cursor;

use gif::Repeat;
use image::codecs::webp::WebPDecoder;
use image::metadata::LoopCount;
use image::AnimationDecoder;

use crate::limits::{Deadline, Limits};
use crate::resize::Rect;
use crate::sink::{CanvasFrame, Output, Sinks, Source, Tools};
use crate::still::process_still;
use crate::video::duration_ms;
use crate::{Made, MediaKind, MediaRejection};

/// What the RIFF chunk walk found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WebpInfo {
    pub width: u32,
    pub height: u32,
    pub frames: u32,
    pub animated: bool,
    /// Each frame's duration in hundredths of a second (as the pipeline hands them to the sinks);
    /// empty for a still image.
    pub delays: Vec<u16>,
}

/// A WebP frame duration (milliseconds) in the GIF unit the sinks use, hundredths of a second.
fn ms_to_cs(ms: f64) -> u16 {
    (ms / 10.0).round().clamp(0.0, f64::from(u16::MAX)) as u16
}

fn corrupt(detail: &str) -> MediaRejection {
    MediaRejection::invalid(format!("The WebP file is damaged: {detail}."))
}

fn u24(b: &[u8]) -> u32 {
    u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16
}

fn vp8_size(data: &[u8]) -> Result<(u32, u32), MediaRejection> {
    match data.get(0..10) {
        Some(d) if d[3..6] == [0x9D, 0x01, 0x2A] => Ok((
            u32::from(u16::from_le_bytes([d[6], d[7]]) & 0x3FFF),
            u32::from(u16::from_le_bytes([d[8], d[9]]) & 0x3FFF),
        )),
        _ => Err(corrupt("its VP8 header is invalid")),
    }
}

fn vp8l_size(data: &[u8]) -> Result<(u32, u32), MediaRejection> {
    match data.get(0..5) {
        Some(d) if d[0] == 0x2F => {
            let bits = u32::from_le_bytes([d[1], d[2], d[3], d[4]]);
            Ok(((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
        }
        _ => Err(corrupt("its VP8L header is invalid")),
    }
}

/// Iterates over the chunks of a RIFF body: `(fourcc, data)`.
fn chunks(body: &[u8]) -> impl Iterator<Item = Result<([u8; 4], &[u8]), MediaRejection>> + '_ {
    let mut pos = 0usize;
    std::iter::from_fn(move || {
        if pos + 8 > body.len() {
            return None;
        }
        let h = &body[pos..pos + 8];
        let fourcc = [h[0], h[1], h[2], h[3]];
        let size = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as usize;
        let start = pos + 8;
        let Some(data) = start.checked_add(size).and_then(|end| body.get(start..end)) else {
            pos = body.len();
            return Some(Err(corrupt("it ends in the middle of a chunk")));
        };
        pos = start + size + (size & 1);
        Some(Ok((fourcc, data)))
    })
}

/// Reads the canvas size and, for animations, every frame's size, checking the limits.
pub(crate) fn webp_info(b: &[u8], limits: &Limits) -> Result<WebpInfo, MediaRejection> {
    let body = b.get(12..).ok_or_else(|| corrupt("it has no header"))?;
    let mut it = chunks(body);
    let (fourcc, data) = it.next().ok_or_else(|| corrupt("it has no image data"))??;
    let (width, height) = match &fourcc {
        b"VP8 " => vp8_size(data)?,
        b"VP8L" => vp8l_size(data)?,
        b"VP8X" => {
            let d = data.get(0..10).ok_or_else(|| corrupt("its VP8X header is too short"))?;
            let (w, h) = (u24(&d[4..7]) + 1, u24(&d[7..10]) + 1);
            limits.check_canvas(w, h)?;
            if d[0] & 0x02 == 0 {
                return Ok(WebpInfo { width: w, height: h, frames: 1, animated: false, delays: Vec::new() });
            }
            let canvas = u64::from(w) * u64::from(h);
            let mut frames = 0u32;
            let mut delays = Vec::new();
            for chunk in it {
                let (fourcc, data) = chunk?;
                if &fourcc != b"ANMF" {
                    continue;
                }
                let d = data.get(0..16).ok_or_else(|| corrupt("a frame header is too short"))?;
                let (fw, fh) = (u24(&d[6..9]) + 1, u24(&d[9..12]) + 1);
                limits.check_frame(frames, fw, fh)?;
                delays.push(ms_to_cs(f64::from(u24(&d[12..15]))));
                frames += 1;
                limits.check_frame_count(frames)?;
                // The decoder composites every frame onto the whole canvas.
                limits.check_total_pixels(canvas * u64::from(frames))?;
            }
            if frames == 0 {
                return Err(corrupt("it is marked as animated but contains no frames"));
            }
            return Ok(WebpInfo { width: w, height: h, frames, animated: true, delays });
        }
        _ => return Err(corrupt("its first chunk is not an image")),
    };
    limits.check_canvas(width, height)?;
    Ok(WebpInfo { width, height, frames: 1, animated: false, delays: Vec::new() })
}

fn decode_err(e: image::ImageError) -> MediaRejection {
    crate::error::corrupt_by("WebP", e)
}

/// Still WebP goes to the still pipeline; animated WebP is decoded frame by frame into the
/// `outputs`' sinks (an animated GIF thumbnail), no further than they need.
pub(crate) fn process_webp(
    bytes: &[u8],
    limits: &Limits,
    deadline: &Deadline,
    outputs: &[Output],
    tools: Tools<'_>,
) -> Result<Made, MediaRejection> {
    let info = webp_info(bytes, limits)?;
    if !info.animated {
        return process_still(MediaKind::Webp, bytes, limits, deadline, outputs, tools);
    }
    let dec = WebPDecoder::new(Cursor::new(bytes)).map_err(decode_err)?;
    let (cw, ch) = (info.width, info.height);
    let repeat = match dec.loop_count() {
        LoopCount::Infinite => Repeat::Infinite,
        LoopCount::Finite(n) => Repeat::Finite(u16::try_from(n.get()).unwrap_or(u16::MAX)),
    };
    let source = Source { width: cw, height: ch, repeat, global_palette: None, keep_close: 0, delays: &info.delays };
    let mut sinks = Sinks::new(outputs, &source, limits, tools)?;
    let mut all_opaque = true;
    let mut sampler = crate::phash::Sampler::new(info.frames);
    let mut last = None;
    let mut frames = 0u32;
    for frame in dec.into_frames() {
        deadline.check()?;
        let frame = frame.map_err(decode_err)?;
        frames += 1;
        if frames > info.frames {
            return Err(corrupt("it has more frames than its header shows"));
        }
        let (num, den) = frame.delay().numer_denom_ms();
        let delay = ms_to_cs(f64::from(num) / f64::from(den.max(1)));
        let buf = frame.into_buffer();
        if buf.width() != cw || buf.height() != ch {
            return Err(corrupt("a decoded frame does not match the canvas"));
        }
        let opaque = buf.as_raw().chunks_exact(4).all(|p| p[3] == 255);
        all_opaque &= opaque;
        sinks.frame(&CanvasFrame { rgba: buf.as_raw(), dirty: Rect::full(cw, ch), opaque, delay, own_table: true })?;
        sampler.frame(frames, buf.as_raw(), cw, ch);
        last = Some(buf);
        if !sinks.want_more() {
            break;
        }
    }
    if frames == 0 {
        return Err(corrupt("it contains no frames"));
    }
    let read_all = sinks.want_more();
    let phash = last.and_then(|last| sampler.finish(frames, last.as_raw(), cw, ch));
    Ok(Made {
        kind: MediaKind::Webp,
        width: cw,
        height: ch,
        frames: if read_all { frames } else { info.frames },
        renditions: sinks.finish()?,
        phash,
        opaque: all_opaque,
        duration_ms: if info.frames > 1 { duration_ms(&info.delays) } else { 0 },
    })
}
