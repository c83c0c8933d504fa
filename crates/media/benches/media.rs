#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed step should stop the test loudly
#![allow(unsafe_code)] // getrusage(2) for CPU figures; see cpu_ms
//! `cargo bench`: generated, real and everyday GIFs (made by ffmpeg, gifsicle, ImageMagick and
//! Pillow where present: `everyday.rs`) through `process`, each in its own child process (for an
//! honest peak RSS), compared with `gifsicle -O2 --resize-fit-width 320`; then the renditions
//! table: the bytes a browser is served at full size (the preferred of original, medium, MP4, WebM
//! and WebP) against the original and `gifsicle -O2` of it. Names given as arguments run only the
//! cases whose names hold one of them.

#[path = "media/everyday.rs"]
mod everyday;

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gifshelf_domain::gif::{Rendition as Stored, RenditionKind, RenditionSize, Renditions};
use gifshelf_domain::media::ProcessedMedia;
use gifshelf_domain::ports::MediaProcessor;
use gifshelf_media::testing::{
    animated_thumbnail, captioned_gif, hd_scene_gif, photo_gif, pixel_art_gif, scene_gif, sprite_gif, video_gif,
};
use gifshelf_media::{probe, process, static_thumbnail, Ffmpeg, Limits, MediaService};
use image::codecs::gif::GifDecoder;
use image::{AnimationDecoder, RgbaImage};

const GIFSICLE: &str = "/usr/bin/gifsicle";

fn cpu_ms(who: i32) -> f64 {
    // SAFETY: getrusage only writes into the zeroed struct we pass.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut u) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 * 1e3 + tv.tv_usec as f64 / 1e3;
    t(u.ru_utime) + t(u.ru_stime)
}

fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|v| v.parse().unwrap_or(0)))
        })
        .unwrap_or(0)
}

/// Child mode: process one file, print the figures on one line, write the thumbnail beside it.
fn child(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let limits = Limits::default();
    let t = Instant::now();
    let p = probe(&bytes, &limits).unwrap();
    let probe_ms = t.elapsed().as_secs_f64() * 1e3;
    // The animated thumbnail alone first (what gifsicle makes), then all an upload makes.
    let c0 = cpu_ms(libc::RUSAGE_SELF);
    let anim = animated_thumbnail(&bytes, &limits).unwrap();
    let anim_cpu = cpu_ms(libc::RUSAGE_SELF) - c0;
    let c0 = cpu_ms(libc::RUSAGE_SELF);
    let t = Instant::now();
    let out = process(&bytes, &limits).unwrap();
    let wall = t.elapsed().as_secs_f64() * 1e3;
    let cpu = cpu_ms(libc::RUSAGE_SELF) - c0;
    let hwm = vm_hwm_kb();
    let t = Instant::now();
    let st = static_thumbnail(&bytes, &limits).unwrap();
    let static_ms = t.elapsed().as_secs_f64() * 1e3;
    assert_eq!(anim.bytes, out.thumbnail.bytes, "the thumbnail alone is the upload's thumbnail");
    std::fs::write(path.with_extension("ours.gif"), &out.thumbnail.bytes).unwrap();
    println!(
        "RESULT {probe_ms:.3} {cpu:.1} {wall:.1} {static_ms:.2} {} {} {hwm} {} {} {anim_cpu:.1}",
        out.thumbnail.bytes.len(),
        st.bytes.len(),
        p.frames,
        out.thumbnail.width
    );
}

// ---------- deterministic corpus: `gifshelf_media::testing`'s scenes ----------

/// Makes one generated input.
type Generator = fn() -> Vec<u8>;

// ---------- quality ----------

/// The composited frames of a GIF with the time (ms) at which each starts showing.
fn frames_of(bytes: &[u8]) -> Vec<(RgbaImage, u64)> {
    let mut t = 0u64;
    GifDecoder::new(Cursor::new(bytes))
        .unwrap()
        .into_frames()
        .map(|f| {
            let f = f.unwrap();
            let (n, d) = f.delay().numer_denom_ms();
            let start = t;
            t += u64::from(n) / u64::from(d.max(1));
            (f.into_buffer(), start)
        })
        .collect()
}

fn over_white(p: &image::Rgba<u8>) -> [f64; 3] {
    let a = f64::from(p[3]) / 255.0;
    [0, 1, 2].map(|i| f64::from(p[i]) * a + 255.0 * (1.0 - a))
}

/// Frames with the time (ms) at which each starts showing.
type Frames = Vec<(RgbaImage, u64)>;

/// The reference a thumbnail is measured against: every composited source frame (decoded one
/// at a time by the `image` crate, not by us) downscaled to `tw`×`th` with a float Lanczos3
/// filter, with the time (ms) at which it starts showing. The same reference serves our
/// thumbnail and gifsicle's.
fn reference(source: &[u8], tw: u32, th: u32) -> Frames {
    let mut t = 0u64;
    GifDecoder::new(Cursor::new(source))
        .unwrap()
        .into_frames()
        .map(|f| {
            let f = f.unwrap();
            let (n, d) = f.delay().numer_denom_ms();
            let start = t;
            t += u64::from(n) / u64::from(d.max(1));
            let src = f.into_buffer();
            let frame = if src.dimensions() == (tw, th) {
                src
            } else {
                image::imageops::resize(&src, tw, th, image::imageops::FilterType::Lanczos3)
            };
            (frame, start)
        })
        .collect()
}

/// PSNR (dB) of `test` against [`reference`] frames of its size (made once per size and kept in
/// `refs`), over white, on every source frame. Each source frame is compared with the test frame
/// on screen at its start time, so an optimiser that merges frames (gifsicle does) is still
/// measured; `None` when the test has no frames.
fn psnr(source: &[u8], refs: &mut Vec<((u32, u32), Frames)>, test: &[u8]) -> Option<f64> {
    let test = frames_of(test);
    let dims = test.first()?.0.dimensions();
    let at = match refs.iter().position(|(d, _)| *d == dims) {
        Some(i) => i,
        None => {
            refs.push((dims, reference(source, dims.0, dims.1)));
            refs.len() - 1
        }
    };
    let source = &refs[at].1;
    if source.is_empty() {
        return None;
    }
    let (mut se, mut n) = (0.0, 0.0);
    for (i, (reference, at)) in source.iter().enumerate() {
        let j = if test.len() == source.len() { i } else { test.partition_point(|(_, s)| s <= at).saturating_sub(1) };
        for (a, b) in reference.pixels().zip(test[j].0.pixels()) {
            let (a, b) = (over_white(a), over_white(b));
            for c in 0..3 {
                se += (a[c] - b[c]).powi(2);
            }
            n += 3.0;
        }
    }
    let mse = se / n;
    Some(if mse == 0.0 { 99.0 } else { 10.0 * (255.0f64 * 255.0 / mse).log10() })
}

/// One case's figures, for the summary.
struct Row {
    name: String,
    src_b: f64,
    anim_b: f64,
    probe_ms: f64,
    static_ms: f64,
    peak_mb: f64,
    cpu_x: f64,
    b_x: f64,
    psnr: Option<f64>,
    gs_psnr: Option<f64>,
}

fn verdict(label: &str, rows: &[Row], ok: impl Fn(&Row) -> Option<bool>, show: impl Fn(&Row) -> String) {
    let checked: Vec<(&Row, bool)> = rows.iter().filter_map(|r| ok(r).map(|b| (r, b))).collect();
    if checked.is_empty() {
        println!("target {label:<34} n/a (nothing to compare)");
        return;
    }
    let failed: Vec<String> =
        checked.iter().filter(|(_, b)| !b).map(|(r, _)| format!("{} {}", r.name, show(r))).collect();
    if failed.is_empty() {
        println!("target {label:<34} met ({} cases)", checked.len());
    } else {
        println!("target {label:<34} NOT met: {} of {} cases fail: {}", failed.len(), checked.len(), failed.join(", "));
    }
}

fn summary(rows: &[Row]) {
    let fin = |v: f64| v.is_finite().then_some(v);
    verdict("animated bytes <= 1.0x gifsicle", rows, |r| fin(r.b_x).map(|v| v <= 1.0), |r| format!("{:.2}x", r.b_x));
    verdict("CPU <= 0.5x gifsicle", rows, |r| fin(r.cpu_x).map(|v| v <= 0.5), |r| format!("{:.2}x", r.cpu_x));
    verdict(
        "PSNR >= gifsicle's",
        rows,
        |r| Some(r.psnr? >= r.gs_psnr? - 0.005),
        |r| format!("{:.2} < {:.2}", r.psnr.unwrap_or(f64::NAN), r.gs_psnr.unwrap_or(f64::NAN)),
    );
    verdict(
        "peak memory < 64 MB (uploads <= 10 MB)",
        rows,
        |r| (r.src_b <= 11e6).then_some(r.peak_mb < 64.0),
        |r| format!("{:.1} MB", r.peak_mb),
    );
    verdict(
        "thumbnail never larger than its GIF",
        rows,
        |r| Some(r.anim_b <= r.src_b),
        |r| format!("{:.2}x", r.anim_b / r.src_b),
    );
    verdict("static thumbnail < 30 ms", rows, |r| Some(r.static_ms < 30.0), |r| format!("{:.1} ms", r.static_ms));
    verdict("probe < 10 ms", rows, |r| Some(r.probe_ms < 10.0), |r| format!("{:.2} ms", r.probe_ms));
}

// ---------- renditions: what a browser is served ----------

/// The full-size file a browser plays: the preferred of the original, medium (kept only when at
/// least 10 % smaller, as the app does), MP4 and WebM.
fn best_full(p: &ProcessedMedia) -> (RenditionKind, usize) {
    let original = p.renditions.iter().find(|(k, _)| *k == RenditionKind::Original).map_or(0, |(_, r)| r.bytes.len());
    let kept = p.renditions.iter().filter(|(k, r)| {
        k.size() == RenditionSize::Full && (*k != RenditionKind::Medium || r.bytes.len() * 10 <= original * 9)
    });
    let set = Renditions::new(kept.map(|(kind, r)| Stored {
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
    .with_preferred(p.opaque, p.frames > 1);
    let best =
        set.iter().find(|r| r.preferred).map_or((RenditionKind::Original, original), |r| (r.kind, r.size as usize));
    best
}

fn size_of(p: &ProcessedMedia, kind: RenditionKind) -> usize {
    p.renditions.iter().find(|(k, _)| *k == kind).map_or(0, |(_, r)| r.bytes.len())
}

/// One case of the renditions table.
struct Served {
    name: String,
    photo: bool,
    opaque: bool,
    original: usize,
    best: usize,
    gifsicle: Option<usize>,
}

/// The renditions table: every case through `MediaService` with all kinds, its full-size files
/// and `gifsicle -O2` of the original. `photo` marks the photo-like cases of the target.
fn renditions_table(cases: &[(String, PathBuf, bool)], dir: &Path, has_gifsicle: bool) {
    println!();
    let ffmpeg = match Ffmpeg::detect(None) {
        Ok(f) => f,
        Err(why) => {
            println!("renditions: skipped ({why})");
            return;
        }
    };
    let service = MediaService::new(Limits::default(), 1, std::time::Duration::from_secs(60)).with_video(Some(ffmpeg));
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    println!(
        "{:<26} {:>5} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>9} {:>9} {:>10} {:>9} {:>8}",
        "case",
        "photo",
        "opaque",
        "orig B",
        "medium B",
        "mp4 B",
        "webm B",
        "webp B",
        "secs",
        "best",
        "best B",
        "best/orig",
        "gs -O2 B",
        "gs/orig"
    );
    let rows: Vec<Served> = cases
        .iter()
        .filter_map(|(name, path, photo)| serve(&rt, &service, name, path, *photo, dir, has_gifsicle))
        .collect();
    println!("best = the preferred full-size file (original, medium if >= 10 % smaller, mp4, webm, webp; videos only when opaque, the animated WebP with its alpha for any animation); secs = every kind in one process call; gs = gifsicle -O2 of the original");
    renditions_targets(&rows);
}

/// One case of the renditions table, printed as its row.
fn serve(
    rt: &tokio::runtime::Runtime,
    service: &MediaService,
    name: &str,
    path: &Path,
    photo: bool,
    dir: &Path,
    has_gifsicle: bool,
) -> Option<Served> {
    let bytes = std::fs::read(path).unwrap();
    let t = Instant::now();
    let p = rt.block_on(service.process(std::sync::Arc::new(bytes.clone()), &RenditionKind::ALL));
    let secs = t.elapsed().as_secs_f64();
    let p = match p {
        Ok(p) => p,
        Err(e) => {
            println!("{name}: {e:?}");
            return None;
        }
    };
    let (best_kind, best) = best_full(&p);
    let gifsicle = has_gifsicle
        .then(|| {
            let out = dir.join(format!("{name}.O2.gif"));
            let ok = Command::new(GIFSICLE).arg("-O2").arg(path).arg("-o").arg(&out).status().ok()?.success();
            ok.then(|| std::fs::metadata(&out).ok().map(|m| m.len() as usize)).flatten()
        })
        .flatten();
    let ratio = |v: usize| v as f64 / bytes.len() as f64;
    println!(
        "{:<26} {:>5} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7.1} {:>9} {:>9} {:>10.3} {:>9} {:>8}",
        name,
        if photo { "yes" } else { "no" },
        if p.opaque { "yes" } else { "no" },
        bytes.len(),
        size_of(&p, RenditionKind::Medium),
        size_of(&p, RenditionKind::Mp4),
        size_of(&p, RenditionKind::Webm),
        size_of(&p, RenditionKind::Webp),
        secs,
        best_kind.as_str(),
        best,
        ratio(best),
        gifsicle.map_or_else(|| "n/a".into(), |g| g.to_string()),
        gifsicle.map_or_else(|| "n/a".into(), |g| format!("{:.3}", ratio(g))),
    );
    Some(Served { name: name.to_owned(), photo, opaque: p.opaque, original: bytes.len(), best, gifsicle })
}

/// Whether the renditions table meets its targets.
fn renditions_targets(rows: &[Served]) {
    // A transparent GIF is never served as a video (MP4 has no alpha) but as its animated WebP
    // when that is smaller: each has its own target.
    let photo: Vec<&Served> = rows.iter().filter(|r| r.photo && r.opaque).collect();
    ratio_target("best <= 0.35x orig (transparent photo-like)", rows.iter().filter(|r| r.photo && !r.opaque), 0.35);
    let failed: Vec<String> = photo
        .iter()
        .filter(|r| r.best * 4 > r.original)
        .map(|r| format!("{} {:.2}x", r.name, r.best as f64 / r.original as f64))
        .collect();
    match (photo.len(), failed.is_empty()) {
        (0, _) => println!("target {:<34} n/a (no photo-like case)", "best <= 0.25x orig (opaque photo-like)"),
        (n, true) => println!("target {:<34} met ({n} cases)", "best <= 0.25x orig (opaque photo-like)"),
        (n, false) => println!(
            "target {:<34} NOT met: {} of {n} fail: {}",
            "best <= 0.25x orig (opaque photo-like)",
            failed.len(),
            failed.join(", ")
        ),
    }
    let larger: Vec<&str> = rows.iter().filter(|r| r.best > r.original).map(|r| r.name.as_str()).collect();
    if larger.is_empty() {
        println!("target {:<34} met ({} cases)", "never larger than the original GIF", rows.len());
    } else {
        println!("target {:<34} NOT met: {}", "never larger than the original GIF", larger.join(", "));
    }
    let beat: usize = rows.iter().filter(|r| r.gifsicle.is_some_and(|g| r.best <= g)).count();
    println!("note: best <= gifsicle -O2 in {beat} of {} cases", rows.len());
}

/// Prints whether every one of `rows` is served at most `max` times its original's bytes.
fn ratio_target<'a>(target: &str, rows: impl Iterator<Item = &'a Served>, max: f64) {
    let rows: Vec<&Served> = rows.collect();
    let ratio = |r: &Served| r.best as f64 / r.original as f64;
    let failed: Vec<String> =
        rows.iter().filter(|r| ratio(r) > max).map(|r| format!("{} {:.2}x", r.name, ratio(r))).collect();
    let figures: Vec<String> = rows.iter().map(|r| format!("{} {:.3}x", r.name, ratio(r))).collect();
    match (rows.len(), failed.is_empty()) {
        (0, _) => println!("target {target:<34} n/a (no such case)"),
        (n, true) => println!("target {target:<34} met ({n} cases: {})", figures.join(", ")),
        (n, false) => println!("target {target:<34} NOT met: {} of {n} fail: {}", failed.len(), failed.join(", ")),
    }
}

/// The generated cases (written once into `dir`) and the real-world ones, those `wanted`.
fn bench_cases(dir: &Path, wanted: &dyn Fn(&str) -> bool) -> Vec<(String, PathBuf)> {
    let mut cases: Vec<(String, PathBuf)> = Vec::new();
    let gens: [(&str, Generator); 5] = [
        ("gen_100x100_10f", || scene_gif(100, 100, 10, 30)),
        ("gen_480x270_60f", || scene_gif(480, 270, 60, 30)),
        ("gen_video_480x270_60f", || video_gif(480, 270, 60)),
        ("gen_800x600_120f_small", || sprite_gif(800, 600, 120)),
        ("gen_1280x720_200f", || hd_scene_gif(200)),
    ];
    for (name, g) in gens {
        if !wanted(name) {
            continue;
        }
        let path = dir.join(format!("{name}.gif"));
        if !path.exists() {
            std::fs::write(&path, g()).unwrap();
        }
        cases.push((name.to_string(), path));
    }
    // The real-world GIFs kept in the repository, then the optional extra one (its licence keeps it
    // out of the repository) from GIFSHELF_CORPUS or the shared corpus beside the checkout.
    let in_repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/corpus");
    for name in ["moon_impact.gif", "sample_big.gif"] {
        if wanted(name) {
            cases.push((name.trim_end_matches(".gif").to_string(), in_repo.join(name)));
        }
    }
    let extra = std::env::var_os("GIFSHELF_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join("rainbow.gif");
    if extra.exists() {
        if wanted("rainbow.gif") {
            cases.push(("rainbow".to_string(), extra));
        }
    } else {
        println!("note: the optional extra GIF {} is absent; rainbow skipped", extra.display());
    }
    // Everyday GIFs of other encoders; gifsicle's re-encode the generated 480×270 scene.
    let scene = dir.join("gen_480x270_60f.gif");
    if !scene.exists() {
        std::fs::write(&scene, scene_gif(480, 270, 60, 30)).unwrap();
    }
    cases.extend(everyday::everyday_cases(dir, &scene, wanted));
    cases
}

fn print_header() {
    println!(
        "{:<24} {:>9} {:>5} {:>5} {:>8} {:>8} {:>8} {:>8} {:>7} {:>9} {:>8} {:>8} | {:>9} {:>9} {:>6} {:>6} | {:>6} {:>6}",
        "case",
        "src B",
        "fr",
        "tw",
        "probe ms",
        "cpu ms",
        "anim cpu",
        "wall ms",
        "peak MB",
        "anim B",
        "still B",
        "still ms",
        "gs cpu ms",
        "gs B",
        "cpu x",
        "B x",
        "PSNR",
        "gsPSNR"
    );
}

/// One case through our pipeline (in a child process) and through gifsicle, printed as its row.
fn measure(exe: &Path, dir: &Path, name: &str, path: &Path, has_gifsicle: bool) -> Option<Row> {
    let db = |q: Option<f64>| q.map_or_else(|| "n/a".to_string(), |v| format!("{v:.2}"));
    let src_len = std::fs::metadata(path).unwrap().len();
    // Our run, in a child process; work on a copy path for outputs.
    let work = dir.join(format!("{name}.in.gif"));
    if !work.exists() {
        std::fs::copy(path, &work).unwrap();
    }
    let out = Command::new(exe).arg("--child").arg(&work).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(line) = text.lines().find(|l| l.starts_with("RESULT ")) else {
        println!("{name}: child failed: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    };
    let v: Vec<f64> = line[7..].split_whitespace().map(|x| x.parse().unwrap()).collect();
    let (probe_ms, cpu, wall, static_ms, anim_b, still_b, hwm, frames, tw, anim_cpu) =
        (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
    let ours = std::fs::read(work.with_extension("ours.gif")).unwrap();
    let source = std::fs::read(path).unwrap();
    let mut refs = Vec::new();
    let q_ours = psnr(&source, &mut refs, &ours);
    let (mut gs_cpu, mut gs_b, mut q_gs) = (f64::NAN, f64::NAN, None);
    if has_gifsicle {
        let gs_out = dir.join(format!("{name}.gifsicle.gif"));
        let c0 = cpu_ms(libc::RUSAGE_CHILDREN);
        let st = Command::new(GIFSICLE)
            .args(["-O2", "--resize-fit-width", "320"])
            .arg(path)
            .arg("-o")
            .arg(&gs_out)
            .status()
            .unwrap();
        gs_cpu = cpu_ms(libc::RUSAGE_CHILDREN) - c0;
        if st.success() {
            let gb = std::fs::read(&gs_out).unwrap();
            gs_b = gb.len() as f64;
            q_gs = psnr(&source, &mut refs, &gb);
        }
    }
    println!(
        "{:<24} {:>9} {:>5} {:>5} {:>8.3} {:>8.1} {:>8.1} {:>8.1} {:>7.1} {:>9} {:>8} {:>8.2} | {:>9.1} {:>9} {:>6.2} {:>6.2} | {:>6} {:>6}",
        name, src_len, frames, tw, probe_ms, cpu, anim_cpu, wall, hwm / 1024.0, anim_b, still_b, static_ms,
        gs_cpu, gs_b, anim_cpu / gs_cpu, anim_b / gs_b, db(q_ours), db(q_gs)
    );
    Some(Row {
        name: name.to_owned(),
        src_b: src_len as f64,
        anim_b,
        probe_ms,
        static_ms,
        peak_mb: hwm / 1024.0,
        cpu_x: anim_cpu / gs_cpu,
        b_x: anim_b / gs_b,
        psnr: q_ours,
        gs_psnr: q_gs,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(Path::new(&args[i + 1]));
        return;
    }
    // `cargo bench -p gifshelf-media --bench media -- NAME…`: only the cases whose names contain
    // one of the words, and no renditions table (cargo adds `--bench` itself).
    let filters: Vec<&str> = args.iter().skip(1).filter(|a| !a.starts_with("--")).map(String::as_str).collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    // Under the workspace's target directory (cargo runs a bench from its package's folder).
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"), PathBuf::from);
    let dir = target.join("bench-corpus");
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = bench_cases(&dir, &wanted);
    let has_gifsicle = Path::new(GIFSICLE).exists();
    if !has_gifsicle {
        println!("note: {GIFSICLE} is absent; gifsicle comparison skipped");
    }
    let exe = std::env::current_exe().unwrap();
    print_header();
    let rows: Vec<Row> =
        cases.iter().filter_map(|(name, path)| measure(&exe, &dir, name, path, has_gifsicle)).collect();
    println!("cpu ms = an upload's processing (animated thumbnail, still and fingerprint from one decode); anim cpu = the animated thumbnail alone, what gifsicle makes; wall ms = the upload's; cpu x = anim cpu / gifsicle CPU; B x = our animated bytes / gifsicle bytes; PSNR in dB vs a float Lanczos3 downscale of every composited source frame (over white), the same reference for both; peak MB = child VmHWM including the input bytes; frames are paired by display time when the frame counts differ; gen_video = full motion (every pixel changes in every frame).");
    summary(&rows);

    // The renditions table: the same cases, plus a photo-like, a pixel-art and a transparent one
    // (a sticker: a moving scene with a transparent field around it).
    let extra: [(&str, Generator); 3] = [
        ("gen_photo_480x270_48f", || photo_gif(480, 270, 48)),
        ("gen_pixel_art_320x240_40f", || pixel_art_gif(320, 240, 40)),
        ("gen_sticker_400x300_24f_alpha", || captioned_gif(400, 300, 24, None, true)),
    ];
    for (name, g) in extra.into_iter().filter(|(name, _)| wanted(name)) {
        let path = dir.join(format!("{name}.gif"));
        if !path.exists() {
            std::fs::write(&path, g()).unwrap();
        }
        cases.push((name.to_string(), path));
    }
    // Photo-like: the photographic and gradient corpus files and the generated photo.
    let photo_like = ["moon_impact", "rainbow", "gen_photo_480x270_48f"];
    let cases: Vec<(String, PathBuf, bool)> =
        cases.into_iter().map(|(n, p)| (n.clone(), p, photo_like.contains(&n.as_str()))).collect();
    renditions_table(&cases, &dir, has_gifsicle);
}
