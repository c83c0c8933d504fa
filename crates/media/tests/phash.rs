//! The perceptual hash against real and generated GIFs: a resized and re-encoded copy should stay
//! near its original; distinct pictures should never be near each other. Prints the figures
//! (`GIFSHELF_CORPUS=/path/to/corpus cargo test -p gifshelf-media --test phash -- --nocapture`).

use std::path::PathBuf;

use gifshelf_domain::gif::{PerceptualHash, NEAR_DUPLICATE_BITS};
use gifshelf_media::{process, Limits};
use image::codecs::gif::{GifDecoder, GifEncoder, Repeat};
use image::imageops::FilterType;
use image::{AnimationDecoder, Delay, Frame, Rgba, RgbaImage};

fn phash(bytes: &[u8]) -> PerceptualHash {
    PerceptualHash(
        process(bytes, &Limits::default()).unwrap_or_else(|e| panic!("{e}")).phash.unwrap_or_else(|| panic!("no hash")),
    )
}

fn encode(frames: Vec<RgbaImage>) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, 10);
        encoder.set_repeat(Repeat::Infinite).unwrap_or_else(|e| panic!("{e}"));
        encoder
            .encode_frames(frames.into_iter().map(|f| Frame::from_parts(f, 0, 0, Delay::from_numer_denom_ms(100, 1))))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    out
}

/// The GIF decoded, every frame resized to `percent` and encoded again (new palette, new LZW).
fn resized_copy(bytes: &[u8], percent: u32) -> Vec<u8> {
    let decoder = GifDecoder::new(std::io::Cursor::new(bytes)).unwrap_or_else(|e| panic!("{e}"));
    let frames: Vec<RgbaImage> = decoder
        .into_frames()
        .map(|f| {
            let f = f.unwrap_or_else(|e| panic!("{e}")).into_buffer();
            let (w, h) = ((f.width() * percent / 100).max(1), (f.height() * percent / 100).max(1));
            image::imageops::resize(&f, w, h, FilterType::Triangle)
        })
        .collect();
    encode(frames)
}

/// xorshift: the same "random" pictures on every run.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }

    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }

    fn colour(&mut self) -> [u8; 3] {
        let v = self.next();
        [v as u8, (v >> 8) as u8, (v >> 16) as u8]
    }
}

/// A 3-frame 120×90 animation: a gradient in a random direction and a few shapes drifting.
fn generated_gif(seed: u32) -> Vec<u8> {
    let mut rng = Rng(seed.wrapping_mul(2_654_435_761).max(1));
    let (w, h) = (120_u32, 90_u32);
    let (from, to) = (rng.colour(), rng.colour());
    let angle = f64::from(rng.below(360)).to_radians();
    let shapes: Vec<(u32, u32, u32, u32, [u8; 3], bool)> = (0..3 + rng.below(4))
        .map(|_| (rng.below(w), rng.below(h), 10 + rng.below(50), 10 + rng.below(40), rng.colour(), rng.below(2) == 0))
        .collect();
    let frames = (0..3)
        .map(|k| {
            RgbaImage::from_fn(w, h, |x, y| {
                for &(sx, sy, sw, sh, c, round) in &shapes {
                    let (cx, cy) = (f64::from(sx + k * 3), f64::from(sy));
                    let (dx, dy) = ((f64::from(x) - cx) / f64::from(sw), (f64::from(y) - cy) / f64::from(sh));
                    let inside = if round { dx * dx + dy * dy <= 0.25 } else { dx.abs() <= 0.5 && dy.abs() <= 0.5 };
                    if inside {
                        return Rgba([c[0], c[1], c[2], 255]);
                    }
                }
                let t = ((f64::from(x) / f64::from(w) - 0.5) * angle.cos()
                    + (f64::from(y) / f64::from(h) - 0.5) * angle.sin()
                    + 0.5)
                    .clamp(0.0, 1.0);
                let mix = |a: u8, b: u8| (f64::from(a) * (1.0 - t) + f64::from(b) * t) as u8;
                Rgba([mix(from[0], to[0]), mix(from[1], to[1]), mix(from[2], to[2]), 255])
            })
        })
        .collect();
    encode(frames)
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = std::env::var_os("GIFSHELF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("the real-world corpus ({}) is missing: generated GIFs only", dir.display());
        return Vec::new();
    };
    let mut files: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "gif")).collect();
    files.sort();
    files.into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).unwrap_or_else(|e| panic!("{e}")))).collect()
}

const GENERATED: u32 = 80;

#[test]
fn copies_stay_near_and_distinct_gifs_stay_apart() {
    let mut originals: Vec<(String, Vec<u8>)> = corpus();
    let real = originals.len();
    originals.extend((1..=GENERATED).map(|seed| (format!("generated #{seed}"), generated_gif(seed))));
    let hashes: Vec<PerceptualHash> = originals.iter().map(|(_, b)| phash(b)).collect();

    let mut copy_distances = Vec::new();
    for ((name, bytes), hash) in originals.iter().zip(&hashes) {
        for percent in [50, 75] {
            let d = hash.distance(phash(&resized_copy(bytes, percent)));
            if d > NEAR_DUPLICATE_BITS {
                eprintln!("{name} resized to {percent}% is {d} bits away");
            }
            copy_distances.push(d);
        }
    }

    let mut pair_distances = Vec::new();
    for (i, a) in hashes.iter().enumerate() {
        for (j, b) in hashes.iter().enumerate().skip(i + 1) {
            let d = a.distance(*b);
            if d <= NEAR_DUPLICATE_BITS {
                eprintln!("{} and {} are {d} bits apart", originals[i].0, originals[j].0);
            }
            pair_distances.push(d);
        }
    }
    copy_distances.sort_unstable();
    pair_distances.sort_unstable();
    let missed = copy_distances.iter().filter(|d| **d > NEAR_DUPLICATE_BITS).count();
    let false_positives = pair_distances.iter().filter(|d| **d <= NEAR_DUPLICATE_BITS).count();
    eprintln!(
        "copy distances: {copy_distances:?}\nsmallest pair distances: {:?}",
        &pair_distances[..20.min(pair_distances.len())]
    );
    let mean = |v: &[u32]| v.iter().map(|d| f64::from(*d)).sum::<f64>() / v.len().max(1) as f64;
    eprintln!(
        "{} GIFs ({real} real, {GENERATED} generated); threshold {NEAR_DUPLICATE_BITS} bits\n\
         resized+re-encoded copies ({}): max {} bits, mean {:.1}\n\
         missed copies {missed}; distinct pairs ({}): min {} bits, mean {:.1}, false positives {false_positives}",
        originals.len(),
        copy_distances.len(),
        copy_distances.last().unwrap_or(&0),
        mean(&copy_distances),
        pair_distances.len(),
        pair_distances.first().unwrap_or(&0),
        mean(&pair_distances),
    );
    // Measured (docs/operations.md): 2 of 3403 distinct pairs match (0.06%, two generated
    // pictures of near-vertical gradients), 5 of 166 copies are missed (pixel art resized to
    // half, near-flat gradients). These bounds keep it from getting worse; the goal is 0 and 0.
    assert!(false_positives * 1000 <= pair_distances.len(), "{false_positives} distinct pairs match");
    assert!(missed * 100 <= copy_distances.len() * 4, "{missed} copies are missed");
}
