//! Header pass: type, dimensions and frame count without decoding a single pixel.

use crate::limits::Limits;
use crate::sniff::{sniff, MediaKind};
use crate::{webp, MediaError};

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
pub fn probe(bytes: &[u8], limits: &Limits) -> Result<Probe, MediaError> {
    let kind = sniff(bytes).ok_or(MediaError::UnsupportedType)?;
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
    pub width: u32,
    pub height: u32,
    pub frames: u32,
    /// The NETSCAPE2.0 loop count: `None` when the file has no looping extension (play once),
    /// `Some(0)` for forever.
    pub loop_count: Option<u16>,
}

fn gif_truncated() -> MediaError {
    MediaError::Corrupt("The GIF file is truncated: it ends in the middle of a block.".into())
}

fn le16(b: &[u8], at: usize) -> Result<u32, MediaError> {
    match b.get(at..at + 2) {
        Some(s) => Ok(u32::from(u16::from_le_bytes([s[0], s[1]]))),
        None => Err(gif_truncated()),
    }
}

fn byte(b: &[u8], at: usize) -> Result<u8, MediaError> {
    b.get(at).copied().ok_or_else(gif_truncated)
}

/// Skips a chain of data sub-blocks starting at `pos`; returns the position after the terminator.
fn skip_sub_blocks(b: &[u8], mut pos: usize) -> Result<usize, MediaError> {
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

/// Walks the GIF block structure, checking the limits as it goes.
pub(crate) fn gif_info(b: &[u8], limits: &Limits) -> Result<GifInfo, MediaError> {
    if b.len() < 13 {
        return Err(MediaError::Corrupt("The GIF file is truncated: it has no complete header.".into()));
    }
    let width = le16(b, 6)?;
    let height = le16(b, 8)?;
    limits.check_canvas(width, height)?;
    let packed = b[10];
    let mut pos = 13;
    if packed & 0x80 != 0 {
        pos += 3 << ((packed & 7) + 1);
    }
    let mut frames = 0u32;
    let mut total = 0u64;
    let mut loop_count = None;
    // A missing trailer after complete frames is common and harmless.
    while let Some(&block) = b.get(pos) {
        match block {
            0x3B => break,
            0x21 => {
                let label = byte(b, pos + 1)?;
                if label == 0xFF && byte(b, pos + 2)? == 11 {
                    let id = b.get(pos + 3..pos + 14).ok_or_else(gif_truncated)?;
                    if id == b"NETSCAPE2.0" || id == b"ANIMEXTS1.0" {
                        let sub = pos + 14;
                        if byte(b, sub)? >= 3 && byte(b, sub + 1)? == 1 {
                            loop_count = Some(le16(b, sub + 2)? as u16);
                        }
                    }
                }
                pos = skip_sub_blocks(b, pos + 2)?;
            }
            0x2C => {
                let fw = le16(b, pos + 5)?;
                let fh = le16(b, pos + 7)?;
                let fpacked = byte(b, pos + 9)?;
                limits.check_frame(frames, fw, fh)?;
                frames += 1;
                limits.check_frame_count(frames)?;
                total += u64::from(fw) * u64::from(fh);
                limits.check_total_pixels(total)?;
                pos += 10;
                if fpacked & 0x80 != 0 {
                    pos += 3 << ((fpacked & 7) + 1);
                }
                let min_code = byte(b, pos)?;
                if !(1..=12).contains(&min_code) {
                    return Err(MediaError::Corrupt(format!(
                        "The GIF file is damaged: frame {frames} has an invalid LZW code size."
                    )));
                }
                pos = skip_sub_blocks(b, pos + 1)?;
            }
            other => {
                return Err(MediaError::Corrupt(format!(
                    "The GIF file is damaged: unexpected data (byte 0x{other:02X}) at offset {pos}."
                )))
            }
        }
    }
    if frames == 0 {
        return Err(MediaError::Corrupt("The GIF file contains no frames.".into()));
    }
    Ok(GifInfo { width, height, frames, loop_count })
}

fn png_size(b: &[u8]) -> Result<(u32, u32), MediaError> {
    match b.get(8..24) {
        Some(h) if &h[4..8] == b"IHDR" => {
            Ok((u32::from_be_bytes([h[8], h[9], h[10], h[11]]), u32::from_be_bytes([h[12], h[13], h[14], h[15]])))
        }
        _ => Err(MediaError::Corrupt("The PNG file is damaged: it has no image header (IHDR).".into())),
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

fn jpeg_corrupt(detail: &str) -> MediaError {
    MediaError::Corrupt(format!("The JPEG file is damaged: {detail}."))
}

/// Walks the JPEG markers up to the start of scan: frame size from SOFn, orientation from APP1.
pub(crate) fn jpeg_info(b: &[u8]) -> Result<JpegInfo, MediaError> {
    let mut pos = 2;
    let mut orientation = 1;
    loop {
        // Skip to the next marker, tolerating fill bytes.
        while b.get(pos) == Some(&0xFF) && b.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        if b.get(pos) != Some(&0xFF) {
            return Err(jpeg_corrupt("it ends before the image size is declared"));
        }
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
                    return Err(MediaError::Corrupt(format!(
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
