//! `FFMPEG` and `TESSERACT`, the `ffmpeg` and `tesseract` every server under test runs with, are
//! decided when the harness is built, the way the video and text tests are (see
//! `../media/build_ffmpeg.rs` and `../media/build_tesseract.rs`): the same inputs, so a test built
//! with the cfg `ffmpeg_tests` gets a server that makes videos, and one built without gets `off`.

#[path = "../media/build_ffmpeg.rs"]
mod ffmpeg;
#[path = "../media/build_tesseract.rs"]
mod tesseract;

fn main() {
    ffmpeg::emit();
    tesseract::emit();
}
