//! Videos of an animation (H.264 in MP4, VP9 in WebM), made by Debian's `ffmpeg` without trusting
//! it with the upload: the frames come from our own decoder (the composited canvas every sink
//! receives) and reach `ffmpeg` as raw RGBA on a pipe, so its demuxers and decoders never see the
//! uploaded bytes. The child runs under a memory limit and a wall-clock timeout, writes its outputs
//! into a private temporary folder, and one child makes every video asked for.
//!
//! Timing: raw video has a constant rate, a GIF does not. The input rate is `100 / step` frames a
//! second, `step` the greatest common divisor of the delays (hundredths of a second), and each
//! frame is written `delay / step` times; a `select` filter then keeps only the first copy of each
//! frame (and the very last copy, which ends the last frame on time), and `-fps_mode vfr` keeps
//! their timestamps. The video so holds one frame per GIF frame, shown for its own delay. A still
//! image's videos hold its one frame for a second (a one-second loop).
//!
//! Transparency: the WebPs keep the alpha; MP4 and WebM get the frames flattened onto white.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::limits::{fit_height, fit_width, Limits};
use crate::sink::{CanvasFrame, FrameSink};
use crate::{MediaRejection, Rendition};

mod child;
mod graph;
mod maker_mp4;
mod timeline;

pub(crate) use child::{drain_stderr, limit_memory, watch};

pub(crate) use maker_mp4::MakerMp4;

use graph::filter_graph;
use timeline::Timeline;
pub(crate) use timeline::{duration_ms, shown_delay};

/// The `ffmpeg` this server makes videos with, found once at start-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ffmpeg {
    path: PathBuf,
    timeout: Duration,
    memory_limit: u64,
    /// It has the `libwebp_anim` encoder (Debian's has): the animated WebPs are made.
    webp: bool,
}

impl Ffmpeg {
    /// Wall-clock budget of one `ffmpeg` run unless [`with_timeout`](Self::with_timeout) says
    /// otherwise: videos are made in the background, a long animation may take minutes.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
    /// Address-space limit of the child unless [`with_memory_limit`](Self::with_memory_limit)
    /// says otherwise (2 GiB: one child encodes every kind at once, and at 1280×720 libvpx-vp9,
    /// libx264 and libwebp_anim each hold a few hundred MB; 1.15 GB resident for 200 frames, which
    /// 1 GiB refused).
    pub const DEFAULT_MEMORY_LIMIT: u64 = 2 << 30;

    /// Runs `ffmpeg -hide_banner -encoders` once (`path`, or `ffmpeg` from `PATH` when `None`) and
    /// checks that it has the `libx264` and `libvpx-vp9` encoders; notes whether it has
    /// `libwebp_anim` and `libwebp` (without them, no WebP is made).
    ///
    /// # Errors
    /// A sentence saying why videos cannot be made (not found, failed, an encoder missing), for
    /// the server to log once.
    pub fn detect(path: Option<&Path>) -> Result<Ffmpeg, String> {
        let path = path.map_or_else(|| PathBuf::from("ffmpeg"), Path::to_path_buf);
        let shown = path.display();
        let out = Command::new(&path)
            .args(["-hide_banner", "-nostdin", "-encoders"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("Videos will not be made: ffmpeg could not be started from {shown} ({e})."))?;
        if !out.status.success() {
            return Err(format!("Videos will not be made: `{shown} -encoders` failed ({}).", out.status));
        }
        let list = String::from_utf8_lossy(&out.stdout);
        let has = |name: &str| list.lines().any(|l| l.split_whitespace().nth(1) == Some(name));
        let missing: Vec<&str> = ["libx264", "libvpx-vp9"].into_iter().filter(|e| !has(e)).collect();
        if !missing.is_empty() {
            return Err(format!(
                "Videos will not be made: the ffmpeg at {shown} lacks the {} encoder.",
                missing.join(" and ")
            ));
        }
        let webp = has("libwebp_anim") && has("libwebp");
        Ok(Ffmpeg { path, timeout: Self::DEFAULT_TIMEOUT, memory_limit: Self::DEFAULT_MEMORY_LIMIT, webp })
    }

    /// The wall-clock budget of one run; past it the child is killed and the job answered
    /// [`MediaRejection::ImageTooComplex`].
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The child's address-space limit (`RLIMIT_AS`), in bytes.
    #[must_use]
    pub fn with_memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// Whether it makes the WebPs (it has the `libwebp_anim` and `libwebp` encoders).
    pub fn makes_webp(&self) -> bool {
        self.webp
    }

    /// The executable that runs.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The `ffprobe` beside this `ffmpeg` (else the one on `PATH`).
    pub fn ffprobe(&self) -> PathBuf {
        let beside = self.path.parent().filter(|dir| !dir.as_os_str().is_empty()).map(|dir| dir.join("ffprobe"));
        beside.filter(|path| path.is_file()).unwrap_or_else(|| PathBuf::from("ffprobe"))
    }

    /// See [`with_timeout`](Self::with_timeout).
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// See [`with_memory_limit`](Self::with_memory_limit).
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }
}

/// A video rendition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Video {
    /// H.264 in MP4 at the original size (even dimensions).
    Mp4,
    /// H.264 in MP4 at most `thumb_width` wide (even dimensions).
    Mp4Small,
    /// VP9 in WebM at the original size.
    Webm,
    /// VP9 in WebM at most `thumb_width` wide.
    WebmSmall,
    /// Animated WebP (lossy, with alpha) at the original size.
    Webp,
    /// Animated WebP 200 high (lower sources keep their height).
    WebpFixedHeight,
    /// Animated WebP at most 220 wide.
    WebpTiny,
    /// Animated WebP at most 90 high.
    WebpNano,
    /// The first frame, a still WebP (lossy, with alpha) at most `POSTER_WIDTH` wide.
    Poster,
}

/// H.264 wants even dimensions in 4:2:0; rounding down keeps the video no larger than its source.
fn even(v: u32) -> u32 {
    (v & !1).max(2)
}

/// Chosen on the real-world corpus (see the crate's benchmark): at these settings photo-like
/// GIFs come out at about a tenth of their bytes with an SSIM around 0.97 to 0.99, in well under
/// a second per hundred 512×512 frames on two cores. `-preset slow` is about 15 % smaller than
/// `medium` for little time; `-tune animation` made photo-like GIFs larger.
const X264: &[&str] = &[
    "-c:v",
    "libx264",
    "-preset",
    "slow",
    "-crf",
    "25",
    "-pix_fmt",
    "yuv420p",
    "-threads",
    "2",
    "-movflags",
    "+faststart",
];

/// VP9 in constant-quality mode (`-b:v 0`); `-cpu-used 3` with row multithreading is the
/// speed/size middle: `2` barely smaller and slower, `4` about 10 % larger.
const VP9: &[&str] = &[
    "-c:v",
    "libvpx-vp9",
    "-b:v",
    "0",
    "-crf",
    "36",
    "-deadline",
    "good",
    "-cpu-used",
    "3",
    "-row-mt",
    "1",
    "-threads",
    "2",
    "-pix_fmt",
    "yuv420p",
];

/// Animated WebP through libwebp (`libwebp_anim`), lossy with its alpha plane (`yuva420p`, the
/// alpha kept lossless), looping forever. It is what a transparent animation plays as in the web
/// app when it is the smaller file, so its quality is set for bytes: 40 makes the corpus's
/// 512×512 transparent rainbow 0.33× its GIF (75, libwebp's default: 0.51×; 50: 0.39×) with no
/// visible change on its flat colours and anti-aliased edges. libwebp then merges frames that
/// differ by less than it would encode, lengthening the frame kept: the play time stays the GIF's.
/// `-compression_level 6` (the slowest) is about 5 % smaller than the default 4 for twice the
/// time, not worth it for files made for every GIF.
const WEBP: &[&str] = &["-c:v", "libwebp_anim", "-lossless", "0", "-quality", "40", "-loop", "0", "-threads", "2"];

/// The poster: one frame through libwebp's still encoder. It is looked at, not played, so it keeps
/// libwebp's default quality (75): a 640×640 photo-like frame is about 15 kB.
const POSTER: &[&str] = &["-frames:v", "1", "-c:v", "libwebp", "-lossless", "0", "-quality", "75"];

impl Video {
    fn is_mp4(self) -> bool {
        matches!(self, Video::Mp4 | Video::Mp4Small)
    }

    pub(crate) fn is_webp(self) -> bool {
        matches!(self, Video::Webp | Video::WebpFixedHeight | Video::WebpTiny | Video::WebpNano | Video::Poster)
    }

    /// The video codec; `None` for the WebPs, which are images.
    pub(crate) fn codec(self) -> Option<&'static str> {
        if self.is_mp4() {
            Some("h264")
        } else if self.is_webp() {
            None
        } else {
            Some("vp9")
        }
    }

    fn mime(self) -> &'static str {
        if self.is_mp4() {
            "video/mp4"
        } else if self.is_webp() {
            "image/webp"
        } else {
            "video/webm"
        }
    }

    /// The pixel format of the encoder's input: with alpha for the WebPs.
    fn pix_fmt(self) -> &'static str {
        if self.is_webp() {
            "yuva420p"
        } else {
            "yuv420p"
        }
    }

    fn file_name(self) -> &'static str {
        match self {
            Video::Mp4 => "full.mp4",
            Video::Mp4Small => "small.mp4",
            Video::Webm => "full.webm",
            Video::WebmSmall => "small.webm",
            Video::Webp => "full.webp",
            Video::WebpFixedHeight => "fixed_height.webp",
            Video::WebpTiny => "tiny.webp",
            Video::WebpNano => "nano.webp",
            Video::Poster => "poster.webp",
        }
    }

    /// The size of the video of a `width`×`height` animation: the small ones like the
    /// thumbnail, never upscaled; MP4 dimensions even.
    pub(crate) fn size(self, limits: &Limits, width: u32, height: u32) -> (u32, u32) {
        let (w, h) = match self {
            Video::Mp4 | Video::Webm => (width, height),
            Video::Mp4Small | Video::WebmSmall => fit_width(width, height, limits.thumb_width),
            Video::Webp => (width, height),
            Video::WebpFixedHeight => fit_height(width, height, 200),
            Video::WebpTiny => fit_width(width, height, 220),
            Video::WebpNano => fit_height(width, height, 90),
            Video::Poster => fit_width(width, height, gifshelf_domain::gif::POSTER_WIDTH),
        };
        if self.is_mp4() {
            (even(w), even(h))
        } else {
            (w, h)
        }
    }

    fn encoder_args(self) -> &'static [&'static str] {
        if self.is_mp4() {
            X264
        } else if self == Video::Poster {
            POSTER
        } else if self.is_webp() {
            WEBP
        } else {
            VP9
        }
    }
}

fn ffmpeg_err(what: impl std::fmt::Display) -> MediaRejection {
    crate::error::internal(format!("video encoding failed: {what}"))
}

/// One running `ffmpeg` making every requested video of one animation.
struct Job {
    /// Dropped (deleted) with the job.
    dir: tempfile::TempDir,
    stdin: Option<ChildStdin>,
    watchdog: Option<JoinHandle<(Option<ExitStatus>, bool)>>,
    stderr: Option<JoinHandle<String>>,
    abort: Arc<AtomicBool>,
    /// When the watchdog kills the child: writing stops then too, not only when a write fails.
    deadline: Instant,
}

impl Job {
    /// Starts `ffmpeg` on raw RGBA `src`-sized frames at `rate` (ffmpeg's `-framerate`), each
    /// kept only when `select` (a filter) says so.
    fn start(
        ffmpeg: &Ffmpeg,
        src: (u32, u32),
        rate: &str,
        select: Option<String>,
        outputs: &[(Video, (u32, u32))],
    ) -> Result<Job, MediaRejection> {
        let dir = tempfile::Builder::new().prefix("gifshelf-video-").tempdir().map_err(ffmpeg_err)?;
        let graph = filter_graph(select, outputs, src);
        let mut cmd = Command::new(ffmpeg.path());
        // Nothing of the server's environment is needed; fewer malloc arenas keep the address
        // space (what RLIMIT_AS counts) close to what is used.
        cmd.env_clear().env("MALLOC_ARENA_MAX", "2");
        cmd.args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]);
        cmd.args(["-protocol_whitelist", "pipe", "-f", "rawvideo", "-pix_fmt", "rgba", "-s"])
            .arg(format!("{}x{}", src.0, src.1))
            .arg("-framerate")
            .arg(rate)
            .args(["-i", "pipe:0"]);
        // Inline while it fits in one argument (Linux allows 128 KiB); a longer one (thousands of
        // irregular frames) goes through a file, the option newer ffmpeg releases deprecate.
        if graph.len() < 100_000 {
            cmd.arg("-filter_complex").arg(&graph);
        } else {
            let path = dir.path().join("graph.txt");
            std::fs::write(&path, &graph).map_err(ffmpeg_err)?;
            cmd.arg("-filter_complex_script").arg(path);
        }
        for (i, (video, _)) in outputs.iter().enumerate() {
            cmd.arg("-map").arg(format!("[o{i}]"));
            cmd.args(["-fps_mode", "vfr", "-an", "-sn", "-dn"]).args(video.encoder_args());
            cmd.arg(dir.path().join(video.file_name()));
        }
        cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped());
        limit_memory(&mut cmd, ffmpeg.memory_limit());
        let mut child = cmd.spawn().map_err(|e| ffmpeg_err(format!("ffmpeg could not be started ({e})")))?;
        let stdin = child.stdin.take();
        let stderr = child.stderr.take().map(drain_stderr);
        let abort = Arc::new(AtomicBool::new(false));
        let deadline = Instant::now() + ffmpeg.timeout();
        let watchdog = watch("ffmpeg", Arc::new(Mutex::new(child)), deadline, abort.clone());
        Ok(Job { dir, stdin, watchdog: Some(watchdog), stderr, abort, deadline })
    }

    /// Writes one raw frame; a failed write ends the job and says why.
    fn write(&mut self, rgba: &[u8]) -> Result<(), MediaRejection> {
        if Instant::now() >= self.deadline {
            return Err(MediaRejection::ImageTooComplex);
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(rgba),
            None => return Err(ffmpeg_err("the input was already closed")),
        };
        match written {
            Ok(()) => Ok(()),
            Err(e) => Err(self.end().err().unwrap_or_else(|| ffmpeg_err(format!("ffmpeg stopped reading ({e})")))),
        }
    }

    /// Closes the input and waits for the child; `Ok` when it finished cleanly.
    fn end(&mut self) -> Result<(), MediaRejection> {
        drop(self.stdin.take());
        let (status, late) = self.watchdog.take().and_then(|w| w.join().ok()).unwrap_or((None, false));
        let stderr = self.stderr.take().and_then(|s| s.join().ok()).unwrap_or_default();
        if late {
            return Err(MediaRejection::ImageTooComplex);
        }
        match status {
            Some(s) if s.success() => Ok(()),
            Some(s) => {
                let why = stderr.lines().last().unwrap_or("no message");
                Err(ffmpeg_err(format!("ffmpeg exited with {s}: {why}")))
            }
            None => Err(ffmpeg_err("ffmpeg could not be waited for")),
        }
    }

    fn output(&self, video: Video) -> Result<Vec<u8>, MediaRejection> {
        let bytes = std::fs::read(self.dir.path().join(video.file_name())).map_err(ffmpeg_err)?;
        if bytes.is_empty() {
            return Err(ffmpeg_err(format!("the {} file is empty", video.file_name())));
        }
        Ok(bytes)
    }
}

/// Sets the last frame's duration of an animated WebP so that one loop lasts `total_ms`.
/// `libwebp_anim` cannot know when the last frame ends (its input has no end time) and gives it
/// the mean of the others: a GIF whose last frame is long, or short, would play for the wrong
/// time. The ANMF chunks are walked as RIFF lays them out; a file not shaped so is left as it is.
/// Answers how many frames the file holds (libwebp merges frames it sees no change between, at
/// its quality); `None` when it has no animation frames (a still).
fn end_webp_on_time(bytes: &mut [u8], total_ms: u32) -> Option<u32> {
    let mut durations: Vec<(usize, u32)> = Vec::new();
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let len = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]) as usize;
        let d = at + 8 + 12;
        if &bytes[at..at + 4] == b"ANMF" && d + 3 <= bytes.len() {
            durations.push((d, u32::from(bytes[d]) | u32::from(bytes[d + 1]) << 8 | u32::from(bytes[d + 2]) << 16));
        }
        at += 8 + len + (len & 1);
    }
    if let Some((&(d, _), others)) = durations.split_last() {
        let before: u32 = others.iter().map(|&(_, ms)| ms).sum();
        let end = total_ms.saturating_sub(before).clamp(1, 0xFF_FFFF);
        bytes[d..d + 3].copy_from_slice(&end.to_le_bytes()[..3]);
    }
    u32::try_from(durations.len()).ok().filter(|&n| n > 0)
}

impl Drop for Job {
    /// A job dropped early (a decoding error, a timeout of the pipeline) kills its child.
    fn drop(&mut self) {
        if self.watchdog.is_some() {
            self.abort.store(true, Ordering::Relaxed);
            let _ = self.end();
        }
    }
}

/// How long the video of a still image plays before it loops, in hundredths of a second.
const STILL_LOOP_CS: u16 = 100;

/// Every video asked for, fed each composited frame as often as the [`Timeline`] says.
pub(crate) struct VideoSink {
    job: Job,
    timeline: Timeline,
    next: usize,
    outputs: Vec<(Video, (u32, u32))>,
}

impl VideoSink {
    /// Starts `ffmpeg` for the `videos` of a `width`×`height` animation with these `delays` (a
    /// still image, fewer than two delays, makes videos of one frame shown for a second).
    pub(crate) fn start(
        ffmpeg: &Ffmpeg,
        videos: &[Video],
        limits: &Limits,
        (width, height): (u32, u32),
        delays: &[u16],
    ) -> Result<Self, MediaRejection> {
        // A still image (one frame, or none from the still pipeline) becomes a one-second loop.
        let timeline = Timeline::new(if delays.len() < 2 { &[STILL_LOOP_CS] } else { delays });
        let outputs: Vec<(Video, (u32, u32))> = videos.iter().map(|&v| (v, v.size(limits, width, height))).collect();
        let rate = format!("100/{}", timeline.step);
        let job = Job::start(ffmpeg, (width, height), &rate, timeline.select_filter(), &outputs)?;
        Ok(VideoSink { job, timeline, next: 0, outputs })
    }

    /// Only the poster is asked for (the renditions job adding it to a GIF stored before it).
    fn poster_only(&self) -> bool {
        self.outputs.iter().all(|&(video, _)| video == Video::Poster)
    }
}

impl FrameSink for VideoSink {
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaRejection> {
        if !self.wants_more() {
            return Ok(());
        }
        let mut copies = self.timeline.writes.get(self.next).copied().unwrap_or(0);
        if self.poster_only() {
            // `ffmpeg` ends as soon as it has the frame: no copy more than the one it keeps.
            copies = copies.min(1);
        }
        self.next += 1;
        for _ in 0..copies {
            self.job.write(frame.rgba)?;
        }
        Ok(())
    }

    /// A poster alone needs the first frame only.
    fn wants_more(&self) -> bool {
        self.next == 0 || !self.poster_only()
    }

    fn finish(mut self: Box<Self>) -> Result<Vec<Rendition>, MediaRejection> {
        // A file cut short ends after its complete frames: the timeline ends there too.
        self.timeline.writes.truncate(self.next);
        self.job.end()?;
        let frames = self.timeline.kept().len() as u32;
        let duration_ms = self.timeline.duration_ms();
        self.outputs
            .iter()
            .map(|&(video, (width, height))| {
                let mut bytes = self.job.output(video)?;
                if video == Video::Poster {
                    return Ok(Rendition {
                        bytes,
                        mime: video.mime(),
                        width,
                        height,
                        frames: 1,
                        duration_ms: 0,
                        codec: None,
                    });
                }
                let frames =
                    if video.is_webp() { end_webp_on_time(&mut bytes, duration_ms).unwrap_or(1) } else { frames };
                Ok(Rendition { bytes, mime: video.mime(), width, height, frames, duration_ms, codec: video.codec() })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mp4_dimensions_are_even_and_never_upscaled() {
        let l = Limits::default();
        assert_eq!(Video::Mp4.size(&l, 101, 57), (100, 56));
        assert_eq!(Video::Webm.size(&l, 101, 57), (101, 57));
        assert_eq!(Video::Mp4Small.size(&l, 1000, 175), (320, 56));
        assert_eq!(Video::WebmSmall.size(&l, 116, 100), (116, 100));
        assert_eq!(Video::WebpTiny.size(&l, 1000, 175), (220, 39));
        assert_eq!(Video::WebpNano.size(&l, 101, 57), (101, 57));
    }
}
