//! In CI the video tests must run: compiled as ignored (no `ffmpeg` or `ffprobe` found when the
//! tests were built), they would be skipped silently.

#[test]
fn the_video_tests_run_in_ci() {
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !in_ci || cfg!(ffmpeg_tests),
        "CI=true, but the tests were built without ffmpeg and ffprobe (on PATH or named by GIFSHELF_FFMPEG): the video tests would not run"
    );
}
