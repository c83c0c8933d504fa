//! Header pass: type, dimensions and frame count without decoding a single pixel.

use crate::limits::Limits;
use crate::sniff::{sniff, MediaKind};
use crate::{webp, MediaRejection};

/// What the headers say about an upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The type decided from the magic bytes.
    pub kind: MediaKind,
    /// Display width in pixels (for JPEG, after the EXIF orientation is applied).
    pub width: u32,
    /// Display height in pixels (for JPEG, after the EXIF orientation is applied).
    pub height: u32,
    /// Number of frames (1 for still images).
    pub frames: u32,
    /// True when the image is an animation (more than one frame, or an animated WebP).
    pub animated: bool,
}

/// Reads only the headers and checks every limit that can be checked without decoding: canvas
/// and frame dimensions, frame count and the total-pixel budget. For GIF the frames are counted
/// by walking the blocks and skipping the compressed data.
pub fn probe(bytes: &[u8], limits: &Limits) -> Result<Probe, MediaRejection> {
    let kind = sniff(bytes).ok_or_else(MediaRejection::unsupported)?;
    match kind {
        MediaKind::Gif => {
            let info = gif_info(bytes, limits)?;
            Ok(Probe { kind, width: info.width, height: info.height, frames: info.frames, animated: info.frames > 1 })
        }
        MediaKind::Png => {
            let (width, height) = png_size(bytes)?;
            limits.check_canvas(width, height)?;
            Ok(still(kind, width, height))
        }
        MediaKind::Jpeg => {
            let info = jpeg_info(bytes)?;
            limits.check_canvas(info.width, info.height)?;
            let (width, height) =
                if info.orientation >= 5 { (info.height, info.width) } else { (info.width, info.height) };
            Ok(still(kind, width, height))
        }
        MediaKind::Webp => {
            let info = webp::webp_info(bytes, limits)?;
            Ok(Probe { kind, width: info.width, height: info.height, frames: info.frames, animated: info.animated })
        }
    }
}

fn still(kind: MediaKind, width: u32, height: u32) -> Probe {
    Probe { kind, width, height, frames: 1, animated: false }
}

/// What the GIF block walk found.
#[derive(Clone, Debug)]
pub(crate) struct GifInfo {
    /// The canvas: the logical screen, grown to hold the first frame (see [`gif_info`]).
    pub width: u32,
    pub height: u32,
    /// Complete frames (a frame cut short by the end of the file is not counted).
    pub frames: u32,
    /// The NETSCAPE2.0 loop count: `None` when the file has no looping extension (play once),
    /// `Some(0)` for forever.
    pub loop_count: Option<u16>,
    /// The file has no global colour table and a frame has no local one either: such frames are
    /// drawn with [`crate::gif_pipeline::default_palette`].
    pub needs_default_palette: bool,
    /// The delay of each complete frame in hundredths of a second, as stored (0 when the frame
    /// has no graphic control extension): a video encoder needs the timing before the first
    /// frame is decoded.
    pub delays: Vec<u16>,
}

const GIF_TRUNCATED: &str = "The GIF file is truncated: it ends in the middle of a block.";

fn gif_truncated() -> MediaRejection {
    MediaRejection::invalid(GIF_TRUNCATED)
}

fn is_truncation(e: &MediaRejection) -> bool {
    matches!(e, MediaRejection::InvalidImage { message, .. } if message == GIF_TRUNCATED)
}

fn le16(b: &[u8], at: usize) -> Result<u32, MediaRejection> {
    match b.get(at..at + 2) {
        Some(s) => Ok(u32::from(u16::from_le_bytes([s[0], s[1]]))),
        None => Err(gif_truncated()),
    }
}

fn byte(b: &[u8], at: usize) -> Result<u8, MediaRejection> {
    b.get(at).copied().ok_or_else(gif_truncated)
}

/// Skips a chain of data sub-blocks starting at `pos`; returns the position after the terminator.
fn skip_sub_blocks(b: &[u8], mut pos: usize) -> Result<usize, MediaRejection> {
    loop {
        let len = usize::from(byte(b, pos)?);
        pos += 1;
        if len == 0 {
            return Ok(pos);
        }
        pos += len;
        if pos > b.len() {
            return Err(gif_truncated());
        }
    }
}

/// One step of the GIF block walk.
enum GifBlock {
    Trailer,
    /// `delay`: the delay of a graphic control extension, for the next frame.
    Extension {
        end: usize,
        loop_count: Option<u16>,
        delay: Option<u16>,
    },
    Frame {
        end: usize,
        left: u32,
        top: u32,
        width: u32,
        height: u32,
        local_table: bool,
    },
}

/// Reads the block at `pos` (its introducer is `block`); a `gif_truncated` error when the file
/// ends inside it.
fn gif_block(b: &[u8], pos: usize, block: u8) -> Result<GifBlock, MediaRejection> {
    match block {
        0x3B => Ok(GifBlock::Trailer),
        0x21 => {
            let label = byte(b, pos + 1)?;
            let mut loop_count = None;
            let mut delay = None;
            if label == 0xF9 && byte(b, pos + 2)? >= 4 {
                delay = Some(le16(b, pos + 4)? as u16);
            }
            if label == 0xFF && byte(b, pos + 2)? == 11 {
                let id = b.get(pos + 3..pos + 14).ok_or_else(gif_truncated)?;
                if id == b"NETSCAPE2.0" || id == b"ANIMEXTS1.0" {
                    let sub = pos + 14;
                    if byte(b, sub)? >= 3 && byte(b, sub + 1)? == 1 {
                        loop_count = Some(le16(b, sub + 2)? as u16);
                    }
                }
            }
            Ok(GifBlock::Extension { end: skip_sub_blocks(b, pos + 2)?, loop_count, delay })
        }
        0x2C => {
            let left = le16(b, pos + 1)?;
            let top = le16(b, pos + 3)?;
            let width = le16(b, pos + 5)?;
            let height = le16(b, pos + 7)?;
            let fpacked = byte(b, pos + 9)?;
            let mut data = pos + 10;
            if fpacked & 0x80 != 0 {
                data += 3 << ((fpacked & 7) + 1);
            }
            let min_code = byte(b, data)?;
            if !(1..=12).contains(&min_code) {
                return Err(MediaRejection::invalid("The GIF file is damaged: a frame has an invalid LZW code size."));
            }
            let end = skip_sub_blocks(b, data + 1)?;
            Ok(GifBlock::Frame { end, left, top, width, height, local_table: fpacked & 0x80 != 0 })
        }
        other => Err(MediaRejection::invalid(format!(
            "The GIF file is damaged: unexpected data (byte 0x{other:02X}) at offset {pos}."
        ))),
    }
}

/// Walks the GIF block structure, checking the limits as it goes.
///
/// Tolerance, as browsers: the canvas is the union of the logical screen and the first frame
/// (Chromium's rule: a first frame larger than, or off the edge of, the screen grows it, so a
/// 0×0 screen takes the first frame's size; later frames are clipped to it). A file cut short
/// after at least one complete frame keeps its complete frames; so does a missing trailer.
pub(crate) fn gif_info(b: &[u8], limits: &Limits) -> Result<GifInfo, MediaRejection> {
    if b.len() < 13 {
        return Err(MediaRejection::invalid("The GIF file is truncated: it has no complete header."));
    }
    let mut width = le16(b, 6)?;
    let mut height = le16(b, 8)?;
    // A 0×0 screen is settled by the first frame; any other size is checked now.
    if width != 0 && height != 0 {
        limits.check_canvas(width, height)?;
    }
    let packed = b[10];
    let global_table = packed & 0x80 != 0;
    let mut pos = 13;
    if global_table {
        pos += 3 << ((packed & 7) + 1);
    }
    let mut frames = 0u32;
    let mut total = 0u64;
    let mut loop_count = None;
    let mut needs_default_palette = false;
    let mut delays = Vec::new();
    let mut next_delay = 0u16;
    // A missing trailer after complete frames is common and harmless.
    while let Some(&block) = b.get(pos) {
        let step = match gif_block(b, pos, block) {
            Err(e) if is_truncation(&e) && frames > 0 => {
                // Cut short after complete frames: keep them, as browsers show them.
                break;
            }
            Err(e) if is_truncation(&e) && block == 0x2C => {
                return Err(MediaRejection::invalid(
                    "The GIF file is truncated: it ends before its first frame is complete.",
                ))
            }
            other => other?,
        };
        match step {
            GifBlock::Trailer => break,
            GifBlock::Extension { end, loop_count: l, delay } => {
                if l.is_some() {
                    loop_count = l;
                }
                if let Some(d) = delay {
                    next_delay = d;
                }
                pos = end;
            }
            GifBlock::Frame { end, left, top, width: fw, height: fh, local_table } => {
                limits.check_frame(frames, fw, fh)?;
                if frames == 0 {
                    // Chromium's rule: the canvas grows to hold the first frame.
                    width = width.max(left + fw);
                    height = height.max(top + fh);
                    limits.check_canvas(width, height)?;
                }
                frames += 1;
                limits.check_frame_count(frames)?;
                total += u64::from(fw) * u64::from(fh);
                limits.check_total_pixels(total)?;
                needs_default_palette |= !global_table && !local_table;
                // A graphic control extension applies to the one frame after it.
                delays.push(std::mem::take(&mut next_delay));
                pos = end;
            }
        }
    }
    if frames == 0 {
        return Err(MediaRejection::invalid("The GIF file contains no frames."));
    }
    Ok(GifInfo { width, height, frames, loop_count, needs_default_palette, delays })
}

fn png_size(b: &[u8]) -> Result<(u32, u32), MediaRejection> {
    match b.get(8..29) {
        Some(h) if &h[4..8] == b"IHDR" => {
            // libpng (every browser) refuses methods it does not know; so do we, clearly.
            for (what, value, known) in [("compression", h[18], 0), ("filter", h[19], 0), ("interlace", h[20], 1)] {
                if value > known {
                    return Err(MediaRejection::invalid(format!(
                        "The PNG file uses an unknown {what} method ({value}) that no browser can display."
                    )));
                }
            }
            Ok((u32::from_be_bytes([h[8], h[9], h[10], h[11]]), u32::from_be_bytes([h[12], h[13], h[14], h[15]])))
        }
        _ => Err(MediaRejection::invalid("The PNG file is damaged: it has no image header (IHDR).")),
    }
}

/// What the JPEG marker walk found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JpegInfo {
    /// Stored (not oriented) width.
    pub width: u32,
    /// Stored (not oriented) height.
    pub height: u32,
    /// EXIF orientation, 1 to 8 (1 when absent).
    pub orientation: u8,
}

fn jpeg_corrupt(detail: &str) -> MediaRejection {
    MediaRejection::invalid(format!("The JPEG file is damaged: {detail}."))
}

/// The position of the next marker at or after `pos` (its 0xFF), skipping what libjpeg's
/// `next_marker` skips: stray bytes between segments, `FF 00` pairs and 0xFF fill bytes.
pub(crate) fn next_jpeg_marker(b: &[u8], mut pos: usize) -> Option<usize> {
    loop {
        pos += b.get(pos..)?.iter().position(|&x| x == 0xFF)?;
        // Fill bytes: the last 0xFF of a run starts the marker.
        while b.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        match b.get(pos + 1)? {
            0x00 => pos += 2,
            _ => return Some(pos),
        }
    }
}

/// Whether a marker is an application segment or a comment: the segments decoders skip by their
/// length whatever they hold, and that libjpeg also skips when their length is impossible.
pub(crate) fn is_skippable_jpeg_marker(marker: u8) -> bool {
    matches!(marker, 0xE0..=0xEF | 0xFE)
}

/// Walks the JPEG markers up to the start of scan: frame size from SOFn, orientation from APP1.
/// As tolerant as libjpeg: bytes between segments are skipped, and an application or comment
/// segment with an impossible length (0 or 1) is passed over.
pub(crate) fn jpeg_info(b: &[u8]) -> Result<JpegInfo, MediaRejection> {
    let mut pos = 2;
    let mut orientation = 1;
    loop {
        pos = next_jpeg_marker(b, pos).ok_or_else(|| jpeg_corrupt("it ends before the image size is declared"))?;
        let Some(&marker) = b.get(pos + 1) else {
            return Err(jpeg_corrupt("it ends before the image size is declared"));
        };
        pos += 2;
        if marker == 0x01 || (0xD0..=0xD8).contains(&marker) {
            continue;
        }
        let len = match b.get(pos..pos + 2) {
            Some(s) => usize::from(u16::from_be_bytes([s[0], s[1]])),
            None => return Err(jpeg_corrupt("it ends before the image size is declared")),
        };
        if len < 2 {
            if is_skippable_jpeg_marker(marker) {
                pos += 2;
                continue;
            }
            return Err(jpeg_corrupt("a segment has an invalid length"));
        }
        let seg = b.get(pos + 2..pos + len).ok_or_else(|| jpeg_corrupt("it ends in the middle of a header segment"))?;
        match marker {
            0xE1 => {
                if let Some(o) = exif_orientation(seg) {
                    orientation = o;
                }
            }
            0xC0..=0xC3 | 0xC5..=0xC7 | 0xC9..=0xCB | 0xCD..=0xCF => {
                if seg.len() < 5 {
                    return Err(jpeg_corrupt("the frame header is too short"));
                }
                let height = u32::from(u16::from_be_bytes([seg[1], seg[2]]));
                let width = u32::from(u16::from_be_bytes([seg[3], seg[4]]));
                if width == 0 || height == 0 {
                    return Err(MediaRejection::invalid(format!(
                        "The JPEG file declares an unsupported size of {width}×{height} pixels."
                    )));
                }
                return Ok(JpegInfo { width, height, orientation });
            }
            0xDA | 0xD9 => return Err(jpeg_corrupt("the image data starts before its size is declared")),
            _ => {}
        }
        pos += len;
    }
}

/// The orientation tag (0x0112) of IFD0 in an APP1 "Exif" segment, when present and valid.
pub(crate) fn exif_orientation(seg: &[u8]) -> Option<u8> {
    let tiff = seg.strip_prefix(b"Exif\0\0")?;
    let big = match tiff.get(0..4)? {
        b"II*\0" => false,
        b"MM\0*" => true,
        _ => return None,
    };
    let u16_at = |at: usize| -> Option<u16> {
        let s = tiff.get(at..at + 2)?;
        Some(if big { u16::from_be_bytes([s[0], s[1]]) } else { u16::from_le_bytes([s[0], s[1]]) })
    };
    let u32_at = |at: usize| -> Option<u32> {
        let s = tiff.get(at..at + 4)?;
        Some(if big {
            u32::from_be_bytes([s[0], s[1], s[2], s[3]])
        } else {
            u32::from_le_bytes([s[0], s[1], s[2], s[3]])
        })
    };
    let ifd = usize::try_from(u32_at(4)?).ok()?;
    let count = usize::from(u16_at(ifd)?);
    for i in 0..count.min(512) {
        let entry = ifd + 2 + i * 12;
        if u16_at(entry)? == 0x0112 {
            let value = u16_at(entry + 8)?;
            return u8::try_from(value).ok().filter(|v| (1..=8).contains(v));
        }
    }
    None
}
