#![allow(dead_code)]

use std::borrow::Cow;
use std::io::Cursor;

use gif::{DisposalMethod, Encoder, Frame, Repeat};
use image::codecs::gif::GifDecoder;
use image::AnimationDecoder;

/// One frame of a test GIF: indices into the palette.
pub struct F {
    pub left: u16,
    pub top: u16,
    pub w: u16,
    pub h: u16,
    pub idx: Vec<u8>,
    pub delay: u16,
    pub dispose: DisposalMethod,
    pub transparent: Option<u8>,
    pub palette: Option<Vec<u8>>,
    pub interlaced: bool,
}

impl F {
    pub fn solid(left: u16, top: u16, w: u16, h: u16, i: u8) -> F {
        F {
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

pub fn make_gif(w: u16, h: u16, global: &[u8], repeat: Option<Repeat>, frames: &[F]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = Encoder::new(&mut out, w, h, global).unwrap();
        if let Some(r) = repeat {
            enc.set_repeat(r).unwrap();
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
            enc.write_frame(&frame).unwrap();
        }
    }
    out
}

/// Frame count, delays (centiseconds), loop setting and size, as the `gif` crate reads them.
pub struct GifMeta {
    pub width: u16,
    pub height: u16,
    pub delays: Vec<u16>,
    pub repeat: Repeat,
}

pub fn gif_meta(bytes: &[u8]) -> GifMeta {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(bytes).unwrap();
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        delays.push(f.delay);
    }
    GifMeta { width: d.width(), height: d.height(), delays, repeat: d.repeat() }
}

/// Fully composited RGBA frames (as the `image` crate renders them).
pub fn composited(bytes: &[u8]) -> Vec<image::RgbaImage> {
    let d = GifDecoder::new(Cursor::new(bytes)).unwrap();
    d.into_frames().map(|f| f.unwrap().into_buffer()).collect()
}

/// The shared real-world corpus: `GIFSHELF_CORPUS`, or `../shared/corpus` beside the checkout.
pub fn corpus_dir() -> Option<std::path::PathBuf> {
    let candidates = [
        std::env::var_os("GIFSHELF_CORPUS").map(std::path::PathBuf::from),
        Some(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")),
        Some(std::path::PathBuf::from("/work/shared/corpus")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_dir())
}

/// A still WebP (lossless) from the `image` crate's encoder.
pub fn webp_still(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let img = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba(f(x, y)));
    let mut out = Vec::new();
    image::codecs::webp::WebPEncoder::new_lossless(&mut out)
        .encode(img.as_raw(), w, h, image::ExtendedColorType::Rgba8)
        .unwrap();
    out
}

fn chunk(fourcc: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = fourcc.to_vec();
    c.extend_from_slice(&(data.len() as u32).to_le_bytes());
    c.extend_from_slice(data);
    if data.len() % 2 == 1 {
        c.push(0);
    }
    c
}

fn u24(v: u32) -> [u8; 3] {
    [v as u8, (v >> 8) as u8, (v >> 16) as u8]
}

/// The image chunks (VP8L, ALPH, VP8) of a still WebP file, without RIFF and VP8X.
fn image_chunks(webp: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut pos = 12;
    while pos + 8 <= webp.len() {
        let fourcc = &webp[pos..pos + 4];
        let size = u32::from_le_bytes(webp[pos + 4..pos + 8].try_into().unwrap()) as usize;
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

/// Hand-assembles an animated WebP: VP8X + ANIM + one ANMF per frame (lossless frames made by
/// the `image` crate's encoder). `frames`: (x, y, still webp of the frame, duration ms).
pub fn webp_anim(cw: u32, ch: u32, loops: u16, frames: &[WebpFrame]) -> Vec<u8> {
    let mut body = b"WEBP".to_vec();
    let mut vp8x = vec![0x02 | 0x10, 0, 0, 0];
    vp8x.extend_from_slice(&u24(cw - 1));
    vp8x.extend_from_slice(&u24(ch - 1));
    body.extend(chunk(b"VP8X", &vp8x));
    let mut anim = vec![0, 0, 0, 0];
    anim.extend_from_slice(&loops.to_le_bytes());
    body.extend(chunk(b"ANIM", &anim));
    for (x, y, still, w, h, ms) in frames {
        let mut d = Vec::new();
        d.extend_from_slice(&u24(x / 2));
        d.extend_from_slice(&u24(y / 2));
        d.extend_from_slice(&u24(w - 1));
        d.extend_from_slice(&u24(h - 1));
        d.extend_from_slice(&u24(*ms));
        d.push(0b10); // no blending, no disposal
        d.extend(image_chunks(still));
        body.extend(chunk(b"ANMF", &d));
    }
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

/// An animated WebP header that declares a canvas and `n` frames without pixel data.
pub fn webp_anim_header_only(cw: u32, ch: u32, n: u32) -> Vec<u8> {
    let mut body = b"WEBP".to_vec();
    let mut vp8x = vec![0x02, 0, 0, 0];
    vp8x.extend_from_slice(&u24(cw - 1));
    vp8x.extend_from_slice(&u24(ch - 1));
    body.extend(chunk(b"VP8X", &vp8x));
    body.extend(chunk(b"ANIM", &[0, 0, 0, 0, 0, 0]));
    for _ in 0..n {
        let mut d = Vec::new();
        d.extend_from_slice(&u24(0));
        d.extend_from_slice(&u24(0));
        d.extend_from_slice(&u24(cw - 1));
        d.extend_from_slice(&u24(ch - 1));
        d.extend_from_slice(&u24(100));
        d.push(0);
        body.extend(chunk(b"ANMF", &d));
    }
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

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

pub fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    c.extend_from_slice(&body);
    c.extend_from_slice(&crc32(&body).to_be_bytes());
    c
}

/// A `w`×`h` GIF of `n` frames, each a different colour over the whole canvas, with some noise so
/// the work is real.
pub fn solid_gif(w: u16, h: u16, n: u8) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i.wrapping_mul(7), i.wrapping_mul(13)]).collect();
    let frames: Vec<F> = (0..n)
        .map(|k| {
            let mut f = F::solid(0, 0, w, h, k);
            for (i, px) in f.idx.iter_mut().enumerate() {
                *px = (i as u32 ^ u32::from(k).wrapping_mul(2654435761)).to_le_bytes()[0] / 4 + k;
            }
            f
        })
        .collect();
    make_gif(w, h, &palette, Some(Repeat::Infinite), &frames)
}
