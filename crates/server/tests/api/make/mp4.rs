//! A GIF made of a video keeps, as its `mp4` rendition, H.264 of the pictures the GIF was made of
//! (same window, crop, speed and direction) before their colours were reduced to a palette: closer
//! to the source than the MP4 the renditions job makes of a GIF, and the job leaves it in place.

use std::process::{Command, Stdio};

use gifshelf_http::dto::RenditionDto;
use reqwest::StatusCode;
use serde_json::json;

use super::{made, recipe, video, WITH_WORKERS};
use crate::helpers::{dto_of, Backend, Client};
use crate::renditions::renditions_of;
use crate::{app, with_ffmpeg_on_both_backends};

const FFMPEG: &str = match option_env!("GIFSHELF_TEST_FFMPEG") {
    Some(path) => path,
    None => "ffmpeg",
};
const FFPROBE: &str = match option_env!("GIFSHELF_TEST_FFPROBE") {
    Some(path) => path,
    None => "ffprobe",
};

/// Runs `program` with `args` (and `input` as its last argument) and answers its standard output.
fn output_of(program: &str, args: &[&str], input: &std::path::Path) -> Vec<u8> {
    let out = Command::new(program)
        .args(args)
        .arg(input)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// The frames of a video file as RGB (`filters` applied first), each `width`×`height`.
fn frames(path: &std::path::Path, before_input: &[&str], filters: &str, (width, height): (u32, u32)) -> Vec<Vec<u8>> {
    let out = Command::new(FFMPEG)
        .args(["-hide_banner", "-loglevel", "error", "-nostdin"])
        .args(before_input)
        .arg("-i")
        .arg(path)
        .args(["-vf", filters, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{FFMPEG}: {e}"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout.chunks_exact((width * height * 3) as usize).map(<[u8]>::to_vec).collect()
}

/// The mean PSNR (dB) of `frames` against `reference`, frame by frame (as many as both have).
fn psnr(frames: &[Vec<u8>], reference: &[Vec<u8>]) -> f64 {
    let each: Vec<f64> = frames
        .iter()
        .zip(reference)
        .map(|(a, b)| {
            let sum: u64 = a.iter().zip(b).map(|(x, y)| u64::from(x.abs_diff(*y)).pow(2)).sum();
            let mse = (sum as f64 / a.len() as f64).max(1e-3);
            10.0 * (255.0_f64 * 255.0 / mse).log10()
        })
        .collect();
    each.iter().sum::<f64>() / each.len().max(1) as f64
}

/// The `mp4` rendition's file, once the renditions job has made the other videos too.
async fn mp4_of(client: &Client, gif: i64) -> (RenditionDto, Vec<u8>) {
    let list = renditions_of(client, gif, &["mp4", "mp4_small", "webm"]).await;
    let mp4 = list.into_iter().find(|r| r.kind == "mp4").unwrap_or_else(|| panic!("no mp4"));
    let file = client.get(&mp4.url).await;
    assert_eq!(file.status(), StatusCode::OK);
    let bytes = file.bytes().await.unwrap_or_else(|e| panic!("{e}")).to_vec();
    (mp4, bytes)
}

async fn a_video_source_keeps_its_own_mp4_closer_to_the_source_than_one_made_of_the_gif(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    let alice = app.user("alice").await;
    // Smooth gradients of many hues (a Mandelbrot zoom): what a 256-colour palette renders worst.
    let source = video("mandelbrot=size=320x240:rate=25,trim=duration=3", "libx264", "mp4");
    let asked = recipe(json!({
        "start": 0.5, "end": 2.5, "crop": {"x": 40, "y": 20, "width": 240, "height": 180},
        "width": 240, "fps": 10, "speed": 2.0, "direction": "reverse"
    }));
    let gif = made(&alice, Some(source.clone()), &asked).await;
    let (ours, bytes) = mp4_of(&alice, gif.id).await;
    // 2 s of source at 2× and 10 fps: 10 pictures in 1 s, at the GIF's size.
    assert_eq!((ours.width, ours.height, ours.frames), (240, 180, 10), "{ours:?}");
    assert_eq!((ours.codec.as_deref(), ours.content_type.as_str()), (Some("h264"), "video/mp4"));
    assert_eq!(ours.duration_ms, Some(1000));

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ours_path = dir.path().join("ours.mp4");
    std::fs::write(&ours_path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    // ffprobe reads it: one stream, H.264 in 4:2:0, no sound; the index before the media (faststart).
    let streams = output_of(
        FFPROBE,
        &["-v", "error", "-show_entries", "stream=codec_type,codec_name,pix_fmt,width,height", "-of", "csv=p=0"],
        &ours_path,
    );
    assert_eq!(String::from_utf8_lossy(&streams).trim(), "h264,video,240,180,yuv420p");
    let at = |atom: &[u8]| bytes.windows(4).position(|w| w == atom).unwrap_or(usize::MAX);
    assert!(at(b"moov") < at(b"mdat"), "not faststart");

    // The MP4 the renditions job makes of the same GIF (a library of its own: no duplicate).
    let other = app!(backend, WITH_WORKERS);
    let bob = other.user("bob").await;
    let original = alice.get(&format!("/api/gifs/content/{}", gif.id)).await.bytes().await.unwrap_or_default();
    let copy: gifshelf_http::dto::GifDto =
        dto_of(bob.upload("made.gif", original.to_vec(), "Made", "", &[]).await, StatusCode::CREATED).await;
    let (of_gif, of_gif_bytes) = mp4_of(&bob, copy.id).await;
    assert_eq!((of_gif.width, of_gif.height, of_gif.frames), (240, 180, 10), "{of_gif:?}");
    let of_gif_path = dir.path().join("of-gif.mp4");
    std::fs::write(&of_gif_path, &of_gif_bytes).unwrap_or_else(|e| panic!("{e}"));

    // The source's own pictures, cut as the recipe says (the maker's filters), last first.
    let source_path = dir.path().join("source.mp4");
    std::fs::write(&source_path, &source).unwrap_or_else(|e| panic!("{e}"));
    let size = (240, 180);
    let mut reference =
        frames(&source_path, &["-ss", "0.5", "-t", "2"], "fps=5,crop=240:180:40:20,scale=240:180:flags=lanczos", size);
    reference.reverse();
    assert_eq!(reference.len(), 10);
    let ours_frames = frames(&ours_path, &[], "null", size);
    let of_gif_frames = frames(&of_gif_path, &[], "null", size);
    assert_eq!((ours_frames.len(), of_gif_frames.len()), (10, 10));
    let (kept, made_of_gif) = (psnr(&ours_frames, &reference), psnr(&of_gif_frames, &reference));
    // 1.9 dB on this clip: since the maker's GIF follows the picture's grain (not the thumbnails'
    // uniform tolerance) an MP4 made of it comes closer, but the kept MP4 still clearly wins.
    assert!(
        kept >= made_of_gif + 1.0,
        "PSNR against the source: kept {kept:.2} dB, made of the GIF {made_of_gif:.2} dB"
    );
    // In the recipe's direction: each picture is closest to its own source picture.
    let forward: Vec<Vec<u8>> = reference.iter().rev().cloned().collect();
    assert!(kept > psnr(&ours_frames, &forward) + 1.0, "not reversed");
}

with_ffmpeg_on_both_backends!(a_video_source_keeps_its_own_mp4_closer_to_the_source_than_one_made_of_the_gif);
