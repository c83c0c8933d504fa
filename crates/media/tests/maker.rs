//! The maker's engine on animated sources: a window at a frame rate, a crop and a width, speed,
//! direction, loops and a caption make a new GIF; the source's own frames decide what is shown;
//! recipes out of range are refused with a sentence.

use gifshelf_media::caption::{Caption, CaptionPlace, CaptionSize};
use gifshelf_media::maker::{remake, Crop, Direction, Recipe};
use gifshelf_media::testing::{captioned_gif, png, scene_gif};
use gifshelf_media::{probe, Limits, MediaRejection};

/// Every frame of a GIF, composited, with its delay: `(rgba, delay_cs)`.
fn frames_of(bytes: &[u8]) -> (u32, u32, Vec<(Vec<u8>, u16)>, gif::Repeat) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = options.read_info(bytes).unwrap_or_else(|e| panic!("{e}"));
    let (w, h) = (u32::from(dec.width()), u32::from(dec.height()));
    let mut canvas = vec![0_u8; (w * h * 4) as usize];
    let mut out = Vec::new();
    while let Some(frame) = dec.read_next_frame().unwrap_or_else(|e| panic!("{e}")) {
        for y in 0..u32::from(frame.height) {
            for x in 0..u32::from(frame.width) {
                let src = ((y * u32::from(frame.width) + x) * 4) as usize;
                if frame.buffer[src + 3] == 0 {
                    continue;
                }
                let dst = (((y + u32::from(frame.top)) * w + x + u32::from(frame.left)) * 4) as usize;
                canvas[dst..dst + 4].copy_from_slice(&frame.buffer[src..src + 4]);
            }
        }
        out.push((canvas.clone(), frame.delay));
    }
    let repeat = dec.repeat();
    (w, h, out, repeat)
}

fn mean_difference(a: &[u8], b: &[u8]) -> f64 {
    a.iter().zip(b).map(|(x, y)| f64::from(x.abs_diff(*y))).sum::<f64>() / a.len() as f64
}

fn recipe() -> Recipe {
    Recipe::copy()
}

#[test]
fn a_window_at_a_frame_rate_and_a_width_makes_the_frames_it_should() {
    // 40 frames of 4 cs: 1.6 s of source.
    let source = scene_gif(320, 240, 40, 20);
    let made = remake(
        &source,
        &Recipe { start_ms: 400, end_ms: Some(1200), fps: Some(10), width: Some(240), ..recipe() },
        &Limits::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((made.width, made.height, made.mime), (240, 180, "image/gif"));
    let (w, h, frames, repeat) = frames_of(&made.bytes);
    assert_eq!((w, h, repeat), (240, 180, gif::Repeat::Infinite));
    assert_eq!(frames.len(), 8, "0.8 s at 10 frames a second");
    assert!(frames.iter().all(|(_, delay)| *delay == 10));
    assert_eq!(made.duration_ms, 800);
    let checked = probe(&made.bytes, &Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((checked.frames, checked.animated), (8, true));
}

#[test]
fn speed_keeps_the_frames_and_shortens_or_lengthens_the_time() {
    let source = scene_gif(160, 120, 20, 0);
    let plain = remake(&source, &recipe(), &Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    let fast =
        remake(&source, &Recipe { speed: 2.0, ..recipe() }, &Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    let slow =
        remake(&source, &Recipe { speed: 0.5, ..recipe() }, &Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((plain.frames, plain.duration_ms), (20, 800), "the source as it is");
    assert_eq!((fast.frames, fast.duration_ms), (20, 400));
    assert_eq!((slow.frames, slow.duration_ms), (20, 1600));
}

#[test]
fn reverse_and_boomerang_play_the_same_frames_backwards() {
    let source = scene_gif(160, 120, 12, 0);
    let forward = frames_of(&remake(&source, &recipe(), &Limits::default()).unwrap_or_else(|e| panic!("{e}")).bytes).2;
    let reverse = frames_of(
        &remake(&source, &Recipe { direction: Direction::Reverse, ..recipe() }, &Limits::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .bytes,
    )
    .2;
    assert_eq!(reverse.len(), forward.len());
    for (i, (picture, _)) in reverse.iter().enumerate() {
        let same = &forward[forward.len() - 1 - i].0;
        assert!(
            mean_difference(picture, same) < 2.0,
            "reversed frame {i} is not forward frame {}",
            forward.len() - 1 - i
        );
    }
    let boomerang =
        remake(&source, &Recipe { direction: Direction::Boomerang, loops: 3, ..recipe() }, &Limits::default())
            .unwrap_or_else(|e| panic!("{e}"));
    let (_, _, frames, repeat) = frames_of(&boomerang.bytes);
    assert_eq!(frames.len(), 12 + 10, "there and back, the turning frames once");
    assert_eq!(repeat, gif::Repeat::Finite(3));
    assert!(
        mean_difference(&frames[12].0, &forward[10].0) < 2.0 && mean_difference(&frames[13].0, &forward[9].0) < 2.0
    );
    assert!(mean_difference(&frames[21].0, &forward[1].0) < 2.0, "back to the second frame; the loop starts over");
}

#[test]
fn a_crop_keeps_its_part_of_the_picture_at_its_own_width() {
    let source = scene_gif(320, 240, 6, 0);
    let crop = Crop { x: 100, y: 60, width: 120, height: 90 };
    let made = remake(&source, &Recipe { crop: Some(crop), width: Some(480), ..recipe() }, &Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((made.width, made.height), (120, 90), "a crop narrower than the width asked keeps its width");
    let whole = frames_of(&source).2;
    let part = frames_of(&made.bytes).2;
    let mut expected = Vec::new();
    for y in 60..150 {
        expected.extend_from_slice(&whole[0].0[((y * 320 + 100) * 4) as usize..((y * 320 + 220) * 4) as usize]);
    }
    assert!(mean_difference(&part[0].0, &expected) < 2.0);
}

#[test]
fn recipes_out_of_range_and_stills_are_refused_with_a_sentence() {
    let source = scene_gif(160, 120, 10, 0);
    let refused = |recipe: Recipe, bytes: &[u8]| match remake(bytes, &recipe, &Limits::default()) {
        Err(MediaRejection::InvalidImage { message, .. }) => message,
        other => panic!("{recipe:?}: {other:?}"),
    };
    let cases = [
        (Recipe { start_ms: 500, end_ms: Some(500), ..recipe() }, "after the start"),
        (Recipe { start_ms: 0, end_ms: Some(61_000), ..recipe() }, "60 seconds"),
        (Recipe { width: Some(300), ..recipe() }, "width"),
        (Recipe { fps: Some(30), ..recipe() }, "frame rate"),
        (Recipe { speed: 3.0, ..recipe() }, "speed"),
        (Recipe { speed: f32::NAN, ..recipe() }, "speed"),
        (Recipe { crop: Some(Crop { x: 100, y: 0, width: 100, height: 50 }), ..recipe() }, "outside"),
        (Recipe { crop: Some(Crop { x: 0, y: 0, width: 8, height: 50 }), ..recipe() }, "16 pixels"),
        (Recipe { start_ms: 5_000, ..recipe() }, "past the end"),
        (
            Recipe {
                caption: Some(Caption { text: " ".into(), place: CaptionPlace::Top, size: CaptionSize::Small }),
                ..recipe()
            },
            "caption",
        ),
    ];
    for (recipe, says) in cases {
        let message = refused(recipe.clone(), &source);
        assert!(message.contains(says), "{recipe:?}: {message}");
    }
    assert!(refused(recipe(), &png(40, 30)).contains("Only animations"));
}

#[test]
#[cfg_attr(not(tesseract_tests), ignore = "tesseract with its English model is not installed")]
fn a_caption_is_drawn_over_every_frame_and_reads_back() {
    let source = captioned_gif(320, 180, 10, None, false);
    let caption = Caption { text: "ship it".into(), place: CaptionPlace::Bottom, size: CaptionSize::Large };
    let made = remake(&source, &Recipe { caption: Some(caption), ..recipe() }, &Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let path = option_env!("GIFSHELF_TEST_TESSERACT").unwrap_or("tesseract");
    let tesseract =
        gifshelf_media::text::Tesseract::detect(Some(std::path::Path::new(path))).unwrap_or_else(|e| panic!("{e}"));
    let lines =
        gifshelf_media::text::read_text(&made.bytes, &Limits::default(), &tesseract).unwrap_or_else(|e| panic!("{e}"));
    let words: Vec<String> = lines.iter().flat_map(|l| l.split_whitespace()).map(str::to_lowercase).collect();
    assert!(words.contains(&"ship".to_owned()) && words.contains(&"it".to_owned()), "{lines:?}");
    for (picture, _) in frames_of(&made.bytes).2 {
        // The letters' white shows in the bottom third of every frame.
        let bottom = &picture[(320 * 120 * 4)..];
        assert!(bottom.chunks_exact(4).filter(|p| p[0] > 245 && p[1] > 245 && p[2] > 245).count() > 200);
    }
}
