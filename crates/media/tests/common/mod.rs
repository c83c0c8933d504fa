#![allow(dead_code)]
//! What the media tests share: the image builders of `gifshelf_media::testing`, and ways to look
//! inside the GIFs the pipeline writes.

use std::io::Cursor;

use gif::Repeat;
pub use gifshelf_media::testing::*;
use image::codecs::gif::GifDecoder;
use image::AnimationDecoder;

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
