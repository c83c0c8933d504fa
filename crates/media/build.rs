//! The video tests run only where `ffmpeg` and `ffprobe` are found (see `build_ffmpeg.rs`);
//! otherwise they are compiled as ignored, so test runners report them as skipped, never as passed.

#[path = "build_ffmpeg.rs"]
mod ffmpeg;

fn main() {
    ffmpeg::emit();
}
