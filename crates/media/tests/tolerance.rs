//! "As tolerant as browsers": one row per damaged or unusual file, each built in code, with what
//! Chromium and Firefox do with it and what gifshelf does. A file a browser displays must be
//! accepted (probe, process, the still thumbnail and the metadata strip all succeed and agree);
//! one it cannot display must be refused with a `MediaRejection` whose message is a sentence. Where
//! gifshelf deliberately differs, the row says why (`note`).
//!
//! Browser behaviour, as researched (libjpeg-turbo and libpng in both browsers; Wuffs / the old
//! Blink `GIFImageReader` in Chromium, `nsGIFDecoder2` in Firefox):
//! - JPEG: the file must start with `FF D8` (libjpeg's `first_marker`); after that, APPn and COM
//!   segments are skipped by their length whatever their payload, and stray bytes between
//!   segments are skipped with a warning ("extraneous bytes before marker").
//! - PNG: libpng refuses an IHDR with a compression, filter or interlace method it does not know.
//! - GIF: with no colour table at all Wuffs draws opaque black, Firefox its own default table; a
//!   first frame larger than the logical screen enlarges the image in Chromium (the union of the
//!   screen and the first frame; later frames are clipped), so a 0×0 screen takes the first
//!   frame's size; a file cut short shows the frames that arrived.

#![allow(clippy::unwrap_used, clippy::expect_used)] // the shared helpers in common/ unwrap
mod common;

use std::fmt;

use common::*;
use gif::Repeat;
use gifshelf_media::{probe, process, static_thumbnail, strip_metadata, Limits, MediaRejection};
use image::codecs::jpeg::JpegEncoder;
use image::{ExtendedColorType, ImageEncoder};

// ---------- builders ----------

/// A 16×8 baseline JPEG from the `image` crate's encoder (SOI, APP0 JFIF, tables, SOF0, scan).
fn jpeg() -> Vec<u8> {
    let (w, h) = (16u32, 8u32);
    let data: Vec<u8> = (0..w * h).flat_map(|i| [(i % w * 16) as u8, (i / w * 32) as u8, 90]).collect();
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .write_image(&data, w, h, ExtendedColorType::Rgb8)
        .unwrap_or_else(|e| panic!("{e}"));
    out
}

/// One JPEG segment: marker, big-endian length (payload + 2), payload.
fn segment(marker: u8, payload: &[u8]) -> Vec<u8> {
    let len = u16::try_from(payload.len() + 2).unwrap_or_else(|e| panic!("{e}"));
    [&[0xFF, marker][..], &len.to_be_bytes(), payload].concat()
}

/// The baseline JPEG with `extra` inserted right after SOI (before the frame header).
fn jpeg_with(extra: &[u8]) -> Vec<u8> {
    let base = jpeg();
    [&base[..2], extra, &base[2..]].concat()
}

/// Deterministic bytes that never contain 0xFF (so they cannot look like a marker).
fn junk(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 37 % 251) as u8).collect()
}

fn png_with_ihdr(patch: impl Fn(&mut [u8])) -> Vec<u8> {
    let mut b = png(12, 6);
    // IHDR data starts at 16: width, height, depth, colour type, compression, filter, interlace.
    patch(&mut b[16..29]);
    let crc = crc32(&b[12..29]);
    b[29..33].copy_from_slice(&crc.to_be_bytes());
    b
}

const PAL: [u8; 6] = [255, 0, 0, 0, 0, 255];

fn gif(w: u16, h: u16, frames: &[GifFrame]) -> Vec<u8> {
    make_gif(w, h, &PAL, Some(Repeat::Infinite), frames)
}

/// A 6×4 GIF of one frame with neither a global nor a local colour table.
fn gif_without_colour_table() -> Vec<u8> {
    let mut idx = vec![0u8; 24];
    idx[..12].fill(1);
    let b = gif(6, 4, &[GifFrame { idx, ..GifFrame::solid(0, 0, 6, 4, 0) }]);
    // Drop the two-entry global table (6 bytes after the screen descriptor) and its flag.
    let mut out = b[..13].to_vec();
    out[10] &= 0x78;
    out.extend_from_slice(&b[19..]);
    out
}

/// A GIF whose logical screen says `w`×`h` and whose frames are `frames`.
fn gif_with_screen(w: u16, h: u16, frames: &[GifFrame]) -> Vec<u8> {
    let mut b = gif(16, 16, frames);
    b[6..8].copy_from_slice(&w.to_le_bytes());
    b[8..10].copy_from_slice(&h.to_le_bytes());
    b
}

/// Three 16×16 frames of noise, cut `from_end` bytes before the end of the third frame's data
/// (or of the first, when `first` is set).
fn truncated_gif(first: bool) -> Vec<u8> {
    let frames: Vec<GifFrame> = (0..3u8)
        .map(|k| GifFrame {
            idx: (0..256u32).map(|i| ((i * 7 + u32::from(k) * 3) % 2) as u8).collect(),
            ..GifFrame::solid(0, 0, 16, 16, 0)
        })
        .collect();
    let b = gif(16, 16, &frames);
    // Image descriptors start with 0x2C right after a graphic control extension (… 00 2C).
    let starts: Vec<usize> = (1..b.len()).filter(|&i| b[i] == 0x2C && b[i - 1] == 0 && b[i - 7] == 0xF9).collect();
    assert_eq!(starts.len(), 3, "frame starts {starts:?}");
    let at = if first { starts[0] } else { starts[2] };
    // Descriptor (10), min code size (1), first sub-block length (1), then a few data bytes.
    b[..at + 10 + 1 + 1 + 5].to_vec()
}

/// One 6×4 frame whose LZW data holds a single pixel, then the end code.
fn gif_with_short_lzw() -> Vec<u8> {
    let mut b = b"GIF89a\x06\x00\x04\x00\x80\x00\x00".to_vec();
    b.extend_from_slice(&PAL);
    b.extend_from_slice(&[0x2C, 0, 0, 0, 0, 6, 0, 4, 0, 0]);
    b.extend_from_slice(&[2, 2, 0x4C, 0x01, 0, 0x3B]);
    b
}

// ---------- the table ----------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Browser {
    Displays,
    Refuses,
}

#[derive(Clone, PartialEq, Eq, Debug)]
enum Outcome {
    /// Accepted: display width, height and frame count.
    Accepted(u32, u32, u32),
    /// Refused: the variant name and a piece of the message.
    Refused(&'static str, &'static str),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Accepted(w, h, n) => write!(f, "accepted {w}×{h}, {n} frame(s)"),
            Outcome::Refused(v, m) => write!(f, "refused {v}: …{m}…"),
        }
    }
}

struct Row {
    name: &'static str,
    bytes: fn() -> Vec<u8>,
    browser: Browser,
    gifshelf: Outcome,
    /// Why gifshelf differs from the browsers, when it does.
    note: &'static str,
}

/// Every case, by format.
fn rows() -> Vec<Row> {
    [jpeg_rows(), jpeg_segment_rows(), png_rows(), gif_rows()].into_iter().flatten().collect()
}

/// JPEG: a baseline, junk before it, and broken Exif metadata.
fn jpeg_rows() -> Vec<Row> {
    use Browser::*;
    use Outcome::*;
    vec![
        Row { name: "JPEG baseline (control)", bytes: jpeg, browser: Displays, gifshelf: Accepted(16, 8, 1), note: "" },
        Row {
            name: "JPEG with junk before SOI",
            bytes: || [b"junk!".as_slice(), &jpeg()].concat(),
            browser: Refuses,
            gifshelf: Refused("UnsupportedType", "not a supported image"),
            note: "",
        },
        Row {
            name: "JPEG APP1 Exif with a garbage TIFF body",
            bytes: || jpeg_with(&segment(0xE1, &[b"Exif\0\0".as_slice(), &junk(60)].concat())),
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
        Row {
            name: "JPEG APP1 Exif whose IFD offset points past the segment",
            bytes: || jpeg_with(&segment(0xE1, b"Exif\0\0MM\0\x2a\xff\xff\xff\x00\0\x01")),
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
        Row {
            name: "JPEG APP1 Exif cut inside IFD0 (20 entries announced, 1 present)",
            bytes: || {
                let mut t = b"Exif\0\0II\x2a\0\x08\0\0\0\x14\0".to_vec();
                t.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]);
                t.extend_from_slice(&[0x0F, 0x01, 2]);
                jpeg_with(&segment(0xE1, &t))
            },
            browser: Displays,
            gifshelf: Accepted(8, 16, 1),
            note: "the one complete orientation entry (6) is honoured, as browsers do",
        },
        Row {
            name: "JPEG APP1 Exif with orientation 9 (out of range)",
            bytes: || {
                let mut t = b"Exif\0\0II\x2a\0\x08\0\0\0\x01\0".to_vec();
                t.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0]);
                jpeg_with(&segment(0xE1, &t))
            },
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
    ]
}

/// JPEG: segments other than Exif that are cut, odd or of impossible lengths.
fn jpeg_segment_rows() -> Vec<Row> {
    use Browser::*;
    use Outcome::*;
    vec![
        Row {
            name: "JPEG APP13 Photoshop IRB cut inside an 8BIM block",
            bytes: || jpeg_with(&segment(0xED, b"Photoshop 3.0\x008BIM\x04\x04\0\0\0\0\x01\x00\x1c\x02")),
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
        Row {
            name: "JPEG binary COM segment",
            bytes: || jpeg_with(&segment(0xFE, &[0, 0xFF, 0xD9, 0xFF, 0xDA, 1, 2, 3])),
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
        Row {
            name: "JPEG APP2 ICC_PROFILE with a garbage profile",
            bytes: || jpeg_with(&segment(0xE2, &[b"ICC_PROFILE\0\x01\x01".as_slice(), &junk(40)].concat())),
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
        Row {
            name: "JPEG APP1 whose length stops short (stray bytes before the next marker)",
            bytes: || jpeg_with(&[&segment(0xE1, b"Exif\0\0")[..], &junk(30)].concat()),
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
        Row {
            name: "JPEG APP1 with an impossible length (0)",
            bytes: || jpeg_with(&[0xFF, 0xE1, 0x00, 0x00, b'E', b'x']),
            browser: Displays,
            gifshelf: Accepted(16, 8, 1),
            note: "",
        },
        Row {
            name: "JPEG APP1 whose length runs past the end of the file",
            bytes: || [&[0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00][..], b"Exif\0\0", &junk(20)].concat(),
            browser: Refuses,
            gifshelf: Refused("Corrupt", "JPEG"),
            note: "",
        },
    ]
}

/// PNG: a baseline, then header fields out of range.
fn png_rows() -> Vec<Row> {
    use Browser::*;
    use Outcome::*;
    vec![
        Row {
            name: "PNG baseline (control)",
            bytes: || png(12, 6),
            browser: Displays,
            gifshelf: Accepted(12, 6, 1),
            note: "",
        },
        Row {
            name: "PNG with IHDR compression method 1",
            bytes: || png_with_ihdr(|h| h[10] = 1),
            browser: Refuses,
            gifshelf: Refused("Corrupt", "compression method"),
            note: "",
        },
        Row {
            name: "PNG with IHDR filter method 1",
            bytes: || png_with_ihdr(|h| h[11] = 1),
            browser: Refuses,
            gifshelf: Refused("Corrupt", "filter method"),
            note: "",
        },
        Row {
            name: "PNG with IHDR interlace method 2",
            bytes: || png_with_ihdr(|h| h[12] = 2),
            browser: Refuses,
            gifshelf: Refused("Corrupt", "interlace method"),
            note: "",
        },
    ]
}

/// GIF: a baseline, then odd screens, frames and cut data.
fn gif_rows() -> Vec<Row> {
    use Browser::*;
    use Outcome::*;
    vec![
        Row {
            name: "GIF baseline (control)",
            bytes: || tiny_gif(3),
            browser: Displays,
            gifshelf: Accepted(8, 8, 3),
            note: "",
        },
        Row {
            name: "GIF with no colour table at all",
            bytes: gif_without_colour_table,
            browser: Displays,
            gifshelf: Accepted(6, 4, 1),
            note: "default table: index 0 black, 1 white, n grey (n,n,n) (GIF89a appendix advice)",
        },
        Row {
            name: "GIF second frame past the screen's bottom right",
            bytes: || gif(8, 8, &[GifFrame::solid(0, 0, 8, 8, 0), GifFrame::solid(5, 6, 8, 8, 1)]),
            browser: Displays,
            gifshelf: Accepted(8, 8, 2),
            note: "clipped to the screen",
        },
        Row {
            name: "GIF only frame larger than the screen (4×4 screen, 8×6 frame)",
            bytes: || gif_with_screen(4, 4, &[GifFrame::solid(0, 0, 8, 6, 1)]),
            browser: Displays,
            gifshelf: Accepted(8, 6, 1),
            note: "as Chromium: the canvas grows to hold the first frame",
        },
        Row {
            name: "GIF first frame off the screen's edge (8×8 screen, 8×8 frame at 4,2)",
            bytes: || gif(8, 8, &[GifFrame::solid(4, 2, 8, 8, 1), GifFrame::solid(4, 2, 8, 8, 0)]),
            browser: Displays,
            gifshelf: Accepted(12, 10, 2),
            note: "as Chromium (Firefox moves the frame to 0,0 and shows 8×8)",
        },
        Row {
            name: "GIF with a 0×0 logical screen and a 5×3 frame",
            bytes: || gif_with_screen(0, 0, &[GifFrame::solid(0, 0, 5, 3, 1)]),
            browser: Displays,
            gifshelf: Accepted(5, 3, 1),
            note: "",
        },
        Row {
            name: "GIF LZW data shorter than the frame (1 of 24 pixels)",
            bytes: gif_with_short_lzw,
            browser: Displays,
            gifshelf: Accepted(6, 4, 1),
            note: "missing pixels stay transparent",
        },
        Row {
            name: "GIF cut short inside the third frame's data",
            bytes: || truncated_gif(false),
            browser: Displays,
            gifshelf: Accepted(16, 16, 2),
            note: "the two complete frames are kept; the partial third is dropped",
        },
        Row {
            name: "GIF cut short inside the first frame's data",
            bytes: || truncated_gif(true),
            browser: Displays,
            gifshelf: Refused("Corrupt", "truncated"),
            note: "browsers show the rows that arrived; gifshelf keeps no partial frame and refuses",
        },
    ]
}

fn variant(e: &MediaRejection) -> &'static str {
    match e {
        MediaRejection::UnsupportedType(_) => "UnsupportedType",
        MediaRejection::InvalidImage { .. } => "Corrupt",
        MediaRejection::ImageTooLarge(_) => "TooLarge",
        MediaRejection::ImageTooComplex => "Timeout",
        MediaRejection::Busy => "Busy",
        MediaRejection::Internal(_) => "Internal",
    }
}

/// What the server does with an upload (`MediaService`): probe, decode and render, static
/// thumbnail, strip the metadata of the original; then the stored original must be accepted
/// again with the same figures. Answers the figures or the first refusal.
fn run(bytes: &[u8]) -> Result<(u32, u32, u32), MediaRejection> {
    let limits = Limits::default();
    let p = probe(bytes, &limits)?;
    let made = process(bytes, &limits)?;
    let still = static_thumbnail(bytes, &limits)?;
    let stripped = strip_metadata(bytes)?;
    let again = process(&stripped, &limits)
        .map_err(|e| MediaRejection::internal(format!("the stripped original is refused: {e}")))?;
    let figures = (made.width, made.height, made.frames);
    let agree = (p.width, p.height) == (made.width, made.height)
        && p.frames == made.frames
        && (again.width, again.height, again.frames) == figures
        && (still.width, still.height) == (made.static_thumbnail.width, made.static_thumbnail.height);
    if !agree {
        return Err(MediaRejection::internal(format!(
            "the paths disagree: probe {}×{}×{}, process {figures:?}, stripped {}×{}×{}",
            p.width, p.height, p.frames, again.width, again.height, again.frames
        )));
    }
    Ok(figures)
}

#[test]
fn gifshelf_is_as_tolerant_as_browsers() {
    let mut failures = Vec::new();
    println!("| case | browser | gifshelf | note |\n| --- | --- | --- | --- |");
    for row in rows() {
        let bytes = (row.bytes)();
        let got = run(&bytes);
        let shown = match &got {
            Ok((w, h, n)) => Outcome::Accepted(*w, *h, *n).to_string(),
            Err(e) => format!("refused {}: {e}", variant(e)),
        };
        println!("| {} | {:?} | {shown} | {} |", row.name, row.browser, row.note);
        let ok = match (&row.gifshelf, &got) {
            (Outcome::Accepted(w, h, n), Ok(figures)) => (*w, *h, *n) == *figures,
            (Outcome::Refused(v, m), Err(e)) => {
                let msg = e.to_string();
                *v == variant(e) && msg.contains(m) && msg.ends_with('.') && msg.starts_with(char::is_uppercase)
            }
            _ => false,
        };
        if !ok {
            failures.push(format!("{}: expected {}, got {shown}", row.name, row.gifshelf));
        }
        // A file browsers display is refused only with a reason written down, and never the reverse.
        let accepted = matches!(row.gifshelf, Outcome::Accepted(..));
        if accepted != (row.browser == Browser::Displays) && row.note.is_empty() {
            failures.push(format!("{}: differs from browsers without a note", row.name));
        }
        if row.browser == Browser::Refuses && accepted {
            failures.push(format!("{}: browsers refuse it, gifshelf must too", row.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
