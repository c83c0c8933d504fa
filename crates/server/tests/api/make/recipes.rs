//! Each field of a recipe changes the made GIF as asked: its size, its frames and their times, their
//! order, the loop count, the caption's place and the crop's pixels.

use serde_json::json;

use super::{difference, frames_of, made, recipe, test_mp4, video, Frame, WITH_WORKERS};
use crate::helpers::Backend;
use crate::{app, with_ffmpeg_on_both_backends};

fn total_cs(frames: &[Frame]) -> u32 {
    frames.iter().map(|f| f.cs).sum()
}

/// The NETSCAPE loop count of a GIF file (`None`: plays once, no extension).
fn repeat_of(bytes: &[u8]) -> gif::Repeat {
    let mut decoder = gif::DecodeOptions::new().read_info(bytes).unwrap_or_else(|e| panic!("{e}"));
    while decoder.read_next_frame().unwrap_or_else(|e| panic!("{e}")).is_some() {}
    decoder.repeat()
}

async fn size_rate_speed_and_loops_change_the_gif_as_asked(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    let source = test_mp4();

    // Two seconds at 10 fps: 20 frames of 10 hundredths, at the width asked, height in proportion.
    let plain = made(&alice, Some(source.clone()), &recipe(json!({}))).await;
    assert_eq!((plain.content_width, plain.content_height), (320, 240));
    let frames = frames_of(&alice, &plain).await;
    assert!(frames.len().abs_diff(20) <= 1, "{} frames", frames.len());
    assert!(total_cs(&frames).abs_diff(200) <= 10, "{} cs", total_cs(&frames));
    assert_eq!(plain.frame_count as usize, frames.len());
    assert_eq!(plain.title, "Made");
    assert_eq!(plain.made_from.as_ref().map(|m| m.id), None, "a video is no GIF of the library");

    let narrow = made(&alice, Some(source.clone()), &recipe(json!({"width": 240}))).await;
    assert_eq!((narrow.content_width, narrow.content_height), (240, 180));

    let faster_rate = frames_of(&alice, &made(&alice, Some(source.clone()), &recipe(json!({"fps": 20}))).await).await;
    assert!(faster_rate.len().abs_diff(40) <= 1, "{} frames at 20 fps", faster_rate.len());
    assert!(total_cs(&faster_rate).abs_diff(200) <= 5, "{} cs", total_cs(&faster_rate));

    // Twice as fast: the same two seconds of source play in one.
    let sped = frames_of(&alice, &made(&alice, Some(source.clone()), &recipe(json!({"speed": 2.0}))).await).await;
    assert!(sped.len().abs_diff(10) <= 1, "{} frames at 2×", sped.len());
    assert!(total_cs(&sped).abs_diff(100) <= 10, "{} cs at 2×", total_cs(&sped));

    let thrice = made(&alice, Some(source), &recipe(json!({"loop": 3, "width": 240, "fps": 15}))).await;
    let bytes = alice.get(&format!("/api/gifs/content/{}", thrice.id)).await.bytes().await.unwrap_or_default();
    assert_eq!(repeat_of(&bytes), gif::Repeat::Finite(3));
    assert_eq!(
        repeat_of(&alice.get(&format!("/api/gifs/content/{}", plain.id)).await.bytes().await.unwrap_or_default()),
        gif::Repeat::Infinite
    );
}

async fn reverse_and_boomerang_play_the_frames_back(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    let source = test_mp4();
    let window = json!({"start": 0.5, "end": 1.5});
    let forward = frames_of(&alice, &made(&alice, Some(source.clone()), &recipe(window.clone())).await).await;
    let mut asked = recipe(window.clone());
    asked["direction"] = json!("reverse");
    let reverse = frames_of(&alice, &made(&alice, Some(source.clone()), &asked).await).await;
    asked["direction"] = json!("boomerang");
    let boomerang = frames_of(&alice, &made(&alice, Some(source), &asked).await).await;

    let n = forward.len();
    assert!(n.abs_diff(10) <= 1, "{n} frames");
    assert_eq!(reverse.len(), n);
    // The reversed GIF starts where the forward one ends, and ends where it starts.
    let (first, last) = (&forward[0].rgba, &forward[n - 1].rgba);
    assert!(difference(&reverse[0].rgba, last) < difference(&reverse[0].rgba, first) / 2.0);
    assert!(difference(&reverse[n - 1].rgba, first) < difference(&reverse[n - 1].rgba, last) / 2.0);
    // Forward, then back without repeating either end.
    assert_eq!(boomerang.len(), 2 * n - 2);
    assert!(difference(&boomerang[n - 1].rgba, last) < difference(&boomerang[n - 1].rgba, first) / 2.0);
    assert!(
        difference(&boomerang[2 * n - 3].rgba, &forward[1].rgba) < difference(&boomerang[2 * n - 3].rgba, last) / 2.0
    );
}

/// Pixels of the picture that are near white (a caption's fill), in rows `rows`.
fn white_in(picture: &image::RgbaImage, rows: std::ops::Range<u32>) -> usize {
    rows.flat_map(|y| (0..picture.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| picture.get_pixel(x, y).0[..3].iter().all(|&c| c > 200))
        .count()
}

async fn a_caption_lands_in_its_band_and_a_crop_keeps_its_pixels(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    let grey = video("color=c=0x303030:s=320x240:r=10:d=2", "libx264", "mp4");
    for (position, band, elsewhere) in [("top", 0..80, 120..240), ("bottom", 160..240, 0..120)] {
        let asked = recipe(json!({"caption": {"text": "HELLO THERE", "position": position, "size": "l"}}));
        let frames = frames_of(&alice, &made(&alice, Some(grey.clone()), &asked).await).await;
        for frame in [&frames[0], &frames[frames.len() - 1]] {
            assert!(white_in(&frame.rgba, band.clone()) > 200, "{position}: too little caption in its band");
            assert_eq!(white_in(&frame.rgba, elsewhere.clone()), 0, "{position}: caption pixels elsewhere");
        }
    }

    // Four quadrants: red, blue / green, red. The top right crop is blue and only blue, at its own
    // width (narrower than the width asked).
    let quadrants = video(
        "color=c=red:s=320x240:r=10:d=2,drawbox=x=160:y=0:w=160:h=120:color=blue:t=fill,drawbox=x=0:y=120:w=160:h=120:color=lime:t=fill",
        "libx264",
        "mp4",
    );
    let asked = recipe(json!({"crop": {"x": 160, "y": 0, "width": 160, "height": 120}, "width": 320}));
    let gif = made(&alice, Some(quadrants.clone()), &asked).await;
    assert_eq!((gif.content_width, gif.content_height), (160, 120));
    let frame = &frames_of(&alice, &gif).await[0].rgba;
    for y in 4..116 {
        for x in 4..156 {
            let [r, g, b, _] = frame.get_pixel(x, y).0;
            assert!(b > 180 && r < 70 && g < 70, "({x},{y}) is {:?}, not blue", [r, g, b]);
        }
    }
    let asked = recipe(json!({"crop": {"x": 0, "y": 120, "width": 160, "height": 120}, "width": 240}));
    let frame = &frames_of(&alice, &made(&alice, Some(quadrants), &asked).await).await[0].rgba;
    let [r, g, b, _] = frame.get_pixel(80, 60).0;
    assert!(g > 180 && r < 70 && b < 70, "the bottom left is green, not {:?}", [r, g, b]);
}

with_ffmpeg_on_both_backends!(
    size_rate_speed_and_loops_change_the_gif_as_asked,
    reverse_and_boomerang_play_the_frames_back,
    a_caption_lands_in_its_band_and_a_crop_keeps_its_pixels,
);
