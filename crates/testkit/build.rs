//! `FFMPEG`, the `ffmpeg` every server under test runs with, is decided when the harness is built,
//! the way the video tests are (see `../media/build_ffmpeg.rs`): the same inputs, so a test built
//! with the cfg `ffmpeg_tests` gets a server that makes videos, and one built without gets `off`.

#[path = "../media/build_ffmpeg.rs"]
mod ffmpeg;

fn main() {
    ffmpeg::emit();
}
