//! Hostile files, built here in code.

use super::*;

// ---------------------------------------------------------------------------------------------
// Hostile files

/// GIF LZW data (min code size 2) for `pixels` pixels of one colour: the n-th code stands for n
/// pixels, so a run of k pixels takes about √(2k) codes, and the table is never cleared (once it is
/// full every 12-bit code stands for 4091 pixels). A frame of millions of pixels is a few kilobytes.
pub(super) fn lzw_run(colour: u8, pixels: usize) -> Vec<u8> {
    let mut codes: Vec<u16> = vec![4, u16::from(colour)];
    let mut left = pixels.saturating_sub(1);
    let mut next: u16 = 6;
    while left > 0 {
        let code = next.min(4095);
        let run = usize::from(code) - 4;
        if left >= run {
            codes.push(code);
            left -= run;
            next = next.saturating_add(1);
        } else {
            codes.push(if left == 1 { u16::from(colour) } else { (left + 4) as u16 });
            left = 0;
        }
    }
    codes.push(5);
    // Widths as the decoder reads them: the first code after the clear adds no entry; each later
    // one adds one, and the width grows when the next free code reaches a power of two.
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0_u32, 0_u32);
    for (i, &code) in codes.iter().enumerate() {
        let next_free = 6 + i.saturating_sub(2);
        let width = if i == 0 { 3 } else { (usize::BITS - next_free.leading_zeros()).clamp(3, 12) };
        acc |= u32::from(code) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
    out
}

/// A valid GIF of `frames` full-canvas frames of `w`×`h`, alternating two colours, each frame a
/// few bytes of "deferred clear" LZW: little to upload, `w`×`h`×`frames` pixels of work. A comment
/// pads it to `pad_to` bytes.
pub(super) fn run_gif(w: u16, h: u16, frames: usize, pad_to: usize) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(&[0x81, 0, 0]);
    out.extend_from_slice(&[255, 0, 0, 0, 0, 255, 0, 255, 0, 255, 255, 255]);
    out.extend_from_slice(b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00");
    let pixels = usize::from(w) * usize::from(h);
    let data = [sub_blocks(&lzw_run(0, pixels)), sub_blocks(&lzw_run(1, pixels))];
    for k in 0..frames {
        out.extend_from_slice(&[0x21, 0xF9, 4, 0, 4, 0, 0, 0, 0x2C, 0, 0, 0, 0]);
        out.extend_from_slice(&w.to_le_bytes());
        out.extend_from_slice(&h.to_le_bytes());
        out.extend_from_slice(&[0, 2]);
        out.extend_from_slice(&data[k % 2]);
    }
    if pad_to > out.len() + 8 {
        out.extend_from_slice(&[0x21, 0xFE]);
        let filler = vec![b'.'; (pad_to - out.len() - 4) * 255 / 256];
        out.extend(sub_blocks(&filler));
    }
    out.push(0x3B);
    out
}

/// A PNG of a few dozen bytes that declares 50000×50000 RGBA pixels (10 GB decoded).
pub(super) fn png_pixel_flood() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = 50_000_u32.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&50_000_u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    out.extend(png_chunk(b"IHDR", &ihdr));
    out.extend(png_chunk(b"IDAT", &[0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    out.extend(png_chunk(b"IEND", &[]));
    out
}

/// An animated WebP (VP8X with the animation flag, ANIM, `frames` ANMF chunks) declaring a
/// `w`×`h` canvas and full-canvas frames, with no image data at all.
pub(super) fn webp_animation(w: u32, h: u32, frames: usize) -> Vec<u8> {
    let mut body = b"WEBP".to_vec();
    let mut vp8x = vec![0x02, 0, 0, 0];
    vp8x.extend_from_slice(&u24(w - 1));
    vp8x.extend_from_slice(&u24(h - 1));
    body.extend(riff_chunk(b"VP8X", &vp8x));
    body.extend(riff_chunk(b"ANIM", &[0, 0, 0, 0, 0, 0]));
    for _ in 0..frames {
        let mut frame = Vec::new();
        frame.extend_from_slice(&u24(0));
        frame.extend_from_slice(&u24(0));
        frame.extend_from_slice(&u24(w - 1));
        frame.extend_from_slice(&u24(h - 1));
        frame.extend_from_slice(&u24(100));
        frame.push(0);
        body.extend(riff_chunk(b"ANMF", &frame));
    }
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

/// GPS coordinates as EXIF rationals (48°51'29.64"N 2°17'40.20"E), recognisable in any output.
pub(super) fn gps_rationals() -> Vec<u8> {
    let mut out = Vec::new();
    for (n, d) in [(48_u32, 1_u32), (51, 1), (2964, 100), (2, 1), (17, 1), (4020, 100)] {
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&d.to_le_bytes());
    }
    out
}

/// A `w`×`h` JPEG, red on the stored left half and blue on the right, with a hand-written APP1
/// EXIF segment: IFD0 with the orientation and a GPS IFD pointer, and the GPS IFD.
pub(super) fn jpeg_with_gps(w: u32, h: u32, orientation: u16) -> Vec<u8> {
    use image::ImageEncoder;
    let pixels: Vec<u8> = (0..w * h).flat_map(|i| if i % w < w / 2 { [255, 0, 0] } else { [0, 0, 255] }).collect();
    let mut plain = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut plain, 90)
        .write_image(&pixels, w, h, image::ExtendedColorType::Rgb8)
        .unwrap_or_else(|e| panic!("{e}"));
    let entry = |tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        let mut e = tag.to_le_bytes().to_vec();
        e.extend_from_slice(&kind.to_le_bytes());
        e.extend_from_slice(&count.to_le_bytes());
        e.extend_from_slice(&value);
        e
    };
    // TIFF header (8) + IFD0 (2 + 2×12 + 4 = 30) → the GPS IFD at 38 (2 + 4×12 + 4 = 54) → the
    // rationals at 92 (latitude) and 116 (longitude).
    let mut tiff = b"II*\0".to_vec();
    tiff.extend_from_slice(&8_u32.to_le_bytes());
    tiff.extend_from_slice(&2_u16.to_le_bytes());
    let [o0, o1] = orientation.to_le_bytes();
    tiff.extend(entry(0x0112, 3, 1, [o0, o1, 0, 0]));
    tiff.extend(entry(0x8825, 4, 1, 38_u32.to_le_bytes()));
    tiff.extend_from_slice(&0_u32.to_le_bytes());
    tiff.extend_from_slice(&4_u16.to_le_bytes());
    tiff.extend(entry(0x0001, 2, 2, *b"N\0\0\0"));
    tiff.extend(entry(0x0002, 5, 3, 92_u32.to_le_bytes()));
    tiff.extend(entry(0x0003, 2, 2, *b"E\0\0\0"));
    tiff.extend(entry(0x0004, 5, 3, 116_u32.to_le_bytes()));
    tiff.extend_from_slice(&0_u32.to_le_bytes());
    assert_eq!(tiff.len(), 92);
    tiff.extend(gps_rationals());
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&tiff);
    let mut out = vec![0xFF, 0xD8, 0xFF, 0xE1];
    out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&plain[2..]);
    out
}

/// A GIF that is also a valid script: `GIF89a=\t0\t/* …binary… */;alert(document.domain);//…`.
/// The width's high byte and the height's are tabs, so the canvas is 2365×2352 (within the
/// limits); the flags and background bytes open the comment; a GIF comment closes it.
pub(super) fn gif_js_polyglot() -> Vec<u8> {
    let mut out = b"GIF89a=\t0\t/*\0".to_vec();
    // One 1×1 frame with its own two-colour table.
    out.extend_from_slice(&[0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80, 255, 0, 0, 0, 0, 255, 2, 2, 0x44, 0x01, 0]);
    out.extend_from_slice(&[0x21, 0xFE]);
    out.extend(sub_blocks(b"*/;alert(document.domain);//"));
    out.push(0x3B);
    out
}

/// A valid GIF followed, after its trailer, by an HTML page with a script.
pub(super) fn gif_then_html() -> Vec<u8> {
    let mut out = animated_gif(16, 16, 2);
    out.extend_from_slice(b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
    out
}
