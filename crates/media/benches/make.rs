#![allow(clippy::unwrap_used, clippy::expect_used)] // bench code: a failed step should stop loudly
#![allow(unsafe_code)] // getrusage(2) for the children's peak memory
//! `cargo xtask bench make`: the maker against its anchors, measured in the same run. Three clips
//! made here by `ffmpeg` (a screen-like test pattern with digits and a moving cursor, a camera-like
//! clip with grain and motion, a flat-colour animation), each made into a GIF at 480 px, 15 fps,
//! 6 s: by gifshelf's maker, by `ffmpeg` with `palettegen` + `paletteuse` (the recipe most guides
//! give) and by gifski (the crates.io crate, a dev-dependency of this bench only, fed the frames
//! ffmpeg scaled). For each: bytes, SSIM against
//! the source frames at the same size and rate (ffmpeg's `ssim` filter), wall time and the peak
//! memory of the processes involved. Targets: bytes ≤ 0.8× ffmpeg's at equal or higher SSIM; SSIM
//! within 0.01 of gifski's at ≤ 0.7× its bytes; time ≤ 1.0× ffmpeg's; then a 60 s 1080p source's
//! peak memory (< 256 MB).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gifshelf_media::maker::{make_from_video, probe_video, Recipe};
use gifshelf_media::Ffmpeg;

fn ffmpeg_path() -> PathBuf {
    std::env::var_os("GIFSHELF_FFMPEG").map_or_else(|| PathBuf::from("ffmpeg"), PathBuf::from)
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The peak resident memory of the finished children so far, in MB.
fn children_peak_mb() -> f64 {
    // SAFETY: getrusage only writes into the zeroed struct we pass.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    u.ru_maxrss as f64 / 1024.0
}

fn own_peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .map_or(0.0, |kb: f64| kb / 1024.0)
}

/// The three clips, 8 s each, 1280×720 at 30 fps, H.264. The cursor and the box are overlays:
/// `overlay` moves them every frame, where `drawbox` (ffmpeg 5) reads its position once.
fn clips(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let sources = [
        (
            "screen",
            "testsrc=size=1280x720:rate=30[a];color=c=black:size=18x26:rate=30[c];\
             [a][c]overlay=x='mod(t*240,1200)':y='200+80*sin(t*2)'[out0]",
        ),
        ("camera", "testsrc2=size=1280x720:rate=30,noise=alls=18:allf=t,hue=H=t*0.4"),
        (
            "flat",
            "color=c=0x3366cc:size=1280x720:rate=30[a];color=c=0xffcc00:size=160x160:rate=30[b];\
             [a][b]overlay=x='100+t*120':y='300+100*sin(t*3)'[out0]",
        ),
    ];
    sources
        .iter()
        .map(|(name, graph)| {
            let path = dir.join(format!("{name}.mp4"));
            run(Command::new(ffmpeg_path())
                .args(["-v", "error", "-y", "-f", "lavfi", "-i", graph, "-t", "8", "-c:v", "libx264", "-crf", "18"])
                .args(["-pix_fmt", "yuv420p"])
                .arg(&path));
            (*name, path)
        })
        .collect()
}

/// ffmpeg's SSIM ("All") of a GIF against the source's frames at 480 px and 15 fps, seconds 1 to 7.
fn ssim(gif: &Path, source: &Path) -> f64 {
    let said = run(Command::new(ffmpeg_path())
        .args(["-v", "info", "-nostats", "-i"])
        .arg(gif)
        .args(["-ss", "1", "-t", "6", "-i"])
        .arg(source)
        .args([
            "-lavfi",
            "[1:v]fps=15,scale=480:-2:flags=lanczos,format=rgb24,setpts=PTS-STARTPTS[ref];[0:v]fps=15,format=rgb24,setpts=PTS-STARTPTS[gif];[gif][ref]ssim",
            "-f",
            "null",
            "-",
        ]));
    said.lines()
        .rev()
        .filter_map(|l| l.split("All:").nth(1))
        .find_map(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

struct Figures {
    bytes: u64,
    ssim: f64,
    wall_ms: f64,
}

fn ours(ffmpeg: &Ffmpeg, source: &Path, out: &Path) -> Figures {
    let t = Instant::now();
    let info = probe_video(source, ffmpeg).unwrap();
    let recipe = Recipe { start_ms: 1000, end_ms: Some(7000), width: Some(480), fps: Some(15), ..Recipe::copy() };
    let gif = make_from_video(source, &info, &recipe, ffmpeg).unwrap();
    let wall_ms = t.elapsed().as_secs_f64() * 1e3;
    std::fs::write(out, &gif.bytes).unwrap();
    Figures { bytes: gif.bytes.len() as u64, ssim: ssim(out, source), wall_ms }
}

fn ffmpeg_palette(source: &Path, out: &Path) -> Figures {
    let t = Instant::now();
    run(Command::new(ffmpeg_path())
        .args(["-v", "error", "-y", "-ss", "1", "-t", "6", "-i"])
        .arg(source)
        .args(["-vf", "fps=15,scale=480:-1:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse"])
        .arg(out));
    let wall_ms = t.elapsed().as_secs_f64() * 1e3;
    Figures { bytes: std::fs::metadata(out).unwrap().len(), ssim: ssim(out, source), wall_ms }
}

/// The source's window as ffmpeg scales it for the anchors (480 px wide, 15 fps, RGBA), frame by
/// frame.
fn anchor_frames(source: &Path) -> (usize, usize, Vec<Vec<u8>>) {
    let out = Command::new(ffmpeg_path())
        .args(["-v", "error", "-ss", "1", "-t", "6", "-i"])
        .arg(source)
        .args(["-vf", "fps=15,scale=480:-2:flags=lanczos,format=rgba", "-f", "rawvideo", "pipe:1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let probe = Command::new(ffmpeg_path())
        .args(["-v", "error", "-i"])
        .arg(source)
        .args(["-vf", "scale=480:-2:flags=lanczos", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"])
        .output()
        .unwrap();
    let height = probe.stdout.len() / (480 * 4);
    let frames = out.stdout.chunks_exact(480 * height * 4).map(<[u8]>::to_vec).collect();
    (480, height, frames)
}

/// gifski (the crate, at its default quality 90) on the same frames ffmpeg scaled: the quality
/// anchor. It runs in this process only: gifshelf itself never links it.
fn gifski(source: &Path, out: &Path) -> Figures {
    let t = Instant::now();
    let (width, height, frames) = anchor_frames(source);
    let settings =
        gifski::Settings { width: None, height: None, quality: 90, fast: false, repeat: gifski::Repeat::Infinite };
    let (collector, writer) = gifski::new(settings).unwrap();
    let mut bytes = Vec::new();
    std::thread::scope(|scope| {
        let writing = scope.spawn(|| writer.write(&mut bytes, &mut gifski::progress::NoProgress {}));
        for (i, rgba) in frames.into_iter().enumerate() {
            let pixels: Vec<rgb::RGBA8> =
                rgba.chunks_exact(4).map(|p| rgb::RGBA8::new(p[0], p[1], p[2], p[3])).collect();
            collector.add_frame_rgba(i, imgref::ImgVec::new(pixels, width, height), i as f64 / 15.0).unwrap();
        }
        drop(collector);
        writing.join().unwrap().unwrap();
    });
    let wall_ms = t.elapsed().as_secs_f64() * 1e3;
    std::fs::write(out, &bytes).unwrap();
    Figures { bytes: bytes.len() as u64, ssim: ssim(out, source), wall_ms }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--long") {
        long(Path::new(&args[at + 1]));
        return;
    }
    let Ok(ffmpeg) = Ffmpeg::detect(Some(&ffmpeg_path())) else {
        println!("make: ffmpeg is not installed: nothing measured");
        return;
    };
    // GIFSHELF_BENCH_KEEP=1 keeps the clips and the GIFs to look at.
    let mut guard = Some(tempfile::tempdir().unwrap());
    let dir_path = guard.as_ref().unwrap().path().to_owned();
    if std::env::var_os("GIFSHELF_BENCH_KEEP").is_some() {
        let _ = guard.take().map(tempfile::TempDir::keep);
        println!("keeping the clips and GIFs in {}", dir_path.display());
    }
    let dir = dir_path.as_path();
    println!("make: 480 px, 15 fps, 6 s of each 1280×720 clip. Targets: bytes ≤ 0.8× ffmpeg at SSIM ≥ ffmpeg's; SSIM ≥ gifski − 0.01 at ≤ 0.7× its bytes; time ≤ 1.0× ffmpeg");
    println!(
        "{:<8} {:>28} {:>28} {:>28} {:>10} {:>10} {:>10} {:>10}",
        "clip",
        "gifshelf KB / SSIM / ms",
        "ffmpeg KB / SSIM / ms",
        "gifski KB / SSIM / ms",
        "bytes×ff",
        "time×ff",
        "bytes×ski",
        "SSIM−ski"
    );
    let show = |f: &Figures| format!("{:>8.0} / {:.4} / {:>6.0}", f.bytes as f64 / 1024.0, f.ssim, f.wall_ms);
    // `--clip NAME` measures that clip only (and not the 60 s source).
    let only = args.iter().position(|a| a == "--clip").and_then(|at| args.get(at + 1)).cloned();
    for (name, source) in clips(dir) {
        if only.as_deref().is_some_and(|only| only != name) {
            continue;
        }
        let ours = ours(&ffmpeg, &source, &dir.join(format!("{name}-gifshelf.gif")));
        let anchor = ffmpeg_palette(&source, &dir.join(format!("{name}-ffmpeg.gif")));
        let ski = gifski(&source, &dir.join(format!("{name}-gifski.gif")));
        println!(
            "{name:<8} {:>28} {:>28} {:>28} {:>10.2} {:>10.2} {:>10.2} {:>+10.4}",
            show(&ours),
            show(&anchor),
            show(&ski),
            ours.bytes as f64 / anchor.bytes as f64,
            ours.wall_ms / anchor.wall_ms,
            ours.bytes as f64 / ski.bytes as f64,
            ours.ssim - ski.ssim,
        );
    }
    if only.is_some() {
        return;
    }
    // Peak memory: 60 s of 1080p made into the longest GIF the maker allows, in a child process of
    // its own so that its figures are the maker's only (not this bench's generator's).
    let long = dir.join("long.mp4");
    run(Command::new(ffmpeg_path())
        .args([
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=1920x1080:rate=30",
            "-t",
            "60",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
        ])
        .args(["-pix_fmt", "yuv420p"])
        .arg(&long));
    let me = std::env::current_exe().unwrap();
    let out = Command::new(me).arg("--long").arg(&long).output().unwrap();
    print!("{}", String::from_utf8_lossy(&out.stdout));
    drop(guard);
}

/// Child mode: make the 60 s 1080p source into a GIF and print the peak memory of this process and
/// of its `ffprobe` and `ffmpeg`.
fn long(path: &Path) {
    let ffmpeg = Ffmpeg::detect(Some(&ffmpeg_path())).unwrap();
    let info = probe_video(path, &ffmpeg).unwrap();
    let recipe = Recipe { width: Some(480), fps: Some(15), ..Recipe::copy() };
    let t = Instant::now();
    let gif = make_from_video(path, &info, &recipe, &ffmpeg).unwrap();
    println!(
        "60 s of 1080p → {} frames, {:.1} MB in {:.1} s; peak memory: gifshelf {:.0} MB, its ffmpeg {:.0} MB (target < 256 MB)",
        gif.frames,
        gif.bytes.len() as f64 / 1e6,
        t.elapsed().as_secs_f64(),
        own_peak_mb(),
        children_peak_mb(),
    );
}
