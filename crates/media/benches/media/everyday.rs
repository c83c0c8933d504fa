//! Everyday GIFs made by other encoders than ours, written once into the bench folder: what people
//! upload is made by ffmpeg, gifsicle, ImageMagick or Pillow, each with its own palettes, dithering
//! and frame layout. A case whose tool is absent is skipped with a note; none is needed by CI.

use std::path::{Path, PathBuf};
use std::process::Command;

use image::{Rgba, RgbaImage};

/// A 480×270 scene of discs moving over a flat background, frame `k` of `n`.
fn circles_frame(k: u32, n: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(480, 270, Rgba([244, 241, 234, 255]));
    let discs: [(f32, f32, f32, [u8; 3]); 3] =
        [(60.0, 135.0, 40.0, [211, 51, 51]), (240.0, 80.0, 28.0, [40, 110, 200]), (380.0, 190.0, 34.0, [250, 190, 30])];
    let t = k as f32 / n as f32 * std::f32::consts::TAU;
    for (i, (cx, cy, r, rgb)) in discs.into_iter().enumerate() {
        let (cx, cy) = (cx + 50.0 * (t + i as f32).sin(), cy + 30.0 * (2.0 * t + i as f32).cos());
        for y in 0..270 {
            for x in 0..480 {
                // Anti-aliased edge: a pixel's coverage over one pixel of distance.
                let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
                let cover = (r + 0.5 - d).clamp(0.0, 1.0);
                if cover > 0.0 {
                    let px = img.get_pixel_mut(x, y);
                    for c in 0..3 {
                        px[c] = (f32::from(px[c]) * (1.0 - cover) + f32::from(rgb[c]) * cover).round() as u8;
                    }
                }
            }
        }
    }
    img
}

/// Runs a tool, answering whether it made `out`; a missing tool is a note, a failing one too.
fn made(cmd: &mut Command, out: &Path, what: &str) -> bool {
    match cmd.output() {
        Ok(o) if o.status.success() && out.exists() => true,
        Ok(o) => {
            println!("note: {what} failed ({}); its case skipped", String::from_utf8_lossy(&o.stderr).trim());
            false
        }
        Err(e) => {
            println!("note: {what} is absent ({e}); its case skipped");
            false
        }
    }
}

fn ffmpeg_gif(out: &Path, source: &str, filter: &str) -> Command {
    let mut cmd = Command::new("ffmpeg");
    // Three seconds of the source, bounded at the input: palettegen reads its input to the end.
    cmd.args(["-v", "error", "-y", "-f", "lavfi", "-t", "3", "-i", source, "-filter_complex", filter]).arg(out);
    cmd
}

/// Writes one case's GIF to the path it is given, answering whether it did.
type Maker<'a> = Box<dyn Fn(&Path) -> bool + 'a>;

/// The tools' recipes, by case name; the discs' frames are PNGs in `frames_dir`.
fn makers<'a>(frames_dir: &'a Path, scene: &'a Path) -> Vec<(&'static str, Maker<'a>)> {
    vec![
        // ffmpeg's palettegen + paletteuse (the guides' recipe): full-motion video frames, dithered.
        (
            "ff_fullmotion_480x270",
            Box::new(|out| {
                let f = "[0]split[a][b];[a]palettegen[p];[b][p]paletteuse";
                made(&mut ffmpeg_gif(out, "mandelbrot=s=480x270:r=15", f), out, "ffmpeg")
            }),
        ),
        // A palette of its own per frame (`stats_mode=single`, `new=1`): local colour tables.
        (
            "ff_localpalettes_480x270",
            Box::new(|out| {
                let f = "[0]split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1";
                made(&mut ffmpeg_gif(out, "testsrc2=s=480x270:r=15", f), out, "ffmpeg")
            }),
        ),
        // A screen-like picture with digits that count, no dithering.
        (
            "ff_screen_640x360",
            Box::new(|out| {
                let f = "[0]split[a][b];[a]palettegen=max_colors=64[p];[b][p]paletteuse=dither=none";
                made(&mut ffmpeg_gif(out, "testsrc=s=640x360:r=10", f), out, "ffmpeg")
            }),
        ),
        // gifsicle's own output: ordered dithering to 32 colours, and its lossy LZW.
        (
            "gs_dithered_480x270",
            Box::new(move |out| {
                let mut cmd = Command::new("gifsicle");
                cmd.args(["--colors", "32", "--dither=ordered", "-O2"]).arg(scene).arg("-o").arg(out);
                made(&mut cmd, out, "gifsicle")
            }),
        ),
        (
            "gs_lossy_480x270",
            Box::new(move |out| {
                let mut cmd = Command::new("gifsicle");
                cmd.args(["-O3", "--lossy=80"]).arg(scene).arg("-o").arg(out);
                made(&mut cmd, out, "gifsicle")
            }),
        ),
        // Moving discs over a flat background by ImageMagick (its quantizer and layer optimizer)...
        (
            "im_circles_480x270",
            Box::new(move |out| {
                let mut cmd = Command::new("convert");
                cmd.args(["-delay", "5", "-loop", "0"]).arg(frames_dir.join("f*.png"));
                cmd.args(["-layers", "Optimize"]).arg(out);
                made(&mut cmd, out, "ImageMagick's convert")
            }),
        ),
        // ...and by Pillow (its adaptive palette, optimize on).
        (
            "pil_circles_480x270",
            Box::new(move |out| {
                let script = "import sys,glob\nfrom PIL import Image\nfs=[Image.open(p).convert('RGB') for p in sorted(glob.glob(sys.argv[1]+'/f*.png'))]\nfs[0].save(sys.argv[2],save_all=True,append_images=fs[1:],duration=50,loop=0,optimize=True)";
                let mut cmd = Command::new("python3");
                cmd.arg("-c").arg(script).arg(frames_dir).arg(out);
                made(&mut cmd, out, "Python with Pillow")
            }),
        ),
    ]
}

/// The everyday cases (name, path), made once into `dir`; `scene` is a generated GIF the gifsicle
/// cases re-encode.
pub fn everyday_cases(dir: &Path, scene: &Path, wanted: &dyn Fn(&str) -> bool) -> Vec<(String, PathBuf)> {
    let frames_dir = dir.join("circles-frames");
    let mut cases = Vec::new();
    for (name, make) in makers(&frames_dir, scene).into_iter().filter(|(name, _)| wanted(name)) {
        let path = dir.join(format!("{name}.gif"));
        if name.contains("circles") && !frames_dir.join("f39.png").exists() {
            std::fs::create_dir_all(&frames_dir).unwrap();
            for k in 0..40 {
                circles_frame(k, 40).save(frames_dir.join(format!("f{k:02}.png"))).unwrap();
            }
        }
        if path.exists() || make(&path) {
            cases.push((name.to_string(), path));
        }
    }
    cases
}
