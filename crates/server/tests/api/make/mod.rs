//! The GIF maker over HTTP with real `ffmpeg`: `POST /api/make` queues the work, the job workers
//! make the GIF, `GET /api/make/{jobId}` says how it went. Video sources are made here with
//! ffmpeg's `lavfi` sources; the made GIFs are decoded and looked at (size, frames, times, order,
//! caption and crop pixels).

mod mp4;
mod quota;
mod recipes;
mod refusals;
mod sources;

use std::time::{Duration, Instant};

use gifshelf_http::dto::{GifDto, MakeStartedDto, MakeStatusDto};
use image::AnimationDecoder;
use reqwest::{Method, Response, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{dto_of, send, Client};

/// The settings of a server whose job workers make GIFs.
pub(crate) const WITH_WORKERS: &[(&str, &str)] = &[("GIFSHELF_WORKERS", "1"), ("GIFSHELF_JOB_POLL_MS", "50")];

/// Runs each named `async fn NAME(backend: Backend)` on both databases, as `on_both_backends!`,
/// compiled as ignored where the tests were built without `ffmpeg` (never reported as passed).
#[macro_export]
macro_rules! with_ffmpeg_on_both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[cfg_attr(not(ffmpeg_tests), ignore = "ffmpeg was not found when the tests were built")]
                async fn sqlite() {
                    super::$name($crate::helpers::Backend::Sqlite).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[cfg_attr(
                    any(not(postgres_tests), not(ffmpeg_tests)),
                    ignore = "GIFSHELF_TEST_POSTGRES_URL is not set or ffmpeg was not found"
                )]
                async fn postgres() {
                    super::$name($crate::helpers::Backend::Postgres).await;
                }
            }
        )*
    };
}

/// A video made by `ffmpeg` of a `lavfi` source (`-f lavfi -i SOURCE`), encoded by `codec` into
/// a file ending in `ext`.
pub(crate) fn video(source: &str, codec: &str, ext: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join(format!("clip.{ext}"));
    let ffmpeg = option_env!("GIFSHELF_TEST_FFMPEG").unwrap_or("ffmpeg");
    let status = std::process::Command::new(ffmpeg)
        .args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source])
        .args(["-c:v", codec, "-pix_fmt", "yuv420p", "-g", "10"])
        .arg(&out)
        .status()
        .unwrap_or_else(|e| panic!("{ffmpeg}: {e}"));
    assert!(status.success(), "ffmpeg made no video of {source}");
    std::fs::read(&out).unwrap_or_else(|e| panic!("{e}"))
}

/// 3 s of ffmpeg's moving test picture, 320×240 at 25 fps, as H.264 in MP4.
pub(crate) fn test_mp4() -> Vec<u8> {
    video("testsrc=size=320x240:rate=25:duration=3", "libx264", "mp4")
}

/// A recipe: the whole of the first two seconds at 320 px and 10 fps, forward; `changes` replace
/// or add fields.
pub(crate) fn recipe(changes: Value) -> Value {
    let mut recipe = json!({"start": 0.0, "end": 2.0, "width": 320, "fps": 10, "speed": 1.0, "direction": "forward"});
    if let (Some(base), Some(changes)) = (recipe.as_object_mut(), changes.as_object()) {
        for (key, value) in changes {
            base.insert(key.clone(), value.clone());
        }
    }
    recipe
}

/// `POST /api/make` with the parts given (`file` left out when `None`).
pub(crate) async fn start(client: &Client, file: Option<Vec<u8>>, title: &str, recipe: &Value) -> Response {
    let data = json!({"title": title, "description": "made here", "tags": ["made"]});
    let mut form = reqwest::multipart::Form::new().text("gifData", data.to_string()).text("recipe", recipe.to_string());
    if let Some(bytes) = file {
        form = form.part("file", reqwest::multipart::Part::bytes(bytes).file_name("clip.bin"));
    }
    send(client.request(Method::POST, "/api/make").multipart(form)).await
}

/// Polls the job until it is done or failed.
pub(crate) async fn settled(client: &Client, job: i64) -> MakeStatusDto {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let status: MakeStatusDto = dto_of(client.get(&format!("/api/make/{job}")).await, StatusCode::OK).await;
        assert!((0.0..=1.0).contains(&status.progress), "{status:?}");
        if status.state == "done" || status.state == "failed" {
            return status;
        }
        assert!(Instant::now() < deadline, "job {job} still {status:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Makes a GIF and answers it (asserting the job ended `done`).
pub(crate) async fn made(client: &Client, file: Option<Vec<u8>>, recipe: &Value) -> GifDto {
    let started: MakeStartedDto = dto_of(start(client, file, "Made", recipe).await, StatusCode::ACCEPTED).await;
    let status = settled(client, started.job_id).await;
    assert_eq!(status.state, "done", "{status:?}");
    assert_eq!(status.progress, 1.0);
    client.gif(status.gif_id.unwrap_or_else(|| panic!("done without a GIF: {status:?}"))).await
}

/// One decoded frame: RGBA of the whole canvas, and its time in hundredths.
pub(crate) struct Frame {
    pub rgba: image::RgbaImage,
    pub cs: u32,
}

/// The frames of the GIF's original file.
pub(crate) async fn frames_of(client: &Client, gif: &GifDto) -> Vec<Frame> {
    let response = client.get(&format!("/api/gifs/content/{}", gif.id)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.bytes().await.unwrap_or_else(|e| panic!("{e}"));
    let decoder =
        image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes.to_vec())).unwrap_or_else(|e| panic!("{e}"));
    decoder
        .into_frames()
        .collect_frames()
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|frame| {
            let (num, den) = frame.delay().numer_denom_ms();
            let cs = (f64::from(num) / f64::from(den.max(1)) / 10.0).round() as u32;
            Frame { rgba: frame.into_buffer(), cs }
        })
        .collect()
}

/// How unlike two pictures of the same size are: the mean absolute difference per channel (0–255).
pub(crate) fn difference(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let total: u64 = a.as_raw().iter().zip(b.as_raw()).map(|(x, y)| u64::from(x.abs_diff(*y))).sum();
    total as f64 / a.as_raw().len() as f64
}
