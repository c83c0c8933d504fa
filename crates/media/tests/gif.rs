#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed step should stop the test loudly
mod common;

use common::*;
use gif::{DisposalMethod, Repeat};
use gifshelf_media::{probe, process, Limits, MediaKind};

const PAL: [u8; 15] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0];
const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const CLEAR: [u8; 4] = [0, 0, 0, 0];

fn px(img: &image::RgbaImage, x: u32, y: u32) -> [u8; 4] {
    let p = img.get_pixel(x, y).0;
    if p[3] == 0 {
        CLEAR
    } else {
        p
    }
}

/// Keep, Background and Previous disposals, a transparent index and a local palette.
fn disposal_gif() -> Vec<u8> {
    let mut f2 = GifFrame::solid(5, 5, 10, 10, 1);
    f2.transparent = Some(4);
    for (i, v) in f2.idx.iter_mut().enumerate() {
        if (i / 10 + i % 10) % 2 == 0 {
            *v = 4;
        }
    }
    f2.dispose = DisposalMethod::Background;
    f2.delay = 20;
    let mut f3 = GifFrame::solid(20, 10, 5, 5, 2);
    f3.dispose = DisposalMethod::Previous;
    f3.delay = 30;
    let mut f4 = GifFrame::solid(0, 0, 1, 1, 0);
    f4.palette = Some(vec![255, 255, 255, 9, 9, 9]);
    f4.delay = 7;
    make_gif(40, 30, &PAL, Some(Repeat::Infinite), &[GifFrame::solid(0, 0, 40, 30, 0), f2, f3, f4])
}

#[test]
fn disposal_methods_and_transparency_are_composited() {
    let src = disposal_gif();
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!(out.kind, MediaKind::Gif);
    assert_eq!((out.width, out.height, out.frames), (40, 30, 4));
    assert_eq!((out.thumbnail.width, out.thumbnail.height), (40, 30));
    assert_eq!(out.thumbnail.mime, "image/gif");
    let frames = composited(&out.thumbnail.bytes);
    assert_eq!(frames.len(), 4);
    // Frame 1: all red.
    assert_eq!(px(&frames[0], 0, 0), RED);
    assert_eq!(px(&frames[0], 39, 29), RED);
    // Frame 2: a green checker over red; transparent pixels show the red below.
    assert_eq!(px(&frames[1], 6, 5), GREEN);
    assert_eq!(px(&frames[1], 5, 5), RED);
    assert_eq!(px(&frames[1], 20, 20), RED);
    // Frame 3: frame 2's rectangle cleared (Background), blue square drawn.
    assert_eq!(px(&frames[2], 5, 5), CLEAR);
    assert_eq!(px(&frames[2], 6, 5), CLEAR);
    assert_eq!(px(&frames[2], 14, 14), CLEAR);
    assert_eq!(px(&frames[2], 15, 15), RED);
    assert_eq!(px(&frames[2], 22, 12), BLUE);
    // Frame 4: the blue square restored (Previous) and a white pixel from a local palette.
    assert_eq!(px(&frames[3], 22, 12), RED);
    assert_eq!(px(&frames[3], 5, 5), CLEAR);
    assert_eq!(px(&frames[3], 0, 0), WHITE);
    // And every pixel of every frame equals the source's own rendering.
    let want = composited(&src);
    for (i, (a, b)) in frames.iter().zip(&want).enumerate() {
        for (x, y, p) in a.enumerate_pixels() {
            let q = b.get_pixel(x, y);
            let (p, q) = (if p[3] == 0 { CLEAR } else { p.0 }, if q[3] == 0 { CLEAR } else { q.0 });
            assert_eq!(p, q, "frame {i} pixel {x},{y}");
        }
    }
    let meta = gif_meta(&out.thumbnail.bytes);
    assert_eq!(meta.delays, vec![10, 20, 30, 7]);
    assert_eq!(meta.repeat, Repeat::Infinite);
    // Static thumbnail: one still PNG frame of the same size.
    assert_eq!(out.static_thumbnail.mime, "image/png");
    let still = image::load_from_memory(&out.static_thumbnail.bytes).unwrap().to_rgba8();
    assert_eq!(still.dimensions(), (40, 30));
    assert_eq!(still.get_pixel(3, 3).0, RED);
}

#[test]
fn interlaced_frames_are_deinterlaced() {
    // 16 rows, each its own colour (index = row % 5), stored in interlaced order.
    let (w, h) = (8u16, 16u16);
    let rows: Vec<u32> =
        (0..16).step_by(8).chain((4..16).step_by(8)).chain((2..16).step_by(4)).chain((1..16).step_by(2)).collect();
    let mut f = GifFrame::solid(0, 0, w, h, 0);
    f.interlaced = true;
    f.idx = rows.iter().flat_map(|&r| vec![(r % 5) as u8; usize::from(w)]).collect();
    let src = make_gif(w, h, &PAL, None, &[f]);
    let out = process(&src, &Limits::default()).unwrap();
    let still = image::load_from_memory(&out.static_thumbnail.bytes).unwrap().to_rgba8();
    let frames = composited(&out.thumbnail.bytes);
    for y in 0..16u32 {
        let i = (y % 5) as usize;
        let want = [PAL[i * 3], PAL[i * 3 + 1], PAL[i * 3 + 2], 255];
        assert_eq!(frames[0].get_pixel(3, y).0, want, "row {y}");
        assert_eq!(still.get_pixel(3, y).0, want, "static row {y}");
    }
}

fn gradient_gif(w: u16, h: u16, n: usize, repeat: Option<Repeat>) -> Vec<u8> {
    let pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
    let frames: Vec<GifFrame> = (0..n)
        .map(|k| {
            let mut f = GifFrame::solid(0, 0, w, h, 0);
            f.idx = (0..usize::from(w) * usize::from(h))
                .map(|p| ((p % usize::from(w) + p / usize::from(w) + k * 7) % 256) as u8)
                .collect();
            f.delay = 3 + k as u16;
            f
        })
        .collect();
    make_gif(w, h, &pal, repeat, &frames)
}

#[test]
fn wide_gif_is_scaled_to_320_with_delays_and_loops_kept() {
    let src = gradient_gif(640, 100, 6, Some(Repeat::Finite(3)));
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!((out.thumbnail.width, out.thumbnail.height), (320, 50));
    assert_eq!((out.static_thumbnail.width, out.static_thumbnail.height), (320, 50));
    let meta = gif_meta(&out.thumbnail.bytes);
    assert_eq!((meta.width, meta.height), (320, 50));
    assert_eq!(meta.delays, vec![3, 4, 5, 6, 7, 8]);
    assert_eq!(meta.repeat, Repeat::Finite(3));
    let still = image::load_from_memory(&out.static_thumbnail.bytes).unwrap();
    assert_eq!((still.width(), still.height()), (320, 50));
}

#[test]
fn play_once_gif_stays_play_once() {
    let src = gradient_gif(50, 20, 3, None);
    let out = process(&src, &Limits::default()).unwrap();
    let meta = gif_meta(&out.thumbnail.bytes);
    assert_eq!(meta.repeat, Repeat::Finite(0));
    assert_eq!(meta.delays.len(), 3);
    assert_eq!((meta.width, meta.height), (50, 20), "never upscaled");
}

#[test]
fn identical_frames_are_kept_as_frames() {
    let frames: Vec<GifFrame> = (0..5).map(|_| GifFrame::solid(0, 0, 400, 40, 2)).collect();
    let src = make_gif(400, 40, &PAL, Some(Repeat::Infinite), &frames);
    let out = process(&src, &Limits::default()).unwrap();
    let meta = gif_meta(&out.thumbnail.bytes);
    assert_eq!(meta.delays.len(), 5);
    assert_eq!((meta.width, meta.height), (320, 32));
    for f in composited(&out.thumbnail.bytes) {
        assert_eq!(f.get_pixel(100, 10).0, BLUE);
    }
}

#[test]
fn frame_turning_transparent_is_cleared_in_the_output() {
    // Frame 1 paints a square, frame 2 (after Background disposal) leaves it empty.
    let mut f1 = GifFrame::solid(2, 2, 6, 6, 1);
    f1.dispose = DisposalMethod::Background;
    let f2 = GifFrame::solid(12, 2, 3, 3, 2);
    let src = make_gif(20, 10, &PAL, Some(Repeat::Infinite), &[f1, f2]);
    let out = process(&src, &Limits::default()).unwrap();
    let frames = composited(&out.thumbnail.bytes);
    assert_eq!(px(&frames[0], 4, 4), GREEN);
    assert_eq!(px(&frames[1], 4, 4), CLEAR);
    assert_eq!(px(&frames[1], 13, 3), BLUE);
}

/// [`gradient_gif`] with a transparent band that moves from frame to frame, each frame cleared to
/// the background after it is shown.
fn transparent_gradient_gif(w: u16, h: u16, n: usize) -> Vec<u8> {
    let pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
    let frames: Vec<GifFrame> = (0..n)
        .map(|k| {
            let mut f = GifFrame::solid(0, 0, w, h, 0);
            f.idx = (0..usize::from(w) * usize::from(h))
                .map(|p| {
                    let (x, y) = (p % usize::from(w), p / usize::from(w));
                    if (x + k * 9) % 64 < 16 {
                        0
                    } else {
                        (1 + (x + y + k * 7) % 255) as u8
                    }
                })
                .collect();
            f.transparent = Some(0);
            f.dispose = DisposalMethod::Background;
            f.delay = 4;
            f
        })
        .collect();
    make_gif(w, h, &pal, Some(Repeat::Infinite), &frames)
}

#[test]
fn probe_counts_frames_without_decoding() {
    let src = gradient_gif(640, 100, 6, Some(Repeat::Infinite));
    let p = probe(&src, &Limits::default()).unwrap();
    assert_eq!((p.kind, p.width, p.height, p.frames, p.animated), (MediaKind::Gif, 640, 100, 6, true));
}

#[test]
fn corpus_files_keep_frames_delays_and_loop() {
    // The real-world files, and a transparent gradient animation wider than the thumbnail.
    let gradient = ("transparent gradient", transparent_gradient_gif(400, 300, 12));
    let files = CORPUS_GIFS.into_iter().map(|name| (name, corpus_gif(name))).chain([gradient]);
    for (name, src) in files {
        let p = probe(&src, &Limits::default()).unwrap();
        let out = process(&src, &Limits::default()).unwrap();
        let want = gif_meta(&src);
        let got = gif_meta(&out.thumbnail.bytes);
        assert_eq!(out.frames, p.frames, "{name}");
        assert_eq!(got.delays, want.delays, "{name}");
        assert_eq!(got.repeat, want.repeat, "{name}");
        let expect_w = p.width.min(320);
        assert_eq!(u32::from(got.width), expect_w, "{name}");
        assert_eq!(out.thumbnail.width, expect_w, "{name}");
        assert_eq!(out.static_thumbnail.width, expect_w, "{name}");
        assert_eq!(composited(&out.thumbnail.bytes).len(), want.delays.len(), "{name}");
        eprintln!(
            "{name}: {}x{} {} frames -> gif {} bytes, static {} bytes",
            p.width,
            p.height,
            p.frames,
            out.thumbnail.bytes.len(),
            out.static_thumbnail.bytes.len()
        );
    }
}

#[test]
fn narrow_corpus_file_is_rendered_exactly() {
    // moon_impact.gif is 116 px wide: no resize, so every output frame must equal the source
    // frame up to the palette mapping (exact, since the source palette is reused).
    let src = corpus_gif("moon_impact.gif");
    let out = process(&src, &Limits::default()).unwrap();
    let a = composited(&src);
    let b = composited(&out.thumbnail.bytes);
    assert_eq!(a.len(), b.len());
    for (i, (fa, fb)) in a.iter().zip(&b).enumerate() {
        let bad = fa
            .pixels()
            .zip(fb.pixels())
            .filter(|(p, q)| {
                let p = if p[3] == 0 { CLEAR } else { p.0 };
                let q = if q[3] == 0 { CLEAR } else { q.0 };
                p != q
            })
            .count();
        assert_eq!(bad, 0, "frame {i} differs in {bad} pixels");
    }
}

/// A sprite on a transparent canvas, cleared (Background) after each frame, beside a block that
/// never changes: the output clears only what it must and stays pixel-exact.
#[test]
fn partial_clear_to_transparent_stays_pixel_correct() {
    let (w, h) = (40u16, 30u16);
    let mut f0 = GifFrame::solid(0, 0, w, h, 4);
    f0.transparent = Some(4);
    for y in 20..30usize {
        for x in 30..40usize {
            f0.idx[y * 40 + x] = 1;
        }
    }
    let mut f1 = GifFrame::solid(0, 0, 10, 10, 0);
    f1.dispose = DisposalMethod::Background;
    let mut f2 = GifFrame::solid(15, 10, 10, 10, 2);
    f2.dispose = DisposalMethod::Background;
    let f3 = GifFrame::solid(39, 29, 1, 1, 1);
    let src = make_gif(w, h, &PAL, Some(Repeat::Infinite), &[f0, f1, f2, f3]);
    let out = process(&src, &Limits::default()).unwrap();
    let got = composited(&out.thumbnail.bytes);
    let want = composited(&src);
    assert_eq!(got.len(), 4);
    for (i, (a, b)) in got.iter().zip(&want).enumerate() {
        for (x, y, _) in a.enumerate_pixels() {
            assert_eq!(px(a, x, y), px(b, x, y), "frame {i} pixel {x},{y}");
        }
    }
    // No output frame needs to redraw the whole canvas after the first.
    let mut d = gif::DecodeOptions::new();
    d.set_color_output(gif::ColorOutput::Indexed);
    let mut d = d.read_info(out.thumbnail.bytes.as_slice()).unwrap();
    let mut sizes = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        sizes.push(u32::from(f.width) * u32::from(f.height));
    }
    assert!(sizes[1..].iter().all(|&s| s < 40 * 30), "{sizes:?}");
}

#[test]
fn a_full_motion_clip_keeps_every_frame_close_to_the_source() {
    // Every pixel changes in every frame: the thumbnail may keep a shown colour only while it
    // stays close, so no frame drifts away from its source.
    let src = gifshelf_media::testing::video_gif(480, 270, 12);
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!((out.thumbnail.width, out.thumbnail.height, out.thumbnail.frames), (320, 180, 12));
    let meta = gif_meta(&out.thumbnail.bytes);
    assert_eq!(meta.delays, vec![4; 12]);
    let ours = composited(&out.thumbnail.bytes);
    let source = composited(&src);
    assert_eq!(ours.len(), 12);
    for (k, (got, full)) in ours.iter().zip(&source).enumerate() {
        let want = image::imageops::resize(full, 320, 180, image::imageops::FilterType::Triangle);
        let se: f64 =
            got.as_raw().iter().zip(want.as_raw()).map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2)).sum();
        let psnr = 10.0 * (255.0f64.powi(2) / (se / got.as_raw().len() as f64)).log10();
        assert!(psnr > 22.0, "frame {k}: {psnr:.1} dB");
    }
}

/// Each frame's image descriptor as written: (global table entries, [(local table entries,
/// LZW minimum code size, transparent index)]).
fn written_frames(bytes: &[u8]) -> (usize, Vec<(usize, u8, Option<u8>)>) {
    let table = |flags: u8| if flags & 0x80 != 0 { 2usize << (flags & 7) } else { 0 };
    let global = table(bytes[10]);
    let mut at = 13 + global * 3;
    let mut frames = Vec::new();
    let mut transparent = None;
    let skip_blocks = |mut at: usize| {
        while bytes[at] != 0 {
            at += usize::from(bytes[at]) + 1;
        }
        at + 1
    };
    while at < bytes.len() {
        match bytes[at] {
            0x21 => {
                if bytes[at + 1] == 0xF9 {
                    transparent = (bytes[at + 3] & 1 == 1).then_some(bytes[at + 6]);
                }
                at = skip_blocks(at + 2);
            }
            0x2C => {
                let local = table(bytes[at + 9]);
                at += 10 + local * 3;
                frames.push((local, bytes[at], transparent.take()));
                at = skip_blocks(at + 1);
            }
            _ => break,
        }
    }
    (global, frames)
}

#[test]
fn small_frames_are_written_with_narrow_codes_and_only_the_colours_used() {
    // A 200-colour table, all of it shown by the first frame; then a two-colour square wanders
    // and each frame changes only it. Not resized (width 240): the thumbnail must be exact.
    let palette: Vec<u8> = (0..200u32).flat_map(|i| [(i * 7 % 256) as u8, (i * 13 % 256) as u8, i as u8]).collect();
    let mut first = GifFrame::solid(0, 0, 240, 50, 0);
    for (i, v) in first.idx.iter_mut().enumerate() {
        *v = (i % 200) as u8;
    }
    let mut frames = vec![first];
    for k in 0..30u16 {
        let mut square = GifFrame::solid(k * 7, (k * 3) % 40, 10, 10, 150);
        for (i, v) in square.idx.iter_mut().enumerate() {
            if i % 3 == 0 {
                *v = 190;
            }
        }
        frames.push(square);
    }
    let src = make_gif(240, 50, &palette, Some(Repeat::Infinite), &frames);
    let out = process(&src, &Limits::default()).unwrap();

    let (global, written) = written_frames(&out.thumbnail.bytes);
    assert!(global <= 256, "{global}");
    assert_eq!(written.len(), 31);
    for (n, (local, code_size, transparent)) in written.iter().enumerate().skip(1) {
        assert_eq!(*local, 0, "frame {n} uses the global table");
        // Two colours and transparency: indices below 4 and 2-bit codes (the GIF minimum).
        assert_eq!(*code_size, 2, "frame {n}: minimum code size {code_size}");
        assert!(transparent.is_none_or(|t| t < 4), "frame {n}: transparent index {transparent:?}");
    }
    // Exact: every frame shows what the source shows.
    let ours = composited(&out.thumbnail.bytes);
    let theirs = composited(&src);
    assert_eq!(ours.len(), theirs.len());
    for (n, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        for y in 0..50 {
            for x in 0..240 {
                assert_eq!(px(a, x, y), px(b, x, y), "frame {n} at {x},{y}");
            }
        }
    }
}
