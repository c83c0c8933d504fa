#![allow(dead_code)]
//! What the media tests share: the image builders of `gifshelf_media::testing`, and ways to look
//! inside the GIFs the pipeline writes.

use std::io::Cursor;

use gif::Repeat;
#[allow(unused_imports)] // not every test file uses the builders
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
    let mut d = opts.read_info(bytes).unwrap_or_else(|e| panic!("{e}"));
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap_or_else(|e| panic!("{e}")) {
        delays.push(f.delay);
    }
    GifMeta { width: d.width(), height: d.height(), delays, repeat: d.repeat() }
}

/// Fully composited RGBA frames (as the `image` crate renders them).
pub fn composited(bytes: &[u8]) -> Vec<image::RgbaImage> {
    let d = GifDecoder::new(Cursor::new(bytes)).unwrap_or_else(|e| panic!("{e}"));
    d.into_frames().map(|f| f.unwrap_or_else(|e| panic!("{e}")).into_buffer()).collect()
}

/// The real-world GIFs kept in the repository (`testdata/corpus`, with their licences).
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/corpus");

/// The names of the corpus's GIFs.
pub const CORPUS_GIFS: [&str; 2] = ["moon_impact.gif", "sample_big.gif"];

/// A GIF of the corpus; a missing one fails the test.
pub fn corpus_gif(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(CORPUS).join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
