//! Video sources of the maker (MP4, WebM, MOV, MKV): the one place where `ffmpeg` demuxes and
//! decodes uploaded bytes, so it runs under the same rules as everywhere (no environment, only
//! the `file` protocol on a private copy, `RLIMIT_AS`, a wall-clock timeout that kills and reaps).
//! `ffprobe` says what the file holds, its length counted from the video packets' timestamps (a
//! browser's WebM recording carries no duration); `ffmpeg` then decodes only the window, already
//! at the frame rate, cropped and scaled, as raw RGBA on a pipe, into the maker's [`Assembler`].

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::{output_size, Assembler, Crop, Made, Pace, Recipe, MAX_WINDOW_MS};
use crate::video::{drain_stderr, limit_memory, watch};
use crate::{Ffmpeg, MediaRejection, Rendition};

/// Codecs a source video may have (what Debian's `ffmpeg` decodes of MP4, WebM, MOV and MKV).
const CODECS: [&str; 5] = ["h264", "hevc", "vp8", "vp9", "av1"];
/// The frame rate of a video source when the recipe names none.
pub const DEFAULT_VIDEO_FPS: u32 = 15;

/// What a video file holds, as `ffprobe` and its packets say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VideoInfo {
    /// `h264`, `hevc`, `vp8`, `vp9` or `av1`.
    pub codec: String,
    /// As displayed (a rotation applied).
    pub width: u32,
    /// As displayed.
    pub height: u32,
    /// From the first video packet's time to the end of the last one.
    pub duration_ms: u32,
}

fn video_err(what: impl std::fmt::Display) -> MediaRejection {
    crate::error::internal(format!("reading the video failed: {what}"))
}

fn unsupported() -> MediaRejection {
    MediaRejection::UnsupportedType(
        "The file is not a video gifshelf reads: use MP4, WebM, MOV or MKV (H.264, H.265, VP8, VP9 or AV1).".into(),
    )
}

/// Whether `head` (the file's first bytes) is an ISO media file (MP4, MOV) or Matroska (MKV, WebM).
pub fn is_video(head: &[u8]) -> bool {
    head.get(4..8) == Some(b"ftyp") || head.starts_with(&[0x1a, 0x45, 0xdf, 0xa3])
}

/// A program of `ffmpeg`'s kind running under its rules, its standard output a pipe.
struct Sandboxed {
    program: String,
    stdout: Option<std::process::ChildStdout>,
    watchdog: Option<std::thread::JoinHandle<(Option<std::process::ExitStatus>, bool)>>,
    errors: Option<std::thread::JoinHandle<String>>,
    abort: Arc<AtomicBool>,
}

impl Sandboxed {
    fn start(ffmpeg: &Ffmpeg, program: &Path, args: &[String]) -> Result<Self, MediaRejection> {
        let mut cmd = Command::new(program);
        cmd.env_clear().env("MALLOC_ARENA_MAX", "2").args(args);
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        limit_memory(&mut cmd, ffmpeg.memory_limit());
        let mut child = cmd.spawn().map_err(|e| video_err(format!("{} could not start: {e}", program.display())))?;
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let abort = Arc::new(AtomicBool::new(false));
        let name = if program == ffmpeg.ffprobe() { "ffprobe" } else { "ffmpeg" };
        let watchdog = watch(name, Arc::new(Mutex::new(child)), Instant::now() + ffmpeg.timeout(), abort.clone());
        Ok(Self {
            program: program.display().to_string(),
            stdout,
            watchdog: Some(watchdog),
            errors: stderr.map(drain_stderr),
            abort,
        })
    }

    /// Waits for the program (killing it when `abort`); `Ok` when it finished cleanly.
    fn end(&mut self, abort: bool) -> Result<(), MediaRejection> {
        if abort {
            self.abort.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        drop(self.stdout.take());
        let (status, late) = self.watchdog.take().and_then(|w| w.join().ok()).unwrap_or((None, false));
        if late {
            return Err(MediaRejection::ImageTooComplex);
        }
        if abort || status.is_some_and(|s| s.success()) {
            return Ok(());
        }
        let said = self.errors.take().and_then(|e| e.join().ok()).unwrap_or_default();
        tracing::info!(program = self.program, said, "a video could not be read");
        Err(MediaRejection::invalid("The video could not be read: it may be damaged or incomplete."))
    }
}

impl Drop for Sandboxed {
    /// Dropped early (an error on our side): the child is killed and reaped.
    fn drop(&mut self) {
        if self.watchdog.is_some() {
            let _ = self.end(true);
        }
    }
}

/// Runs a program of `ffmpeg`'s kind under its rules and answers its standard output (at most
/// `max_out` bytes).
fn run_captured(ffmpeg: &Ffmpeg, program: &Path, args: &[String], max_out: u64) -> Result<Vec<u8>, MediaRejection> {
    let mut run = Sandboxed::start(ffmpeg, program, args)?;
    let mut out = Vec::new();
    if let Some(stdout) = run.stdout.as_mut() {
        let _ = stdout.take(max_out).read_to_end(&mut out);
    }
    run.end(false)?;
    Ok(out)
}

/// What the video at `path` holds.
///
/// # Errors
/// `UnsupportedType` for a file that is no MP4, WebM, MOV or MKV with a video of a known codec;
/// `InvalidImage` for one `ffprobe` cannot read.
pub fn probe_video(path: &Path, ffmpeg: &Ffmpeg) -> Result<VideoInfo, MediaRejection> {
    let mut head = [0_u8; 12];
    let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).map_err(video_err)?;
    if !is_video(&head[..read]) {
        return Err(unsupported());
    }
    // One run for the stream and its packets: the packets' own times give the length, never the
    // container's duration (16 MiB of them is hours of video). Packets come first, one
    // `pts_time` line and one `duration_time` line each, then the stream's fields.
    let probe = |entries: &str| -> Result<Vec<u8>, MediaRejection> {
        let args: Vec<String> =
            ["-v", "error", "-protocol_whitelist", "file", "-select_streams", "v:0", "-show_entries", entries]
                .iter()
                .map(|s| (*s).to_owned())
                .chain(["-of".to_owned(), "default=nw=1".to_owned(), path.display().to_string()])
                .collect();
        run_captured(ffmpeg, &ffmpeg.ffprobe(), &args, PROBE_MAX_BYTES)
    };
    let stream_entries = "stream=codec_name,width,height:stream_side_data=rotation";
    let said = probe(&format!("{stream_entries}:packet=pts_time,duration_time"))?;
    let mut read = Probed::default();
    read.take(&said);
    if read.width.is_none() && said.len() as u64 >= PROBE_MAX_BYTES {
        // So many packets that the stream's fields were cut off: ask for them alone.
        read.take(&probe(stream_entries)?);
    }
    let Probed { codec, width, height, rotation, first, last } = read;
    let codec = codec.unwrap_or_default();
    let (Some(width), Some(height)) = (width, height) else { return Err(unsupported()) };
    let quarter_turn = rotation.is_some_and(|r| r.rem_euclid(180) == 90);
    if !CODECS.contains(&codec.as_str()) {
        return Err(unsupported());
    }
    let Some(first) = first else {
        return Err(MediaRejection::invalid("The video has no frames."));
    };
    let duration_ms = ((last - first.min(last)) * 1000.0).round() as u32;
    let (width, height) = if quarter_turn { (height, width) } else { (width, height) };
    Ok(VideoInfo { codec, width, height, duration_ms })
}

/// The most `ffprobe` may say of a video: its stream and its packets' times.
const PROBE_MAX_BYTES: u64 = 16 << 20;

/// What `ffprobe` said of a video's stream and packets, read in one pass over its `key=value`
/// lines.
#[derive(Default)]
struct Probed {
    codec: Option<String>,
    width: Option<u32>,
    height: Option<u32>,
    rotation: Option<i32>,
    /// The first packet's time (none before a packet) and the latest end of a packet, in
    /// seconds.
    first: Option<f64>,
    last: f64,
}

impl Probed {
    fn take(&mut self, said: &[u8]) {
        let said = String::from_utf8_lossy(said);
        let mut pts: Option<f64> = None;
        for (key, value) in said.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.trim(), v.trim())) {
            match key {
                "pts_time" => {
                    pts = value.parse::<f64>().ok();
                    if let Some(p) = pts {
                        self.first = Some(self.first.map_or(p, |f| f.min(p)));
                        self.last = self.last.max(p);
                    }
                }
                "duration_time" => {
                    if let (Some(p), Ok(duration)) = (pts.take(), value.parse::<f64>()) {
                        self.last = self.last.max(p + duration);
                    }
                }
                "codec_name" => self.codec = Some(value.to_owned()),
                "width" => self.width = value.parse().ok(),
                "height" => self.height = value.parse().ok(),
                "rotation" => self.rotation = value.parse().ok(),
                _ => {}
            }
        }
    }
}

/// Makes a GIF of the video at `path` (already probed as `info`) by `recipe`: the window decoded at
/// the recipe's frame rate (15 when it names none) over its speed, cropped, scaled, captioned.
///
/// # Errors
/// `InvalidImage` for a recipe out of range or outside the video; `ImageTooComplex` past the
/// timeout; `ImageTooLarge` for a reversed video too long to hold.
pub fn make_from_video(
    path: &Path,
    info: &VideoInfo,
    recipe: &Recipe,
    ffmpeg: &Ffmpeg,
) -> Result<Rendition, MediaRejection> {
    make_from_video_with_progress(path, info, recipe, ffmpeg, &|_| {})
}

/// [`make_from_video`], telling `progress` the share of the window's frames decoded (0 to 1) as
/// they come.
///
/// # Errors
/// As [`make_from_video`].
pub fn make_from_video_with_progress(
    path: &Path,
    info: &VideoInfo,
    recipe: &Recipe,
    ffmpeg: &Ffmpeg,
    progress: &(dyn Fn(f32) + Send + Sync),
) -> Result<Rendition, MediaRejection> {
    Ok(make(path, info, recipe, ffmpeg, progress, false)?.gif)
}

/// [`make_from_video_with_progress`], and an MP4 of the same pictures (same window, crop, speed,
/// direction and caption, at the GIF's size and the recipe's rate, before the GIF's palette):
/// the GIF's MP4 rendition, better than one made of the GIF.
///
/// # Errors
/// As [`make_from_video`]; `Internal` when the MP4 cannot be encoded.
pub fn make_from_video_and_mp4(
    path: &Path,
    info: &VideoInfo,
    recipe: &Recipe,
    ffmpeg: &Ffmpeg,
    progress: &(dyn Fn(f32) + Send + Sync),
) -> Result<Made, MediaRejection> {
    make(path, info, recipe, ffmpeg, progress, true)
}

fn make(
    path: &Path,
    info: &VideoInfo,
    recipe: &Recipe,
    ffmpeg: &Ffmpeg,
    progress: &(dyn Fn(f32) + Send + Sync),
    with_mp4: bool,
) -> Result<Made, MediaRejection> {
    recipe.check().map_err(MediaRejection::invalid)?;
    if recipe.start_ms >= info.duration_ms {
        return Err(MediaRejection::invalid("The start is past the end of the video."));
    }
    let end = recipe.end_ms.unwrap_or(info.duration_ms).min(info.duration_ms).min(recipe.start_ms + MAX_WINDOW_MS);
    let crop = recipe.crop.unwrap_or(Crop { x: 0, y: 0, width: info.width, height: info.height });
    if crop.x.saturating_add(crop.width) > info.width || crop.y.saturating_add(crop.height) > info.height {
        return Err(MediaRejection::invalid("The crop reaches outside the picture."));
    }
    // The widest a video GIF gets without a width asked: 480.
    let size = output_size(crop.width, crop.height, Some(recipe.width.unwrap_or(480)));
    let fps = recipe.fps.unwrap_or(DEFAULT_VIDEO_FPS);
    // Each output frame moves the source on by `speed / fps` seconds.
    let rate = f64::from(fps) / f64::from(recipe.speed);
    // `accurate_rnd`: swscale's fast YUV to RGBA path rounds each pixel a little differently
    // (a flat blue came out as two colours a level apart, neither the one the RGB path gives),
    // which costs the palette colours and its flat areas their exactness.
    let filters = format!(
        "fps={rate:.4},crop={}:{}:{}:{},scale={}:{}:flags=lanczos+accurate_rnd,format=rgba",
        crop.width, crop.height, crop.x, crop.y, size.0, size.1
    );
    let args = decode_args(path, recipe.start_ms, end, &filters);
    let frame_bytes = (size.0 * size.1 * 4) as usize;
    let mut out = Assembler::new(recipe, size, true)?;
    if with_mp4 {
        out = out.with_mp4(ffmpeg, fps)?;
    }
    let mut pace = Pace::new(fps);
    // Frame by frame off the pipe: memory holds one picture (and the encoder's own bound).
    let mut run = Sandboxed::start(ffmpeg, ffmpeg.path(), &args)?;
    let mut picture = vec![0_u8; frame_bytes];
    let expected = (f64::from(end - recipe.start_ms) / 1000.0 * rate).ceil().max(1.0);
    let mut frames = 0_u32;
    while let Some(stdout) = run.stdout.as_mut() {
        match stdout.read_exact(&mut picture) {
            Ok(()) => {
                out.push(Some(picture.clone()), pace.next_cs())?;
                frames += 1;
                if frames.is_multiple_of(8) {
                    progress((f64::from(frames) / expected).min(1.0) as f32);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(video_err(e)),
        }
    }
    run.end(false)?;
    out.finish()
}

/// ffmpeg's arguments that decode `path` from `start_ms` to `end_ms` through `filters` into raw
/// RGBA pictures on its standard output: the file only (no other protocol), no sound or subtitles.
fn decode_args(path: &Path, start_ms: u32, end_ms: u32, filters: &str) -> Vec<String> {
    [
        "-hide_banner",
        "-nostdin",
        "-v",
        "error",
        "-protocol_whitelist",
        "file",
        "-ss",
        &format!("{:.3}", f64::from(start_ms) / 1000.0),
        "-t",
        &format!("{:.3}", f64::from(end_ms - start_ms) / 1000.0),
        "-i",
        &path.display().to_string(),
        "-map",
        "0:v:0",
        "-an",
        "-sn",
        "-dn",
        "-vf",
        filters,
        "-f",
        "rawvideo",
        "-pix_fmt",
        "rgba",
        "pipe:1",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}
