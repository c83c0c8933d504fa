//! The video tests run only where `ffmpeg` and `ffprobe` are found (see `build_ffmpeg.rs`), the
//! text tests only where Tesseract with its English model is (see `build_tesseract.rs`);
//! otherwise they are compiled as ignored, so test runners report them as skipped, never as passed.

#[path = "build_ffmpeg.rs"]
mod ffmpeg;
#[path = "build_tesseract.rs"]
mod tesseract;

fn main() {
    ffmpeg::emit();
    tesseract::emit();
}
