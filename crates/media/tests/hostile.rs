#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed step should stop the test loudly
mod common;

use std::time::Duration;

use common::*;
use gif::Repeat;
use gifshelf_media::{probe, process, sniff, Limits, MediaRejection};

const PAL: [u8; 6] = [255, 0, 0, 0, 0, 255];

fn assert_too_large(r: Result<impl std::fmt::Debug, MediaRejection>) -> String {
    match r {
        Err(e @ MediaRejection::ImageTooLarge(_)) => e.to_string(),
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

fn assert_corrupt(r: Result<impl std::fmt::Debug, MediaRejection>) -> String {
    match r {
        Err(e @ MediaRejection::InvalidImage { .. }) => e.to_string(),
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

#[test]
fn canvas_bomb_is_refused_before_allocation() {
    let b = canvas_bomb();
    assert!(b.len() < 70, "{} bytes", b.len());
    let msg = assert_too_large(probe(&b, &Limits::default()));
    assert_eq!(msg, "The image is 65535×65535 pixels; the limit is 8192×8192.");
    assert_too_large(process(&b, &Limits::default()));
}

#[test]
fn png_pixel_flood_is_refused_before_allocation() {
    let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = 50_000u32.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&50_000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    b.extend(png_chunk(b"IHDR", &ihdr));
    b.extend(png_chunk(b"IDAT", &[0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    b.extend(png_chunk(b"IEND", &[]));
    let msg = assert_too_large(probe(&b, &Limits::default()));
    assert!(msg.contains("50000×50000"), "{msg}");
    assert_too_large(process(&b, &Limits::default()));
}

/// A GIF of `n` frames of `w`×`h` whose compressed data is a stub (the header pass never
/// decodes it).
fn frame_flood(n: usize, w: u16, h: u16) -> Vec<u8> {
    let mut b = b"GIF89a".to_vec();
    b.extend_from_slice(&w.to_le_bytes());
    b.extend_from_slice(&h.to_le_bytes());
    b.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 255, 255, 255]);
    for _ in 0..n {
        b.extend_from_slice(&[0x21, 0xF9, 4, 0, 2, 0, 0, 0]);
        b.push(0x2C);
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&w.to_le_bytes());
        b.extend_from_slice(&h.to_le_bytes());
        b.push(0);
        b.extend_from_slice(&[2, 2, 0x4C, 0x01, 0]);
    }
    b.push(0x3B);
    b
}

#[test]
fn frame_flood_is_refused_by_the_header_pass() {
    let b = frame_flood(3000, 512, 512);
    let msg = assert_too_large(probe(&b, &Limits::default()));
    assert!(msg.contains("2000 frames"), "{msg}");
    assert_too_large(process(&b, &Limits::default()));
}

#[test]
fn total_pixel_budget_is_enforced() {
    // 1200 frames of 1000×1000 = 1.2 gigapixels: under the frame cap, over the pixel budget.
    let b = frame_flood(1200, 1000, 1000);
    let msg = assert_too_large(probe(&b, &Limits::default()));
    assert!(msg.contains("megapixels"), "{msg}");
    let small = Limits { max_total_pixels: 1_000_000, ..Limits::default() };
    assert_too_large(process(&frame_flood(5, 1000, 1000), &small));
}

#[test]
fn oversized_frame_in_a_small_canvas_is_refused() {
    let mut b = b"GIF89a".to_vec();
    b.extend_from_slice(&[10, 0, 10, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]);
    b.extend_from_slice(&[0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0]);
    b.extend_from_slice(&[2, 2, 0x4C, 0x01, 0, 0x3B]);
    assert_too_large(probe(&b, &Limits::default()));
    assert_too_large(process(&b, &Limits::default()));
}

#[test]
fn animated_webp_canvas_bomb_is_refused() {
    let b = webp_anim_header_only(16383, 16383, 50);
    let msg = assert_too_large(probe(&b, &Limits::default()));
    assert!(msg.contains("16383×16383"), "{msg}");
    assert_too_large(process(&b, &Limits::default()));
    // Also a canvas within the dimensions but with too many frames of work.
    let b = webp_anim_header_only(4000, 4000, 100);
    assert_too_large(probe(&b, &Limits::default()));
}

fn small_gif() -> Vec<u8> {
    let frames: Vec<GifFrame> = (0..4u8)
        .map(|k| {
            let mut f = GifFrame::solid(0, 0, 64, 64, 0);
            f.idx = (0..64 * 64).map(|i| ((i / 7 + usize::from(k)) % 2) as u8).collect();
            f
        })
        .collect();
    make_gif(64, 64, &PAL, Some(Repeat::Infinite), &frames)
}

#[test]
fn truncated_gif_keeps_its_complete_frames_or_is_corrupt() {
    let g = small_gif();
    // Cut after some complete frames: browsers show those, and so does gifshelf (see tolerance.rs).
    let half = &g[..g.len() / 2];
    let p = probe(half, &Limits::default()).unwrap();
    let out = process(half, &Limits::default()).unwrap();
    assert!((1..4).contains(&out.frames) && out.frames == p.frames, "{} frames", out.frames);
    // Cut before the first frame is complete: nothing to show.
    let first = g.windows(2).position(|w| w == [0x00, 0x2C]).unwrap() + 1 + 20;
    let msg = assert_corrupt(process(&g[..first], &Limits::default()));
    assert!(msg.starts_with("The GIF file is truncated"), "{msg}");
    assert_corrupt(probe(&g[..first], &Limits::default()));
    assert_corrupt(process(&g[..10], &Limits::default()));
}

#[test]
fn garbage_after_the_header_is_corrupt() {
    let mut g = small_gif()[..13 + 6].to_vec();
    g.extend((0..500u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 1));
    let msg = assert_corrupt(process(&g, &Limits::default()));
    assert!(msg.contains("damaged") || msg.contains("truncated"), "{msg}");
}

#[test]
fn gif_without_frames_is_corrupt() {
    let mut g = b"GIF89a".to_vec();
    g.extend_from_slice(&[10, 0, 10, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x3B]);
    let msg = assert_corrupt(process(&g, &Limits::default()));
    assert_eq!(msg, "The GIF file contains no frames.");
}

#[test]
fn other_formats_are_unsupported() {
    let cases: [&[u8]; 7] = [
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>",
        b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>",
        b"just some text, renamed to .gif",
        b"II*\0\x08\0\0\0\0\0",
        b"MM\0*\0\0\0\x08",
        b"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0\x01\0\x18\0",
        b"",
    ];
    for c in cases {
        assert!(sniff(c).is_none());
        assert!(matches!(probe(c, &Limits::default()), Err(MediaRejection::UnsupportedType(_))));
        let err = process(c, &Limits::default()).unwrap_err();
        assert!(matches!(err, MediaRejection::UnsupportedType(_)));
        assert_eq!(err.to_string(), "The file is not a supported image; upload a GIF, PNG, JPEG or WebP file.");
    }
}

#[test]
fn timeout_is_reported() {
    let limits = Limits { timeout: Duration::ZERO, ..Limits::default() };
    let err = process(&small_gif(), &limits).unwrap_err();
    assert!(matches!(err, MediaRejection::ImageTooComplex), "{err:?}");
}

#[test]
fn truncated_and_damaged_inputs_never_panic() {
    let g = small_gif();
    let w = webp_still(40, 30, |x, y| [x as u8, y as u8, 0, 255]);
    let limits = Limits::default();
    for src in [&g, &w] {
        for cut in 0..src.len() {
            let _ = probe(&src[..cut], &limits);
            let _ = process(&src[..cut], &limits);
        }
        let mut s = 12345u32;
        for _ in 0..300 {
            let mut m = src.to_vec();
            for _ in 0..4 {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                let at = (s as usize) % m.len();
                m[at] = (s >> 8) as u8;
            }
            let _ = probe(&m, &limits);
            if let Err(MediaRejection::Internal(msg)) = process(&m, &limits) {
                panic!("internal error on damaged input: {msg}");
            }
        }
    }
}

#[test]
fn error_messages_are_sentences() {
    let errors = [
        process(&canvas_bomb(), &Limits::default()).unwrap_err(),
        process(&frame_flood(3000, 512, 512), &Limits::default()).unwrap_err(),
        process(b"GIF89a", &Limits::default()).unwrap_err(),
        process(b"hello", &Limits::default()).unwrap_err(),
    ];
    for e in errors {
        let m = e.to_string();
        assert!(m.starts_with("The "), "{m}");
        assert!(m.ends_with('.'), "{m}");
    }
}
