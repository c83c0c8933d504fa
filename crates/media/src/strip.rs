//! Metadata removal for the stored original: the container is rewritten without the blocks that
//! describe the photo rather than draw it (EXIF with its GPS position, XMP, IPTC, text chunks,
//! comments). Pixel data is copied byte for byte, never decoded and encoded again, so the stored
//! file decodes to exactly the same pixels. Kept: ICC colour profiles (colours), the GIF loop
//! count (timing), and for JPEG the EXIF orientation alone (how the photo is shown), rewritten as
//! a minimal EXIF block.
//!
//! Runs after [`crate::probe`] accepted the headers; it still checks every length it reads and
//! answers a damaged file with [`MediaRejection::InvalidImage`] rather than copying what it cannot parse.
//! Bytes after the format's end marker (where phones and editors append trailers) are dropped.

use crate::probe::{exif_orientation, is_skippable_jpeg_marker, next_jpeg_marker};
use crate::sniff::{sniff, MediaKind};
use crate::MediaRejection;

/// The upload without its metadata (see the module documentation).
///
/// # Errors
/// `UnsupportedType` for bytes of no supported type; `Corrupt` when the container's structure is
/// broken (a length that runs past the end, a missing signature).
pub fn strip_metadata(bytes: &[u8]) -> Result<Vec<u8>, MediaRejection> {
    match sniff(bytes).ok_or_else(MediaRejection::unsupported)? {
        MediaKind::Jpeg => strip_jpeg(bytes),
        MediaKind::Png => strip_png(bytes),
        MediaKind::Webp => strip_webp(bytes),
        MediaKind::Gif => strip_gif(bytes),
    }
}

fn cut<'a>(bytes: &'a [u8], from: usize, len: usize, what: &str) -> Result<&'a [u8], MediaRejection> {
    from.checked_add(len)
        .and_then(|end| bytes.get(from..end))
        .ok_or_else(|| crate::error::corrupt(what, "a block runs past the end of the file"))
}

fn be16(bytes: &[u8], at: usize, what: &str) -> Result<usize, MediaRejection> {
    cut(bytes, at, 2, what).map(|s| usize::from(u16::from_be_bytes([s[0], s[1]])))
}

fn be32(bytes: &[u8], at: usize, what: &str) -> Result<usize, MediaRejection> {
    let s = cut(bytes, at, 4, what)?;
    usize::try_from(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
        .map_err(|_| crate::error::corrupt(what, "a block is too long"))
}

fn le32(bytes: &[u8], at: usize, what: &str) -> Result<usize, MediaRejection> {
    let s = cut(bytes, at, 4, what)?;
    usize::try_from(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .map_err(|_| crate::error::corrupt(what, "a block is too long"))
}

// --- JPEG -----------------------------------------------------------------------------------------

const SOI: u8 = 0xD8;
const EOI: u8 = 0xD9;
const SOS: u8 = 0xDA;
const APP0: u8 = 0xE0;
const APP1: u8 = 0xE1;
const APP2: u8 = 0xE2;
const APP14: u8 = 0xEE;
const COM: u8 = 0xFE;

/// Whether a JPEG segment draws the picture (kept) or describes it (dropped). Only the markers
/// that decoding needs survive among the application segments: JFIF (APP0), an ICC profile (APP2
/// `ICC_PROFILE`) and Adobe's colour transform (APP14). Everything else of APPn and COM goes:
/// EXIF and XMP (APP1), MPF (APP2, it points at images after the end marker, which are dropped),
/// IPTC (APP13), comments.
fn keep_jpeg_segment(marker: u8, payload: &[u8]) -> bool {
    match marker {
        APP0 | APP14 => true,
        APP2 => payload.starts_with(b"ICC_PROFILE\0"),
        0xE3..=0xED | APP1 | 0xEF | COM => false,
        _ => true,
    }
}

/// A minimal APP1 EXIF segment that holds only the orientation tag (big-endian TIFF, one IFD0
/// entry of type SHORT), so a rotated phone photo stays upright without keeping anything else.
fn orientation_segment(orientation: u8) -> Vec<u8> {
    let mut tiff = b"Exif\0\0MM\0\x2a\0\0\0\x08".to_vec();
    tiff.extend_from_slice(&1u16.to_be_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_be_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_be_bytes()); // one value
    tiff.extend_from_slice(&[0, orientation, 0, 0]); // the value, left-justified
    tiff.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    let length = u16::try_from(tiff.len() + 2).unwrap_or(u16::MAX);
    let mut segment = vec![0xFF, APP1];
    segment.extend_from_slice(&length.to_be_bytes());
    segment.extend(tiff);
    segment
}

/// The end of the entropy-coded data that starts at `from`: the position of the next marker that
/// is neither a stuffed 0xFF (`FF 00`) nor a restart marker (`FF D0`–`FF D7`).
fn entropy_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i + 1 < bytes.len() {
        if bytes[i] == 0xFF {
            match bytes[i + 1] {
                0x00 | 0xD0..=0xD7 => i += 2,
                0xFF => i += 1,
                _ => return i,
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

fn strip_jpeg(bytes: &[u8]) -> Result<Vec<u8>, MediaRejection> {
    const WHAT: &str = "JPEG";
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&[0xFF, SOI]);
    let mut orientation = None;
    let mut pos = 2;
    while pos < bytes.len() {
        // As libjpeg: stray bytes between segments are skipped (and dropped), as are 0xFF fill
        // bytes before a marker.
        let Some(at) = next_jpeg_marker(bytes, pos) else {
            break;
        };
        pos = at;
        let marker = *bytes.get(pos + 1).ok_or_else(|| crate::error::corrupt(WHAT, "it ends inside a marker"))?;
        match marker {
            EOI => {
                out.extend_from_slice(&[0xFF, EOI]);
                break;
            }
            0x01 | 0xD0..=0xD7 => {
                out.extend_from_slice(&[0xFF, marker]);
                pos += 2;
            }
            _ => {
                let length = be16(bytes, pos + 2, WHAT)?;
                if length < 2 && is_skippable_jpeg_marker(marker) {
                    // An impossible length on a metadata segment: libjpeg passes over it.
                    pos += 4;
                    continue;
                }
                if length < 2 {
                    return Err(crate::error::corrupt(WHAT, "a segment has an impossible length"));
                }
                let segment = cut(bytes, pos, 2 + length, WHAT)?;
                let payload = &segment[4..];
                if marker == APP1 && orientation.is_none() {
                    orientation = exif_orientation(payload).filter(|o| *o != 1);
                    if let Some(o) = orientation {
                        out.extend(orientation_segment(o));
                    }
                }
                if keep_jpeg_segment(marker, payload) {
                    out.extend_from_slice(segment);
                }
                pos += 2 + length;
                if marker == SOS {
                    let end = entropy_end(bytes, pos);
                    out.extend_from_slice(&bytes[pos..end]);
                    pos = end;
                }
            }
        }
    }
    Ok(out)
}

// --- PNG ------------------------------------------------------------------------------------------

const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// Text chunks, the EXIF chunk and the modification time describe the file; everything else
/// (including `iCCP`, `gAMA`, `cHRM`, `sRGB` and APNG's `acTL`/`fcTL`/`fdAT`) draws it.
fn keep_png_chunk(kind: &[u8]) -> bool {
    !matches!(kind, b"tEXt" | b"iTXt" | b"zTXt" | b"eXIf" | b"tIME")
}

fn strip_png(bytes: &[u8]) -> Result<Vec<u8>, MediaRejection> {
    const WHAT: &str = "PNG";
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err(crate::error::corrupt(WHAT, "the signature is missing"));
    }
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(PNG_SIGNATURE);
    let mut pos = PNG_SIGNATURE.len();
    while pos < bytes.len() {
        let length = be32(bytes, pos, WHAT)?;
        let chunk = cut(bytes, pos, 12usize.saturating_add(length), WHAT)?;
        let kind = &chunk[4..8];
        if keep_png_chunk(kind) {
            out.extend_from_slice(chunk);
        }
        pos += chunk.len();
        if kind == b"IEND" {
            break;
        }
    }
    Ok(out)
}

// --- WebP -----------------------------------------------------------------------------------------

/// The VP8X flags that announce the chunks we drop.
const VP8X_EXIF: u8 = 0x08;
const VP8X_XMP: u8 = 0x04;

fn strip_webp(bytes: &[u8]) -> Result<Vec<u8>, MediaRejection> {
    const WHAT: &str = "WebP";
    let riff_size = le32(bytes, 4, WHAT)?;
    let end = riff_size.saturating_add(8).min(bytes.len());
    let mut body = Vec::with_capacity(end);
    body.extend_from_slice(b"WEBP");
    let mut pos = 12;
    while pos + 8 <= end {
        let fourcc = cut(bytes, pos, 4, WHAT)?;
        let size = le32(bytes, pos + 4, WHAT)?;
        let padded = size.saturating_add(size & 1);
        let chunk = cut(bytes, pos, 8usize.saturating_add(padded), WHAT)
            // The last chunk may lack its pad byte; decoders accept that.
            .or_else(|_| cut(bytes, pos, 8usize.saturating_add(size), WHAT))?;
        match fourcc {
            b"EXIF" | b"XMP " => {}
            b"VP8X" => {
                let mut vp8x = chunk.to_vec();
                if let Some(flags) = vp8x.get_mut(8) {
                    *flags &= !(VP8X_EXIF | VP8X_XMP);
                }
                body.extend(vp8x);
            }
            _ => {
                body.extend_from_slice(chunk);
                if chunk.len() % 2 == 1 {
                    body.push(0);
                }
            }
        }
        pos += chunk.len();
    }
    let size = u32::try_from(body.len()).map_err(|_| crate::error::corrupt(WHAT, "the file is too long"))?;
    let mut out = Vec::with_capacity(body.len() + 8);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&size.to_le_bytes());
    out.extend(body);
    Ok(out)
}

// --- GIF ------------------------------------------------------------------------------------------

/// The end of the sub-block sequence that starts at `pos` (just past its zero terminator).
fn sub_blocks_end(bytes: &[u8], mut pos: usize) -> Result<usize, MediaRejection> {
    loop {
        let len = usize::from(*bytes.get(pos).ok_or_else(|| crate::error::corrupt("GIF", "it ends inside a block"))?);
        pos += 1 + len;
        if len == 0 {
            return Ok(pos);
        }
    }
}

fn colour_table_len(packed: u8) -> usize {
    if packed & 0x80 == 0 {
        0
    } else {
        3 << ((packed & 0x07) + 1)
    }
}

/// Strips a GIF. A file cut short after at least one complete frame keeps its complete blocks and
/// gets a trailer (browsers show those frames, and the pipeline keeps them too); cut short before
/// that, it is refused.
fn strip_gif(bytes: &[u8]) -> Result<Vec<u8>, MediaRejection> {
    const WHAT: &str = "GIF";
    let screen = cut(bytes, 0, 13, WHAT)?;
    let mut pos = 13 + colour_table_len(screen[10]);
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(cut(bytes, 0, pos, WHAT)?);
    let mut frames = 0usize;
    while let Some(&introducer) = bytes.get(pos) {
        match introducer {
            0x3B => {
                out.push(0x3B);
                break;
            }
            0x2C => {
                // The descriptor, an optional colour table, the LZW minimum code size, then the
                // image data's sub-blocks.
                let frame = cut(bytes, pos, 10, WHAT).and_then(|descriptor| {
                    let data = pos + 10 + colour_table_len(descriptor[9]);
                    let end = sub_blocks_end(bytes, data + 1)?;
                    cut(bytes, pos, end - pos, WHAT)
                });
                match frame {
                    Ok(frame) => {
                        out.extend_from_slice(frame);
                        pos += frame.len();
                        frames += 1;
                    }
                    Err(_) if frames > 0 => {
                        out.push(0x3B);
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
            0x21 => {
                let block = bytes
                    .get(pos + 1)
                    .ok_or_else(|| crate::error::corrupt(WHAT, "it ends inside a block"))
                    .and_then(|_| sub_blocks_end(bytes, pos + 2))
                    .and_then(|end| cut(bytes, pos, end - pos, WHAT));
                let block = match block {
                    Ok(block) => block,
                    Err(_) if frames > 0 => {
                        out.push(0x3B);
                        break;
                    }
                    Err(e) => return Err(e),
                };
                let label = block[1];
                let end = pos + block.len();
                let keep = match label {
                    0xFE => false,
                    0xFF => {
                        let id = block.get(3..14).unwrap_or_default();
                        block.get(2) == Some(&11) && (id == b"NETSCAPE2.0" || id == b"ANIMEXTS1.0")
                    }
                    _ => true,
                };
                if keep {
                    out.extend_from_slice(block);
                }
                pos = end;
            }
            _ => return Err(crate::error::corrupt(WHAT, "it holds an unknown block")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_orientation_segment_reads_back() {
        let segment = orientation_segment(6);
        assert_eq!(exif_orientation(&segment[4..]), Some(6));
        assert_eq!(usize::from(u16::from_be_bytes([segment[2], segment[3]])), segment.len() - 2);
    }

    #[test]
    fn entropy_data_ends_at_the_first_real_marker() {
        let data = [1, 0xFF, 0x00, 2, 0xFF, 0xD3, 3, 0xFF, 0xFF, 0xD9];
        assert_eq!(entropy_end(&data, 0), 8);
        assert_eq!(entropy_end(&[1, 2, 3], 0), 3);
    }

    #[test]
    fn broken_containers_are_refused_not_copied() {
        let cases: [(&str, Vec<u8>); 4] = [
            ("jpeg", vec![0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, b'E']),
            ("png", [PNG_SIGNATURE.as_slice(), &[0, 0, 0x10, 0, b't', b'E', b'X', b't']].concat()),
            ("gif", [b"GIF89a".as_slice(), &[1, 0, 1, 0, 0, 0, 0], &[0x21, 0xFE, 9, b'a']].concat()),
            ("gif block", [b"GIF89a".as_slice(), &[1, 0, 1, 0, 0, 0, 0], &[0x99]].concat()),
        ];
        for (name, bytes) in cases {
            assert!(matches!(strip_metadata(&bytes), Err(MediaRejection::InvalidImage { .. })), "{name}");
        }
        assert!(matches!(strip_metadata(b"hello"), Err(MediaRejection::UnsupportedType(_))));
    }
}
