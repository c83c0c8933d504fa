#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed step should stop the test loudly
//! Every rendition kind, made for real: sizes, aspect ratios, no upscaling, frame counts and
//! durations of GIFs (decoded with the `gif` crate) and videos (`ffprobe`), the preferred file of
//! photo-like and pixel-art GIFs (the `ffmpeg` timeout is `video_timeout.rs`, alone in its process).
//! The tests that need `ffmpeg` and `ffprobe` run with the ones found when they were built (the cfg
//! `ffmpeg_tests`, set by the build script); without them they are compiled as ignored, and
//! `ffmpeg_in_ci.rs` fails a CI run.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gifshelf_domain::gif::{Rendition as Stored, RenditionKind, Renditions};
use gifshelf_domain::media::{EncodedImage, MediaRejection, ProcessedMedia};
use gifshelf_domain::ports::MediaProcessor;
use gifshelf_media::testing::{gif_with_delays, photo_gif, pixel_art_gif};
use gifshelf_media::{Ffmpeg, Limits, MediaService};

/// The `ffmpeg` and `ffprobe` found when the tests were built (see `build_ffmpeg.rs`).
const FFMPEG: &str = match option_env!("GIFSHELF_TEST_FFMPEG") {
    Some(path) => path,
    None => "ffmpeg",
};
const FFPROBE: &str = match option_env!("GIFSHELF_TEST_FFPROBE") {
    Some(path) => path,
    None => "ffprobe",
};

/// `ffmpeg` with both encoders; a test that calls it fails when it cannot be used.
fn ffmpeg() -> Ffmpeg {
    Ffmpeg::detect(Some(std::path::Path::new(FFMPEG))).unwrap_or_else(|why| panic!("{why}"))
}

fn service(ffmpeg: Option<Ffmpeg>) -> MediaService {
    MediaService::new(Limits::default(), 1, Duration::from_secs(30)).with_video(ffmpeg)
}

async fn all_kinds(service: &MediaService, gif: &[u8]) -> ProcessedMedia {
    service.process(Arc::new(gif.to_vec()), &RenditionKind::ALL).await.unwrap_or_else(|e| panic!("{e}"))
}

fn get(p: &ProcessedMedia, kind: RenditionKind) -> &EncodedImage {
    &p.renditions.iter().find(|(k, _)| *k == kind).unwrap().1
}

/// Width, height, frames and duration (ms, as browsers time it) of a GIF, from the `gif` crate.
fn gif_figures(bytes: &[u8]) -> (u32, u32, u32, u32) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts.read_info(bytes).unwrap();
    let (w, h) = (u32::from(dec.width()), u32::from(dec.height()));
    let (mut frames, mut cs) = (0, 0);
    while let Some(f) = dec.read_next_frame().unwrap() {
        frames += 1;
        cs += if f.delay <= 1 { 10 } else { u32::from(f.delay) };
    }
    (w, h, frames, cs * 10)
}

/// What an animated WebP's chunks say (Debian's `ffprobe` cannot read animated WebP).
#[derive(Debug)]
struct WebpFigures {
    width: u32,
    height: u32,
    frames: u32,
    duration_ms: u32,
    looped: bool,
    alpha: bool,
}

fn webp_figures(bytes: &[u8]) -> WebpFigures {
    assert!(bytes.len() > 30 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP", "not a WebP");
    let le24 = |b: &[u8]| u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16;
    let mut f = WebpFigures { width: 0, height: 0, frames: 0, duration_ms: 0, looped: false, alpha: false };
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let (name, len) = (&bytes[at..at + 4], u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize);
        let body = &bytes[at + 8..(at + 8 + len).min(bytes.len())];
        match name {
            b"VP8X" => {
                f.alpha = body[0] & 0x10 != 0;
                f.width = le24(&body[4..7]) + 1;
                f.height = le24(&body[7..10]) + 1;
            }
            b"ANIM" => f.looped = u16::from_le_bytes([body[4], body[5]]) == 0,
            b"ANMF" => {
                f.frames += 1;
                f.duration_ms += le24(&body[12..15]);
            }
            _ => {}
        }
        at += 8 + len + (len & 1);
    }
    f
}

/// What `ffprobe` says of a video.
#[derive(Debug)]
struct VideoFigures {
    codec: String,
    width: u32,
    height: u32,
    frames: u32,
    pix_fmt: String,
    duration_ms: u32,
}

fn ffprobe(bytes: &[u8], ext: &str) -> VideoFigures {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("v.{ext}"));
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new(FFPROBE)
        .args(["-v", "error", "-count_frames", "-show_entries"])
        .arg("stream=codec_name,width,height,nb_read_frames,pix_fmt:format=duration")
        .args(["-of", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["streams"][0];
    let num = |x: &serde_json::Value| x.as_u64().or_else(|| x.as_str().and_then(|s| s.parse().ok())).unwrap() as u32;
    let secs: f64 = v["format"]["duration"].as_str().unwrap().parse().unwrap();
    VideoFigures {
        codec: s["codec_name"].as_str().unwrap().to_owned(),
        width: num(&s["width"]),
        height: num(&s["height"]),
        frames: num(&s["nb_read_frames"]),
        pix_fmt: s["pix_fmt"].as_str().unwrap().to_owned(),
        duration_ms: (secs * 1000.0).round() as u32,
    }
}

/// The top-level MP4 boxes, in order.
fn mp4_boxes(bytes: &[u8]) -> Vec<String> {
    let mut boxes = Vec::new();
    let mut pos = 0usize;
    while pos + 8 <= bytes.len() {
        let size = u32::from_be_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        boxes.push(String::from_utf8_lossy(&bytes[pos + 4..pos + 8]).into_owned());
        if size < 8 {
            break;
        }
        pos += size;
    }
    boxes
}

/// The aspect ratio is the source's within the rounding of one pixel (two for even sizes).
fn assert_aspect(kind: RenditionKind, (w, h): (u32, u32), (sw, sh): (u32, u32)) {
    let (w, h, sw, sh) = (f64::from(w), f64::from(h), f64::from(sw), f64::from(sh));
    let off = if w / sw < h / sh { (h - w * sh / sw).abs() } else { (w - h * sw / sh).abs() };
    assert!(off <= 1.5, "{kind:?}: {w}×{h} is not the aspect ratio of {sw}×{sh}");
}

/// The size each kind should have for a `w`×`h` source.
fn expected_size(kind: RenditionKind, (w, h): (u32, u32)) -> (u32, u32) {
    let fit_w = |max: u32| if w <= max { (w, h) } else { (max, ((h * max) as f64 / w as f64).round() as u32) };
    let fit_h = |max: u32| if h <= max { (w, h) } else { (((w * max) as f64 / h as f64).round() as u32, max) };
    let even = |(a, b): (u32, u32)| (a & !1, b & !1);
    match kind {
        RenditionKind::Original | RenditionKind::Medium | RenditionKind::Webm | RenditionKind::Webp => (w, h),
        RenditionKind::Thumbnail | RenditionKind::Still | RenditionKind::WebmSmall => fit_w(320),
        RenditionKind::Tiny | RenditionKind::WebpTiny => fit_w(220),
        RenditionKind::Nano | RenditionKind::WebpNano => fit_h(90),
        RenditionKind::FixedHeight | RenditionKind::WebpFixedHeight => fit_h(200),
        RenditionKind::Mp4 => even((w, h)),
        RenditionKind::Mp4Small => even(fit_w(320)),
        RenditionKind::Poster => fit_w(640),
    }
}

/// Checks every rendition of `p` (made from `gif`) against the original's figures: sizes, the
/// aspect ratio, frames and duration within one frame (`frame_ms`, the longest delay).
fn check_every_kind(p: &ProcessedMedia, gif: &[u8], frame_ms: u32) {
    let (sw, sh, frames, duration) = gif_figures(gif);
    assert_eq!((p.width, p.height, p.frames), (sw, sh, frames));
    for (kind, r) in &p.renditions {
        let kind = *kind;
        let size = (r.width, r.height);
        assert_eq!(size, expected_size(kind, (sw, sh)), "{kind:?}");
        if !matches!(kind, RenditionKind::Mp4 | RenditionKind::Mp4Small) {
            // Even sizes may take a pixel off either side: their exact size is checked above.
            assert_aspect(kind, size, (sw, sh));
        }
        match kind {
            RenditionKind::Still => {
                assert_eq!((r.content_type.as_str(), r.frames, r.duration_ms), ("image/png", 1, 0));
            }
            RenditionKind::Poster => {
                assert_eq!((r.content_type.as_str(), r.frames, r.duration_ms), ("image/webp", 1, 0));
                let decoded = image::load_from_memory_with_format(&r.bytes, image::ImageFormat::WebP).unwrap();
                assert_eq!((decoded.width(), decoded.height()), size);
            }
            kind if kind.is_webp() => {
                assert_eq!((r.content_type.as_str(), r.codec.as_deref()), ("image/webp", None), "{kind:?}");
                let w = webp_figures(&r.bytes);
                assert_eq!((w.width, w.height), size, "{kind:?}");
                // libwebp merges frames it sees no change between at its quality (a frame 9 grey
                // levels from the last, at 40): never more frames, the play time the same.
                assert!((1..=frames + 1).contains(&w.frames), "{kind:?}: {} frames, the GIF has {frames}", w.frames);
                assert!(
                    w.duration_ms.abs_diff(duration) <= frame_ms,
                    "{kind:?}: {} ms vs {duration} ms",
                    w.duration_ms
                );
                assert!(w.looped, "{kind:?} plays once");
                assert_eq!(r.frames, w.frames, "{kind:?}: the frames said are those of the file");
                assert!(r.duration_ms.abs_diff(w.duration_ms) <= frame_ms);
            }
            kind if kind.is_video() => {
                let ext = if r.content_type == "video/mp4" { "mp4" } else { "webm" };
                let v = ffprobe(&r.bytes, ext);
                assert_eq!((v.width, v.height), size, "{kind:?}");
                assert!(v.frames.abs_diff(frames) <= 1, "{kind:?}: {} frames, the GIF has {frames}", v.frames);
                assert!(
                    v.duration_ms.abs_diff(duration) <= frame_ms,
                    "{kind:?}: {} ms vs {duration} ms",
                    v.duration_ms
                );
                assert!(r.frames.abs_diff(v.frames) <= 1 && r.duration_ms.abs_diff(v.duration_ms) <= frame_ms);
                if ext == "mp4" {
                    assert_eq!((v.codec.as_str(), r.codec.as_deref()), ("h264", Some("h264")));
                    assert_eq!(v.pix_fmt, "yuv420p");
                    assert_eq!((v.width % 2, v.height % 2), (0, 0));
                    let boxes = mp4_boxes(&r.bytes);
                    let at = |name: &str| boxes.iter().position(|b| b == name).unwrap();
                    assert!(at("moov") < at("mdat"), "{kind:?} is not fast-start: {boxes:?}");
                } else {
                    assert_eq!((v.codec.as_str(), r.codec.as_deref()), ("vp9", Some("vp9")));
                }
            }
            _ => {
                assert_eq!(r.content_type, "image/gif", "{kind:?}");
                let (w, h, f, d) = gif_figures(&r.bytes);
                assert_eq!((w, h), size, "{kind:?}");
                assert!(f.abs_diff(frames) <= 1, "{kind:?}: {f} frames, the GIF has {frames}");
                assert!(d.abs_diff(duration) <= frame_ms, "{kind:?}: {d} ms vs {duration} ms");
                assert_eq!((r.frames, r.duration_ms, r.codec.as_deref()), (f, d, None), "{kind:?}");
            }
        }
    }
}

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn every_kind_has_its_size_frames_and_duration() {
    let ffmpeg = ffmpeg();
    // Odd sizes: the MP4s round down to even ones.
    let gif = photo_gif(401, 301, 24);
    let p = all_kinds(&service(Some(ffmpeg)), &gif).await;
    assert!(p.opaque);
    let kinds: Vec<RenditionKind> = p.renditions.iter().map(|(k, _)| *k).collect();
    assert_eq!(kinds, RenditionKind::ALL);
    check_every_kind(&p, &gif, 60);
}

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn a_small_source_is_never_upscaled() {
    let ffmpeg = ffmpeg();
    let gif = photo_gif(100, 80, 24);
    let p = all_kinds(&service(Some(ffmpeg)), &gif).await;
    let small = [RenditionKind::Tiny, RenditionKind::Nano, RenditionKind::FixedHeight, RenditionKind::Mp4Small];
    for kind in small.into_iter().chain([RenditionKind::WebmSmall, RenditionKind::Thumbnail]) {
        assert_eq!((get(&p, kind).width, get(&p, kind).height), (100, 80), "{kind:?}");
    }
    check_every_kind(&p, &gif, 60);
}

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn a_video_keeps_variable_frame_timing_without_duplicated_frames() {
    let ffmpeg = ffmpeg();
    let service = service(Some(ffmpeg));
    for delays in [[10u16, 10, 50, 10], [10, 10, 10, 50], [2, 0, 50, 7]] {
        let gif = gif_with_delays(64, 48, &delays);
        let p = all_kinds(&service, &gif).await;
        let want: u32 = delays.iter().map(|&d| if d <= 1 { 100 } else { u32::from(d) * 10 }).sum();
        for kind in [RenditionKind::Mp4, RenditionKind::Webm] {
            let ext = if kind == RenditionKind::Mp4 { "mp4" } else { "webm" };
            let v = ffprobe(&get(&p, kind).bytes, ext);
            assert!(v.duration_ms.abs_diff(want) <= 20, "{delays:?} {kind:?}: {} ms, want {want}", v.duration_ms);
            assert!((4..=5).contains(&v.frames), "{delays:?} {kind:?}: {} frames", v.frames);
        }
        check_every_kind(&p, &gif, 100);
    }
}

/// Delays of 655.35 s (the most a GIF can say) next to short ones: the raw input the video is
/// made of stays within its budget of writes, so the video is made in seconds, not minutes, and
/// holds no more frames than the GIF.
#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn frames_held_for_minutes_make_a_video_within_the_budget() {
    let service = service(Some(ffmpeg()));
    let delays: Vec<u16> = (0..6).map(|i| if i % 2 == 0 { 65535 } else { 7 }).collect();
    let gif = gif_with_delays(1000, 1000, &delays);
    let start = Instant::now();
    let p = service.process(Arc::new(gif), &[RenditionKind::Mp4, RenditionKind::Webm]).await;
    let p = p.unwrap_or_else(|e| panic!("{e}"));
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    for kind in [RenditionKind::Mp4, RenditionKind::Webm] {
        let ext = if kind == RenditionKind::Mp4 { "mp4" } else { "webm" };
        let v = ffprobe(&get(&p, kind).bytes, ext);
        assert!((1..=7).contains(&v.frames), "{kind:?}: {} frames", v.frames);
    }
}

/// The corpus's `sample_big.gif` (259 frames of 10 hundredths) with its first frame's delay
/// set to `delay`: the GIF whose videos once all failed, since the `select` that thinned their
/// input had one term per frame and ffmpeg's parser gives up past about a hundred.
fn sample_big_first_delay(delay: u16) -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/corpus/sample_big.gif");
    let mut gif = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // The first Graphic Control Extension: 21 F9 04, packed byte, then the delay (LE).
    let at = gif.windows(3).position(|w| w == [0x21, 0xF9, 0x04]).expect("a graphic control extension");
    gif[at + 4..at + 6].copy_from_slice(&delay.to_le_bytes());
    gif
}

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn a_short_first_frame_of_sample_big_gets_every_rendition() {
    let service = service(Some(ffmpeg()));
    for delay in [2u16, 5] {
        let gif = sample_big_first_delay(delay);
        assert_eq!(gif_figures(&gif).3, 258 * 100 + u32::from(delay) * 10);
        let p = service.process(Arc::new(gif.clone()), &RenditionKind::ALL).await;
        let p = p.unwrap_or_else(|e| panic!("first delay {delay}: {e}"));
        let kinds: Vec<RenditionKind> = p.renditions.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, RenditionKind::ALL);
        check_every_kind(&p, &gif, 100);
    }
}

/// Mixes of delays a real GIF may hold (0 and 1 shown as 10, odd ones, half-second holds), long enough
/// that the video's input is thinned by more than one `select`: each video holds the GIF's
/// frames and its play time.
#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn any_mix_of_delays_makes_videos_with_the_gifs_timing() {
    let service = service(Some(ffmpeg()));
    let choices = [0u16, 1, 2, 3, 4, 5, 7, 10, 13, 50];
    let mut seed = 0x9e37_79b9_u32;
    for len in [120usize, 301] {
        let delays: Vec<u16> = (0..len)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                choices[(seed >> 16) as usize % choices.len()]
            })
            .collect();
        let gif = gif_with_delays(48, 32, &delays);
        let p = service.process(Arc::new(gif.clone()), &[RenditionKind::Mp4, RenditionKind::Webm]).await;
        let p = p.unwrap_or_else(|e| panic!("{len} frames: {e}"));
        let (_, _, frames, duration) = gif_figures(&gif);
        for (kind, r) in &p.renditions {
            let ext = if *kind == RenditionKind::Mp4 { "mp4" } else { "webm" };
            let v = ffprobe(&r.bytes, ext);
            // Frames shorter than half the grid's step may vanish; never more frames than the GIF.
            assert!(v.frames <= frames + 1 && v.frames * 2 >= frames, "{kind:?}: {} of {frames}", v.frames);
            assert!(v.duration_ms.abs_diff(duration) <= 500, "{kind:?}: {} ms vs {duration} ms", v.duration_ms);
        }
    }
}

/// A transparent animation's WebPs keep its alpha (a lossy WebP with an alpha plane) at every
/// size, play its frames for its time, and loop; the transparent field stays transparent.
#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn a_transparent_animation_gets_animated_webps_with_alpha_at_every_size() {
    let service = service(Some(ffmpeg()));
    let webps = [RenditionKind::Webp, RenditionKind::WebpFixedHeight, RenditionKind::WebpTiny, RenditionKind::WebpNano];
    assert!(webps.iter().all(|&k| service.can_make(k)), "Debian's ffmpeg has libwebp_anim");
    let gif = gifshelf_media::testing::captioned_gif(400, 240, 10, None, true);
    let p = service.process(Arc::new(gif.clone()), &webps).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(!p.opaque);
    check_every_kind(&p, &gif, 80);
    for (kind, r) in &p.renditions {
        assert!(webp_figures(&r.bytes).alpha, "{kind:?} lost its alpha");
    }
    // Frames that visibly differ (the caption over a moving scene) are each kept.
    let full = &get(&p, RenditionKind::Webp).bytes;
    assert_eq!(webp_figures(full).frames, 10);
    // The corner is transparent in the decoded first frame.
    let first = image::load_from_memory_with_format(full, image::ImageFormat::WebP).unwrap().to_rgba8();
    assert_eq!(first.get_pixel(2, 2)[3], 0, "the transparent field became opaque");
}

/// The poster is the first frame, at most 640 wide, a still WebP that keeps the transparency,
/// made alone from the first frame (the renditions job backfilling it).
#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn the_poster_is_the_first_frame_at_display_size_with_its_transparency() {
    let service = service(Some(ffmpeg()));
    assert!(service.can_make(RenditionKind::Poster), "Debian's ffmpeg has libwebp");
    // A disc that moves from x = 200 to x = 533 over a transparent field.
    let gif = gifshelf_media::testing::captioned_gif(800, 480, 6, None, true);
    let p = service.process(Arc::new(gif), &[RenditionKind::Poster]).await.unwrap_or_else(|e| panic!("{e}"));
    let poster = get(&p, RenditionKind::Poster);
    assert_eq!((poster.width, poster.height, poster.frames), (640, 384, 1));
    assert!(poster.bytes.len() < 20_000, "{} bytes", poster.bytes.len());
    let w = webp_figures(&poster.bytes);
    assert!(w.alpha && w.frames == 0, "a still WebP with alpha: {w:?}");
    let image = image::load_from_memory_with_format(&poster.bytes, image::ImageFormat::WebP).unwrap().to_rgba8();
    let [r, g, b, a] = image.get_pixel(160, 192).0;
    assert!(
        a == 255 && r.abs_diff(230) < 30 && g.abs_diff(120) < 30 && b.abs_diff(40) < 30,
        "the disc: {r} {g} {b} {a}"
    );
    assert_eq!(image.get_pixel(426, 192)[3], 0, "where the disc ends up is still clear in the first frame");
    assert_eq!(image.get_pixel(2, 2)[3], 0, "the transparent field became opaque");
}

/// The stored renditions the app would keep, with their `preferred` flags.
fn stored(p: &ProcessedMedia) -> Renditions {
    Renditions::new(p.renditions.iter().map(|(kind, r)| Stored {
        kind: *kind,
        key: kind.as_str().into(),
        content_type: r.content_type.clone(),
        size: r.bytes.len() as i64,
        width: r.width as i32,
        height: r.height as i32,
        frames: r.frames as i32,
        duration_ms: Some(r.duration_ms as i32),
        codec: r.codec.clone(),
        preferred: false,
    }))
    .with_preferred(p.opaque, p.frames > 1)
}

fn preferred(set: &Renditions, kinds: &[RenditionKind]) -> RenditionKind {
    set.iter().find(|r| r.preferred && kinds.contains(&r.kind)).map(|r| r.kind).unwrap()
}

const FULL: [RenditionKind; 4] =
    [RenditionKind::Original, RenditionKind::Medium, RenditionKind::Mp4, RenditionKind::Webm];
const SMALL: [RenditionKind; 3] = [RenditionKind::Thumbnail, RenditionKind::Mp4Small, RenditionKind::WebmSmall];

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn pixel_art_keeps_its_gif_and_a_photo_like_gif_plays_as_a_video() {
    let ffmpeg = ffmpeg();
    let service = service(Some(ffmpeg));

    let art = pixel_art_gif(320, 240, 30);
    let p = all_kinds(&service, &art).await;
    assert!(p.opaque);
    let mp4 = get(&p, RenditionKind::Mp4).bytes.len();
    assert!(mp4 > art.len(), "the pixel-art MP4 ({mp4} B) should be larger than the GIF ({} B)", art.len());
    let set = stored(&p);
    let full = preferred(&set, &FULL);
    assert!(!full.is_video(), "pixel art should stay a GIF, got {full:?}");

    let photo = photo_gif(480, 270, 30);
    let p = all_kinds(&service, &photo).await;
    assert!(p.opaque);
    let set = stored(&p);
    let full = preferred(&set, &FULL);
    assert!(full.is_video(), "a photo-like GIF should play as a video, got {full:?}");
    assert!(preferred(&set, &SMALL).is_video());
    let best = get(&p, full).bytes.len();
    assert!(best * 4 <= photo.len(), "the best video is {best} B, the GIF {} B", photo.len());
}

#[tokio::test]
async fn without_ffmpeg_no_video_is_made() {
    let without = service(None);
    assert!(!without.can_make(RenditionKind::Mp4) && !without.can_make(RenditionKind::WebmSmall));
    assert!(without.can_make(RenditionKind::Tiny) && without.can_make(RenditionKind::Medium));
    let gif = gif_with_delays(32, 32, &[10, 10]);
    let answer = without.process(Arc::new(gif), &[RenditionKind::Original, RenditionKind::Mp4]).await;
    assert!(matches!(&answer, Err(MediaRejection::Internal(m)) if m.to_string().contains("ffmpeg")), "{answer:?}");
}

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn a_still_image_gets_one_second_loops_and_its_other_kinds_are_images() {
    let with = service(Some(ffmpeg()));
    assert!(with.can_make(RenditionKind::Mp4));
    let still = gif_with_delays(32, 32, &[10]);
    let looped: Vec<RenditionKind> = RenditionKind::ALL.into_iter().filter(|k| k.needs_ffmpeg()).collect();
    for (name, bytes) in [("a one-frame GIF", still.clone()), ("a PNG", gifshelf_media::testing::png(400, 300))] {
        let p = with.process(Arc::new(bytes), &looped).await.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.renditions.len(), looped.len());
        for (kind, r) in &p.renditions {
            if *kind == RenditionKind::Poster {
                assert_eq!((r.frames, r.duration_ms, r.width, r.height), (1, 0, p.width, p.height), "{name}");
                continue;
            }
            assert_eq!((r.frames, r.duration_ms), (1, 1000), "{name}: {kind:?}");
            if kind.is_webp() {
                // libwebp writes one frame as a still WebP (no animation chunks): the picture.
                let w = webp_figures(&r.bytes);
                assert_eq!((w.frames, w.duration_ms), (0, 0), "{name}: {kind:?}");
                let decoded = image::load_from_memory_with_format(&r.bytes, image::ImageFormat::WebP).unwrap();
                assert_eq!((decoded.width(), decoded.height()), (r.width, r.height), "{name}: {kind:?}");
            } else {
                let v = ffprobe(&r.bytes, if r.content_type == "video/mp4" { "mp4" } else { "webm" });
                assert_eq!(v.frames, 1, "{name}: {kind:?}");
                assert!(v.duration_ms.abs_diff(1000) <= 40, "{name}: {kind:?} lasts {} ms", v.duration_ms);
            }
        }
    }
    // The other kinds of a single frame are still images, sized as asked.
    let kinds = [RenditionKind::Tiny, RenditionKind::Nano, RenditionKind::FixedHeight, RenditionKind::Thumbnail];
    let p = with.process(Arc::new(still), &kinds).await.unwrap();
    for (kind, r) in &p.renditions {
        assert_eq!((r.frames, r.duration_ms, r.width, r.height), (1, 0, 32, 32), "{kind:?}");
    }
    let png = gifshelf_media::testing::png(400, 300);
    let p =
        with.process(Arc::new(png), &[RenditionKind::Tiny, RenditionKind::Nano, RenditionKind::Still]).await.unwrap();
    let sizes: Vec<(u32, u32)> = p.renditions.iter().map(|(_, r)| (r.width, r.height)).collect();
    assert_eq!(sizes, [(220, 165), (120, 90), (320, 240)]);
    assert!(p.opaque);
}

/// The RGB of the pixel at (`x`, `y`) of a video's first frame, decoded by `ffmpeg`.
fn first_frame_pixel(bytes: &[u8], ext: &str, width: u32, (x, y): (u32, u32)) -> [u8; 3] {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("v.{ext}"));
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new(FFMPEG)
        .args(["-v", "error", "-i"])
        .arg(&path)
        .args(["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let at = ((y * width + x) * 3) as usize;
    [out.stdout[at], out.stdout[at + 1], out.stdout[at + 2]]
}

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn a_transparent_animation_has_videos_flattened_onto_white() {
    let service = service(Some(ffmpeg()));
    let gif = gifshelf_media::testing::captioned_gif(400, 240, 10, None, true);
    let p = service.process(Arc::new(gif), &[RenditionKind::Mp4, RenditionKind::Webm]).await.unwrap();
    assert!(!p.opaque);
    for (kind, r) in &p.renditions {
        let ext = if r.content_type == "video/mp4" { "mp4" } else { "webm" };
        let px = first_frame_pixel(&r.bytes, ext, r.width, (2, 2));
        assert!(px.iter().all(|&c| c >= 235), "{kind:?}: the transparent corner is {px:?}, not white");
    }
}
