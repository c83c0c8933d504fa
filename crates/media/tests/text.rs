//! Reading the text in GIFs with the real Tesseract: captions drawn in gifshelf's style over
//! animations, opaque and transparent, at the top and the bottom, are read back; a GIF without text
//! reads as nothing. Compiled as ignored (reported skipped) where Tesseract is not installed.

use std::path::Path;

use gifshelf_media::caption::{Caption, CaptionPlace, CaptionSize};
use gifshelf_media::testing::captioned_gif;
use gifshelf_media::text::{read_text, Tesseract};
use gifshelf_media::Limits;

fn tesseract() -> Tesseract {
    let path = option_env!("GIFSHELF_TEST_TESSERACT").unwrap_or("tesseract");
    Tesseract::detect(Some(Path::new(path))).unwrap_or_else(|e| panic!("{e}"))
}

fn caption(text: &str, place: CaptionPlace, size: CaptionSize) -> Caption {
    Caption { text: text.into(), place, size }
}

fn words(lines: &[String]) -> Vec<String> {
    lines.iter().flat_map(|l| l.split_whitespace()).map(str::to_lowercase).collect()
}

#[test]
#[cfg_attr(not(tesseract_tests), ignore = "tesseract with its English model is not installed")]
fn captions_are_read_back_from_animations() {
    let cases = [
        (320, 180, "ship it", CaptionPlace::Bottom, CaptionSize::Medium, false),
        (480, 270, "this is fine", CaptionPlace::Top, CaptionSize::Large, false),
        (240, 240, "deploy friday", CaptionPlace::Bottom, CaptionSize::Small, true),
    ];
    let tesseract = tesseract();
    for (w, h, text, place, size, transparent) in cases {
        let gif = captioned_gif(w, h, 12, Some(&caption(text, place, size)), transparent);
        let lines = read_text(&gif, &Limits::default(), &tesseract).unwrap_or_else(|e| panic!("{text}: {e}"));
        let read = words(&lines);
        for word in text.split(' ') {
            assert!(read.iter().any(|r| r == word), "{text:?} ({w}×{h}): read {lines:?}");
        }
    }
}

#[test]
#[cfg_attr(not(tesseract_tests), ignore = "tesseract with its English model is not installed")]
fn a_gif_without_text_reads_as_nothing() {
    let tesseract = tesseract();
    for transparent in [false, true] {
        let gif = captioned_gif(320, 180, 12, None, transparent);
        let lines = read_text(&gif, &Limits::default(), &tesseract).unwrap_or_else(|e| panic!("{e}"));
        assert!(lines.is_empty(), "read {lines:?}");
    }
    let noisy = gifshelf_media::testing::noisy_gif(200, 150, 6);
    let lines = read_text(&noisy, &Limits::default(), &tesseract).unwrap_or_else(|e| panic!("{e}"));
    assert!(lines.is_empty(), "noise read as {lines:?}");
}

#[test]
fn the_text_tests_run_in_ci() {
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !in_ci || cfg!(tesseract_tests),
        "CI=true, but the tests were built without tesseract and its English model (on PATH or named by GIFSHELF_TESSERACT): the text tests would not run"
    );
}
