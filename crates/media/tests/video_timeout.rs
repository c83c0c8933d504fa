#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed step should stop the test loudly
//! The `ffmpeg` timeout: a video past it is killed, answered `ImageTooComplex`, and its child
//! reaped. Alone in its test binary: it counts the zombie children of the whole process, which
//! other tests' `ffmpeg` runs would add to. Compiled as ignored without the `ffmpeg` and `ffprobe`
//! found when the tests were built (the cfg `ffmpeg_tests`, see `build_ffmpeg.rs`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use gifshelf_domain::gif::RenditionKind;
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::ports::MediaProcessor;
use gifshelf_media::testing::photo_gif;
use gifshelf_media::{Ffmpeg, Limits, MediaService};

/// The `ffmpeg` found when the tests were built (see `build_ffmpeg.rs`).
const FFMPEG: &str = match option_env!("GIFSHELF_TEST_FFMPEG") {
    Some(path) => path,
    None => "ffmpeg",
};

/// Children of this process that are zombies (exited, never reaped).
fn zombies() -> usize {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid …: the fields after the last ')'.
            let rest: Vec<&str> =
                stat.rsplit_once(')').map(|(_, r)| r.split_whitespace().collect()).unwrap_or_default();
            rest.first() == Some(&"Z") && rest.get(1) == Some(&me.as_str())
        })
        .count()
}

#[tokio::test]
#[cfg_attr(
    not(ffmpeg_tests),
    ignore = "ffmpeg or ffprobe was not found when the tests were built: the video tests did not run"
)]
async fn a_video_past_its_timeout_is_killed_and_answered_timeout() {
    let ffmpeg = Ffmpeg::detect(Some(std::path::Path::new(FFMPEG))).unwrap_or_else(|why| panic!("{why}"));
    let service = MediaService::new(Limits::default(), 1, Duration::from_secs(30))
        .with_video(Some(ffmpeg.with_timeout(Duration::from_millis(300))));
    let big = photo_gif(640, 480, 48);
    let start = Instant::now();
    let answer = service.process(Arc::new(big), &[RenditionKind::Mp4, RenditionKind::Webm]).await;
    assert!(matches!(answer, Err(MediaRejection::ImageTooComplex)), "{answer:?}");
    assert!(start.elapsed() < Duration::from_secs(20), "the job was not stopped: {:?}", start.elapsed());
    // The killed child is reaped (at once, or by a thread finishing the job): a leaked one stays.
    let deadline = Instant::now() + Duration::from_secs(2);
    while zombies() > 0 {
        assert!(Instant::now() < deadline, "an ffmpeg child was left unreaped");
        std::thread::sleep(Duration::from_millis(20));
    }
}
