//! Image builders for tests, benchmarks and tools (feature `testing`): one function per shape of
//! input, each deterministic, so every crate builds the same bytes the same way.
//!
//! They panic on an encoder error: they only ever run in tests and tools.

use std::borrow::Cow;

use gif::{DisposalMethod, Encoder, Frame, Repeat};

/// One frame of a hand-made GIF: a rectangle of indices into the global (or its own) palette.
#[derive(Clone, Debug)]
pub struct GifFrame {
    /// Left edge on the canvas.
    pub left: u16,
    /// Top edge on the canvas.
    pub top: u16,
    /// Width of the rectangle.
    pub w: u16,
    /// Height of the rectangle.
    pub h: u16,
    /// `w * h` palette indices, row by row.
    pub idx: Vec<u8>,
    /// Hundredths of a second.
    pub delay: u16,
    /// What happens to the rectangle after display.
    pub dispose: DisposalMethod,
    /// The index drawn as transparent, if any.
    pub transparent: Option<u8>,
    /// A local colour table (RGB triples) instead of the global one.
    pub palette: Option<Vec<u8>>,
    /// Whether the rows are stored interlaced.
    pub interlaced: bool,
}

impl GifFrame {
    /// A `w`×`h` rectangle at (`left`, `top`) filled with index `i`, shown for 10 cs, kept.
    pub fn solid(left: u16, top: u16, w: u16, h: u16, i: u8) -> GifFrame {
        GifFrame {
            left,
            top,
            w,
            h,
            idx: vec![i; usize::from(w) * usize::from(h)],
            delay: 10,
            dispose: DisposalMethod::Keep,
            transparent: None,
            palette: None,
            interlaced: false,
        }
    }
}

/// `data` as GIF sub-blocks (at most 255 bytes each) with their terminator.
pub fn sub_blocks(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 255 + 2);
    for chunk in data.chunks(255) {
        out.push(chunk.len() as u8);
        out.extend_from_slice(chunk);
    }
    out.push(0);
    out
}

/// A `w`×`h` GIF with the `global` colour table, an optional loop setting and `frames`, written
/// by the `gif` crate's encoder.
pub fn make_gif(w: u16, h: u16, global: &[u8], repeat: Option<Repeat>, frames: &[GifFrame]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = Encoder::new(&mut out, w, h, global).unwrap_or_else(|e| panic!("{e}"));
        if let Some(r) = repeat {
            enc.set_repeat(r).unwrap_or_else(|e| panic!("{e}"));
        }
        for f in frames {
            let frame = Frame {
                delay: f.delay,
                dispose: f.dispose,
                transparent: f.transparent,
                left: f.left,
                top: f.top,
                width: f.w,
                height: f.h,
                interlaced: f.interlaced,
                palette: f.palette.clone(),
                buffer: Cow::Borrowed(&f.idx),
                ..Frame::default()
            };
            enc.write_frame(&frame).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    out
}

/// Full-canvas frames of `pixels(frame, i)` (index `i` of the canvas) over a 256-colour palette,
/// 10 cs apart, looping forever.
fn full_frames(w: u16, h: u16, palette: &[u8], frames: u8, pixels: impl FnMut(u8, usize) -> u8) -> Vec<u8> {
    let mut pixels = pixels;
    let n = usize::from(w) * usize::from(h);
    let frames: Vec<GifFrame> = (0..frames)
        .map(|k| GifFrame { idx: (0..n).map(|i| pixels(k, i)).collect(), ..GifFrame::solid(0, 0, w, h, 0) })
        .collect();
    make_gif(w, h, palette, Some(Repeat::Infinite), &frames)
}

/// A `w`×`h` animated GIF with `frames` frames of different colours (diagonal bands that shift
/// from frame to frame), 10 cs apart, looping forever: the ordinary upload.
pub fn animated_gif(w: u16, h: u16, frames: u8) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
    full_frames(w, h, &palette, frames, |k, i| (i as u8).wrapping_add(k.wrapping_mul(40)))
}

/// A `w`×`h` GIF of `n` frames, each a different colour over the whole canvas, with some noise so
/// the work is real.
pub fn solid_gif(w: u16, h: u16, n: u8) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i.wrapping_mul(7), i.wrapping_mul(13)]).collect();
    full_frames(w, h, &palette, n, |k, i| (i as u32 ^ u32::from(k).wrapping_mul(2654435761)).to_le_bytes()[0] / 4 + k)
}

/// A `w`×`h` GIF of `frames` frames of random indices (xorshift): noise does not compress, so
/// 400×300×10 is about 1.3 MB.
pub fn noisy_gif(w: u16, h: u16, frames: u8) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i.wrapping_mul(7), 255 - i]).collect();
    let mut state = 0x2545_f491_u32;
    full_frames(w, h, &palette, frames, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state >> 24) as u8
    })
}

/// A small valid animated GIF written byte by byte: `frames` 8×8 frames of two colours,
/// 10 cs apart, looping forever, LZW codes kept at three bits (about 30 bytes a frame).
pub fn tiny_gif(frames: u8) -> Vec<u8> {
    let mut gif = b"GIF89a".to_vec();
    gif.extend_from_slice(&[8, 0, 8, 0, 0x80, 0, 0]); // 8×8, a global table of 2 colours
    gif.extend_from_slice(&[0x20, 0x90, 0xe0, 0xf0, 0xd0, 0x40]);
    gif.extend_from_slice(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00");
    for f in 0..frames {
        gif.extend_from_slice(&[0x21, 0xf9, 4, 0, 10, 0, 0, 0]); // 10 cs per frame
        gif.extend_from_slice(&[0x2c, 0, 0, 0, 0, 8, 0, 8, 0, 0]);
        // Min code size 2: clear (4), two pixels, clear… so no code ever needs four bits.
        let mut codes = Vec::new();
        for i in 0..32u8 {
            let colour = (i + f) % 2;
            codes.extend_from_slice(&[4, colour, 1 - colour]);
        }
        codes.push(5);
        let mut bytes = Vec::new();
        let (mut acc, mut bits) = (0u32, 0u32);
        for code in codes {
            acc |= u32::from(code) << bits;
            bits += 3;
            while bits >= 8 {
                bytes.push((acc & 0xff) as u8);
                acc >>= 8;
                bits -= 8;
            }
        }
        if bits > 0 {
            bytes.push((acc & 0xff) as u8);
        }
        gif.push(2);
        for block in bytes.chunks(255) {
            gif.push(block.len() as u8);
            gif.extend_from_slice(block);
        }
        gif.push(0);
    }
    gif.push(0x3b);
    gif
}

/// About 60 bytes declaring a 65535×65535 canvas with one 1×1 frame: refused from its header.
pub fn canvas_bomb() -> Vec<u8> {
    let mut bytes = b"GIF89a".to_vec();
    bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x80, 0, 0]);
    bytes.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
    bytes.extend_from_slice(&[0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b]);
    bytes
}

// ---------- synthetic scenes (the benchmark's generated inputs) ----------

/// A 6×6×6 colour cube and 40 greys.
fn cube_palette() -> Vec<u8> {
    let mut p = Vec::with_capacity(768);
    for r in 0..6u8 {
        for g in 0..6u8 {
            for b in 0..6u8 {
                p.extend_from_slice(&[r * 51, g * 51, b * 51]);
            }
        }
    }
    for i in 0..40u32 {
        let v = (i * 255 / 39) as u8;
        p.extend_from_slice(&[v, v, v]);
    }
    p
}

const BAYER: [[u32; 4]; 4] = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]];

/// Cube index of a colour, ordered-dithered with strength `dither` (0..=51).
fn cube(r: u32, g: u32, b: u32, x: u32, y: u32, dither: u32) -> u8 {
    let d = BAYER[(y % 4) as usize][(x % 4) as usize] * dither / 16;
    let q = |v: u32| ((v + d).min(255) / 51).min(5);
    (36 * q(r) + 6 * q(g) + q(b)) as u8
}

/// Pixel (`x`, `y`) of frame `k` of a `w`×`h` scene: gradients and a moving disc.
fn scene(x: u32, y: u32, k: u32, w: u32, h: u32, dither: u32) -> u8 {
    let r = (x * 255 / w + k * 3) % 256;
    let g = (y * 255 / h + k * 2) % 256;
    let cx = (w / 2 + (k * 7) % (w / 2)) as i64 - x as i64;
    let cy = (h / 2) as i64 - y as i64;
    let b = if cx * cx + cy * cy < (h as i64 / 5).pow(2) { 230 } else { (x + y) * 255 / (w + h) };
    cube(r, g, b, x, y, dither)
}

/// A frame of the rectangle (`left`, `top`, `w`, `h`) whose pixels are `f(x, y)` in canvas
/// coordinates.
fn scene_frame(left: u16, top: u16, w: u16, h: u16, delay: u16, f: impl Fn(u32, u32) -> u8) -> GifFrame {
    let idx: Vec<u8> = (0..u32::from(h))
        .flat_map(|y| (0..u32::from(w)).map(move |x| (x, y)))
        .map(|(x, y)| f(x + u32::from(left), y + u32::from(top)))
        .collect();
    GifFrame { idx, delay, ..GifFrame::solid(left, top, w, h, 0) }
}

/// A `w`×`h` scene of `n` full frames (gradients and a moving disc over a colour cube,
/// ordered-dithered with strength `dither`, 0..=51), 4 cs apart, looping forever.
pub fn scene_gif(w: u16, h: u16, n: u32, dither: u32) -> Vec<u8> {
    let (cw, ch) = (u32::from(w), u32::from(h));
    let frames: Vec<GifFrame> =
        (0..n).map(|k| scene_frame(0, 0, w, h, 4, |x, y| scene(x, y, k, cw, ch, dither))).collect();
    make_gif(w, h, &cube_palette(), Some(Repeat::Infinite), &frames)
}

/// A `w`×`h` scene (at least 49×49) and `n - 1` small 48×48 frames: a sprite moving across the
/// still background, 5 cs apart, looping forever.
pub fn sprite_gif(w: u16, h: u16, n: u32) -> Vec<u8> {
    let (cw, ch) = (u32::from(w), u32::from(h));
    let mut frames = vec![scene_frame(0, 0, w, h, 5, |x, y| scene(x, y, 0, cw, ch, 20))];
    for k in 1..n {
        let sx = ((k * 13) % (cw - 48)) as u16;
        let sy = ((k * 7) % (ch - 48)) as u16;
        frames.push(scene_frame(sx, sy, 48, 48, 5, |x, y| {
            if (x + y + k) % 9 < 5 {
                cube(255, 40 + (k * 5) % 200, 40, x, y, 0)
            } else {
                scene(x, y, 0, cw, ch, 20)
            }
        }));
    }
    make_gif(w, h, &cube_palette(), Some(Repeat::Infinite), &frames)
}

/// A 1280×720 scene of `n` frames, each after the first an 840×480 rectangle that wanders
/// over the canvas, 4 cs apart, looping forever.
pub fn hd_scene_gif(n: u32) -> Vec<u8> {
    let (w, h) = (1280u16, 720u16);
    let (cw, ch) = (1280u32, 720u32);
    let mut frames = vec![scene_frame(0, 0, w, h, 4, |x, y| scene(x, y, 0, cw, ch, 40))];
    for k in 1..n {
        let (l, t) = (((k * 37) % 320) as u16, ((k * 23) % 180) as u16);
        frames.push(scene_frame(l, t, 840, 480, 4, |x, y| scene(x, y, k, cw, ch, 40)));
    }
    make_gif(w, h, &cube_palette(), Some(Repeat::Infinite), &frames)
}

/// A full-motion `w`×`h` GIF of `n` frames, like a clip of video made into a GIF: a camera pans
/// over coloured waves while a bright disc crosses them and the light slowly pulses, every frame
/// Floyd–Steinberg dithered onto the 6×6×6 cube and greys, so that (nearly) every pixel changes
/// in every frame. 4 cs apart, looping forever.
pub fn video_gif(w: u16, h: u16, n: u32) -> Vec<u8> {
    let palette = cube_palette();
    let colours: Vec<[f32; 3]> =
        palette.chunks_exact(3).map(|c| [f32::from(c[0]), f32::from(c[1]), f32::from(c[2])]).collect();
    let nearest = |c: [f32; 3]| -> u8 {
        let mut best = (f32::MAX, 0u8);
        for (i, p) in colours.iter().enumerate() {
            let d = (c[0] - p[0]).powi(2) + (c[1] - p[1]).powi(2) + (c[2] - p[2]).powi(2);
            if d < best.0 {
                best = (d, i as u8);
            }
        }
        best.1
    };
    let (wu, hu) = (usize::from(w), usize::from(h));
    let frames: Vec<GifFrame> = (0..n)
        .map(|k| {
            let t = k as f32;
            let light = 0.85 + 0.15 * (t * 0.3).sin();
            let (dx, dy) = (w as f32 * (0.2 + 0.6 * ((t * 0.05).sin() * 0.5 + 0.5)), h as f32 * 0.5);
            let radius = h as f32 / 5.0;
            let mut rgb: Vec<[f32; 3]> = (0..wu * hu)
                .map(|i| {
                    let (x, y) = ((i % wu) as f32 + t * 3.0, (i / wu) as f32 + t);
                    let v = (x / 31.0).sin() + (y / 17.0).cos() + ((x + y) / 43.0 + t * 0.2).sin();
                    let mut c = [
                        128.0 + 60.0 * v,
                        100.0 + 50.0 * (x / 53.0 - t * 0.1).sin() + 30.0 * v,
                        140.0 + 70.0 * (y / 29.0 + t * 0.15).cos(),
                    ];
                    let (px, py) = ((i % wu) as f32 - dx, (i / wu) as f32 - dy);
                    if px * px + py * py < radius * radius {
                        c = [240.0, 220.0, 120.0 + 40.0 * (t * 0.4).sin()];
                    }
                    c.map(|v| v * light)
                })
                .collect();
            let mut idx = vec![0u8; wu * hu];
            for y in 0..hu {
                for x in 0..wu {
                    let i = y * wu + x;
                    let c = rgb[i].map(|v| v.clamp(0.0, 255.0));
                    let q = nearest(c);
                    idx[i] = q;
                    let p = colours[usize::from(q)];
                    let err = [c[0] - p[0], c[1] - p[1], c[2] - p[2]];
                    let mut spread = |j: usize, f: f32| {
                        for (v, e) in rgb[j].iter_mut().zip(err) {
                            *v += e * f;
                        }
                    };
                    if x + 1 < wu {
                        spread(i + 1, 7.0 / 16.0);
                    }
                    if y + 1 < hu {
                        if x > 0 {
                            spread(i + wu - 1, 3.0 / 16.0);
                        }
                        spread(i + wu, 5.0 / 16.0);
                        if x + 1 < wu {
                            spread(i + wu + 1, 1.0 / 16.0);
                        }
                    }
                }
            }
            GifFrame { idx, delay: 4, ..GifFrame::solid(0, 0, w, h, 0) }
        })
        .collect();
    make_gif(w, h, &palette, Some(Repeat::Infinite), &frames)
}

// ---------- PNG ----------

/// A `w`×`h` opaque RGBA PNG: red grows left to right, green top to bottom.
pub fn png(w: u32, h: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba([x as u8, y as u8, 128, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap_or_else(|e| panic!("{e}"));
    out.into_inner()
}

/// The CRC-32 of PNG chunks.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// One PNG chunk: length, type, `data`, CRC.
pub fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    c.extend_from_slice(&body);
    c.extend_from_slice(&crc32(&body).to_be_bytes());
    c
}

// ---------- WebP ----------

/// A still lossless WebP of `w`×`h` pixels `f(x, y)` (RGBA), from the `image` crate's encoder.
pub fn webp_still(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let img = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba(f(x, y)));
    let mut out = Vec::new();
    image::codecs::webp::WebPEncoder::new_lossless(&mut out)
        .encode(img.as_raw(), w, h, image::ExtendedColorType::Rgba8)
        .unwrap_or_else(|e| panic!("{e}"));
    out
}

/// One RIFF chunk: FourCC, little-endian length, `data`, a pad byte to an even length.
pub fn riff_chunk(fourcc: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = fourcc.to_vec();
    c.extend_from_slice(&(data.len() as u32).to_le_bytes());
    c.extend_from_slice(data);
    if data.len() % 2 == 1 {
        c.push(0);
    }
    c
}

/// The low three bytes of `v`, little-endian (WebP's 24-bit fields).
pub fn u24(v: u32) -> [u8; 3] {
    [v as u8, (v >> 8) as u8, (v >> 16) as u8]
}

/// The image chunks (VP8L, ALPH, VP8) of a still WebP file, without RIFF and VP8X.
fn image_chunks(webp: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut pos = 12;
    while pos + 8 <= webp.len() {
        let fourcc = &webp[pos..pos + 4];
        let size = webp[pos + 4..pos + 8].try_into().map(u32::from_le_bytes).unwrap_or(0) as usize;
        let end = pos + 8 + size + (size & 1);
        if fourcc != b"VP8X" {
            out.extend_from_slice(&webp[pos..end.min(webp.len())]);
        }
        pos = end;
    }
    out
}

/// One frame of a hand-made animated WebP: x, y, a still WebP of the frame, width, height, ms.
pub type WebpFrame = (u32, u32, Vec<u8>, u32, u32, u32);

/// Hand-assembles an animated WebP of a `cw`×`ch` canvas looping `loops` times (0: forever):
/// VP8X + ANIM + one ANMF per frame, without blending or disposal.
pub fn webp_anim(cw: u32, ch: u32, loops: u16, frames: &[WebpFrame]) -> Vec<u8> {
    let mut body = b"WEBP".to_vec();
    let mut vp8x = vec![0x02 | 0x10, 0, 0, 0];
    vp8x.extend_from_slice(&u24(cw - 1));
    vp8x.extend_from_slice(&u24(ch - 1));
    body.extend(riff_chunk(b"VP8X", &vp8x));
    let mut anim = vec![0, 0, 0, 0];
    anim.extend_from_slice(&loops.to_le_bytes());
    body.extend(riff_chunk(b"ANIM", &anim));
    for (x, y, still, w, h, ms) in frames {
        let mut d = Vec::new();
        d.extend_from_slice(&u24(x / 2));
        d.extend_from_slice(&u24(y / 2));
        d.extend_from_slice(&u24(w - 1));
        d.extend_from_slice(&u24(h - 1));
        d.extend_from_slice(&u24(*ms));
        d.push(0b10); // no blending, no disposal
        d.extend(image_chunks(still));
        body.extend(riff_chunk(b"ANMF", &d));
    }
    riff(body)
}

/// An animated WebP header that declares a `cw`×`ch` canvas and `n` frames without pixel data.
pub fn webp_anim_header_only(cw: u32, ch: u32, n: u32) -> Vec<u8> {
    let mut body = b"WEBP".to_vec();
    let mut vp8x = vec![0x02, 0, 0, 0];
    vp8x.extend_from_slice(&u24(cw - 1));
    vp8x.extend_from_slice(&u24(ch - 1));
    body.extend(riff_chunk(b"VP8X", &vp8x));
    body.extend(riff_chunk(b"ANIM", &[0, 0, 0, 0, 0, 0]));
    for _ in 0..n {
        let mut d = Vec::new();
        d.extend_from_slice(&u24(0));
        d.extend_from_slice(&u24(0));
        d.extend_from_slice(&u24(cw - 1));
        d.extend_from_slice(&u24(ch - 1));
        d.extend_from_slice(&u24(100));
        d.push(0);
        body.extend(riff_chunk(b"ANMF", &d));
    }
    riff(body)
}

fn riff(body: Vec<u8>) -> Vec<u8> {
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

// ---------- renditions: photo-like, pixel art, timing ----------

/// A 256-colour palette of a smooth colour ramp (a "photo" quantised by the GIF encoder): index
/// `i` is a blend from deep blue through orange to pale yellow.
fn ramp_palette() -> Vec<u8> {
    (0..=255u32).flat_map(|i| [i as u8, (40 + i * 150 / 255) as u8, (200 - i * 160 / 255) as u8]).collect()
}

/// A photo-like `w`×`h` GIF of `n` frames (use 24 or more): smooth waves that drift every frame,
/// so every pixel changes, ordered-dithered onto a 256-colour ramp, opaque, 6 cs apart, looping
/// forever. Like a clip of film as GIF: a video of it is a fraction of its bytes.
pub fn photo_gif(w: u16, h: u16, n: u32) -> Vec<u8> {
    let frames: Vec<GifFrame> = (0..n)
        .map(|k| {
            let t = f64::from(k) * 0.35;
            scene_frame(0, 0, w, h, 6, |x, y| {
                let (fx, fy) = (f64::from(x) / 37.0, f64::from(y) / 23.0);
                let v = (fx + t).sin() + (fy - t * 0.7).sin() + ((fx + fy) * 0.6 + t * 1.3).sin();
                let level = (v + 3.0) / 6.0 * 255.0 + f64::from(BAYER[(y % 4) as usize][(x % 4) as usize]) / 2.0 - 4.0;
                level.clamp(0.0, 255.0) as u8
            })
        })
        .collect();
    make_gif(w, h, &ramp_palette(), Some(Repeat::Infinite), &frames)
}

/// A pixel-art `w`×`h` GIF of `n` frames (both sides multiples of 8): a fixed map of 8×8 tiles
/// in four flat colours with sharp edges, and a small sprite stepping across it, 10 cs apart,
/// looping forever. Flat colour is what GIF is best at and hard edges what video codecs pay
/// for: its MP4 comes out larger than the GIF.
pub fn pixel_art_gif(w: u16, h: u16, n: u32) -> Vec<u8> {
    let palette = [20u8, 20, 30, 240, 220, 40, 40, 160, 220, 220, 60, 60];
    let mut state = 0x9e37_79b9_u32;
    let (tw, th) = (u32::from(w) / 8, u32::from(h) / 8);
    let tiles: Vec<u8> = (0..tw * th)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 30) as u8
        })
        .collect();
    let tile = |x: u32, y: u32| tiles[((y / 8).min(th - 1) * tw + (x / 8).min(tw - 1)) as usize];
    let mut frames = vec![scene_frame(0, 0, w, h, 10, tile)];
    for k in 1..n {
        let sx = ((k * 8) % (u32::from(w) - 16)) as u16;
        let sy = ((k * 8) % (u32::from(h) - 16)) as u16;
        frames.push(scene_frame(sx, sy, 16, 16, 10, |x, y| if (x + y + k) % 4 < 2 { 3 } else { tile(x, y) }));
    }
    make_gif(w, h, &palette, Some(Repeat::Infinite), &frames)
}

/// A `w`×`h` GIF with one full frame per delay (hundredths of a second), each a different
/// colour band pattern so that consecutive frames differ, looping forever.
pub fn gif_with_delays(w: u16, h: u16, delays: &[u16]) -> Vec<u8> {
    let frames: Vec<GifFrame> = delays
        .iter()
        .enumerate()
        .map(|(k, &delay)| {
            let k = k as u32;
            scene_frame(0, 0, w, h, delay, |x, y| ((x / 4 + y / 4 + k * 9) % 200) as u8)
        })
        .collect();
    make_gif(w, h, &ramp_palette(), Some(Repeat::Infinite), &frames)
}

/// Only the animated thumbnail, from the same pipeline an upload runs (decode, composite, resize,
/// encode) but without the still: what `cargo xtask bench media` times against
/// `gifsicle --resize-width 320`, which makes nothing else.
///
/// # Errors
/// As [`crate::process`].
pub fn animated_thumbnail(bytes: &[u8], limits: &crate::Limits) -> Result<crate::Rendition, crate::MediaRejection> {
    crate::make(bytes, limits, &[crate::sink::Output::Thumbnail], crate::sink::Tools::default())?
        .renditions
        .pop()
        .ok_or_else(|| crate::error::internal("the thumbnail rendition is missing"))
}

/// A `w`×`h` animation of `n` frames (a colour field with a disc moving across it, 8 cs apart,
/// looping forever) with `caption` drawn over every frame in gifshelf's caption style, encoded
/// by the `gif` crate's own quantizer, as another tool's GIF would be. `transparent` leaves the
/// field transparent (only the disc and the caption are drawn).
pub fn captioned_gif(w: u16, h: u16, n: u32, caption: Option<&crate::caption::Caption>, transparent: bool) -> Vec<u8> {
    let (cw, ch) = (u32::from(w), u32::from(h));
    let overlay = caption.map(|c| crate::caption::CaptionOverlay::new(c, cw, ch).unwrap_or_else(|e| panic!("{e}")));
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, w, h, &[]).unwrap_or_else(|e| panic!("{e}"));
        encoder.set_repeat(Repeat::Infinite).unwrap_or_else(|e| panic!("{e}"));
        for k in 0..n {
            let (dx, dy) = ((cw / 4 + k * cw / (2 * n.max(1))) as i64, i64::from(ch / 2));
            let r = i64::from(ch / 5);
            let mut rgba: Vec<u8> = (0..cw * ch)
                .flat_map(|i| {
                    let (x, y) = (i64::from(i % cw), i64::from(i / cw));
                    if (x - dx).pow(2) + (y - dy).pow(2) <= r * r {
                        [230, 120, 40, 255]
                    } else if transparent {
                        [0, 0, 0, 0]
                    } else {
                        [(40 + x * 120 / i64::from(cw)) as u8, (70 + y * 80 / i64::from(ch)) as u8, 150, 255]
                    }
                })
                .collect();
            if let Some(overlay) = &overlay {
                overlay.apply(&mut rgba);
            }
            let mut frame = gif::Frame::from_rgba_speed(w, h, &mut rgba, 10);
            frame.delay = 8;
            encoder.write_frame(&frame).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    out
}
