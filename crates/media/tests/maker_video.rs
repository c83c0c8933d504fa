//! The maker's video sources with the real `ffmpeg` and `ffprobe`: MP4, WebM (also as a browser
//! records it, without a duration), MOV and MKV are probed by their packets and made into GIFs of
//! a window at a rate; other files are refused. Compiled as ignored where ffmpeg is missing.

#![cfg_attr(not(ffmpeg_tests), allow(dead_code, unused_imports))]

use std::path::{Path, PathBuf};
use std::process::Command;

use gifshelf_media::maker::{make_from_video, probe_video, Direction, Recipe};
use gifshelf_media::{Ffmpeg, MediaRejection};

const FFMPEG: &str = match option_env!("GIFSHELF_TEST_FFMPEG") {
    Some(path) => path,
    None => "ffmpeg",
};

fn ffmpeg() -> Ffmpeg {
    Ffmpeg::detect(Some(Path::new(FFMPEG))).unwrap_or_else(|e| panic!("{e}"))
}

/// A 2-second 320×240 test video at 25 fps, encoded as `args` say, into `dir/name` (through a
/// pipe when `piped`, as a browser's recorder writes: no duration in the header).
fn video(dir: &Path, name: &str, args: &[&str], piped: bool) -> PathBuf {
    let path = dir.join(name);
    let mut cmd = Command::new(FFMPEG);
    cmd.args(["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2"]).args(args);
    if piped {
        let out = cmd.arg("pipe:1").output().unwrap_or_else(|e| panic!("{e}"));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::write(&path, out.stdout).unwrap_or_else(|e| panic!("{e}"));
    } else {
        let status = cmd.arg(&path).status().unwrap_or_else(|e| panic!("{e}"));
        assert!(status.success());
    }
    path
}

#[test]
#[cfg_attr(not(ffmpeg_tests), ignore = "ffmpeg and ffprobe are not installed")]
fn every_container_is_probed_by_its_packets_and_made_into_a_gif() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p"];
    let cases = [
        (video(dir.path(), "clip.mp4", &h264, false), "h264"),
        (video(dir.path(), "clip.mov", &h264, false), "h264"),
        (video(dir.path(), "clip.mkv", &h264, false), "h264"),
        (video(dir.path(), "clip.webm", &["-c:v", "libvpx-vp9", "-deadline", "realtime", "-f", "webm"], true), "vp9"),
        (video(dir.path(), "vp8.webm", &["-c:v", "libvpx", "-deadline", "realtime", "-f", "webm"], true), "vp8"),
    ];
    let ffmpeg = ffmpeg();
    for (path, codec) in cases {
        let info = probe_video(&path, &ffmpeg).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!((info.codec.as_str(), info.width, info.height), (codec, 320, 240), "{}", path.display());
        assert!((1900..=2100).contains(&info.duration_ms), "{}: {} ms", path.display(), info.duration_ms);
        let recipe = Recipe { start_ms: 500, end_ms: Some(1500), fps: Some(10), width: Some(240), ..Recipe::copy() };
        let gif = make_from_video(&path, &info, &recipe, &ffmpeg).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!((gif.width, gif.height, gif.mime), (240, 180, "image/gif"));
        assert!((9..=11).contains(&gif.frames), "{}: {} frames for 1 s at 10 fps", path.display(), gif.frames);
        assert!(gif.bytes.starts_with(b"GIF89a"));
    }
}

#[test]
#[cfg_attr(not(ffmpeg_tests), ignore = "ffmpeg and ffprobe are not installed")]
fn speed_direction_and_the_default_rate_apply_to_videos() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = video(dir.path(), "clip.mp4", &["-c:v", "libx264", "-pix_fmt", "yuv420p"], false);
    let ffmpeg = ffmpeg();
    let info = probe_video(&path, &ffmpeg).unwrap_or_else(|e| panic!("{e}"));
    let plain = make_from_video(&path, &info, &Recipe::copy(), &ffmpeg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((plain.width, plain.height), (320, 240), "narrower than 480: its own width");
    assert!((29..=31).contains(&plain.frames), "2 s at 15 fps: {}", plain.frames);
    let fast = make_from_video(&path, &info, &Recipe { speed: 2.0, ..Recipe::copy() }, &ffmpeg)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!((14..=16).contains(&fast.frames), "twice as fast, half the frames: {}", fast.frames);
    let boomerang = Recipe { direction: Direction::Boomerang, fps: Some(10), ..Recipe::copy() };
    let there_and_back = make_from_video(&path, &info, &boomerang, &ffmpeg).unwrap_or_else(|e| panic!("{e}"));
    assert!((36..=40).contains(&there_and_back.frames), "{}", there_and_back.frames);
}

#[test]
#[cfg_attr(not(ffmpeg_tests), ignore = "ffmpeg and ffprobe are not installed")]
fn other_files_and_windows_outside_the_video_are_refused() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ffmpeg = ffmpeg();
    let gif = dir.path().join("not-a-video.mp4");
    std::fs::write(&gif, gifshelf_media::testing::tiny_gif(3)).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(probe_video(&gif, &ffmpeg), Err(MediaRejection::UnsupportedType(_))));
    let broken = dir.path().join("broken.mp4");
    let mut bytes = b"\0\0\0\x20ftypisom".to_vec();
    bytes.extend(std::iter::repeat_n(0x55, 4000));
    std::fs::write(&broken, bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        matches!(probe_video(&broken, &ffmpeg), Err(MediaRejection::InvalidImage { .. })),
        "{:?}",
        probe_video(&broken, &ffmpeg)
    );
    let path = video(dir.path(), "clip.mp4", &["-c:v", "libx264", "-pix_fmt", "yuv420p"], false);
    let info = probe_video(&path, &ffmpeg).unwrap_or_else(|e| panic!("{e}"));
    let late = make_from_video(&path, &info, &Recipe { start_ms: 5000, ..Recipe::copy() }, &ffmpeg);
    assert!(
        matches!(late, Err(MediaRejection::InvalidImage { ref message, .. }) if message.contains("past the end")),
        "{late:?}"
    );
}
