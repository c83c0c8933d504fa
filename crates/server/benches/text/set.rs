//! The labelled set the text bench makes itself: real animations (the repository's corpus, the
//! optional shared one, and generated scenes: motion, noise, flat colour), 60 of them captioned in
//! one of three fonts, two sizes and two styles (white letters in a black outline; black letters
//! on a light band), with words drawn from a fixed list of ordinary English words, and 20 left
//! without text.

use std::path::{Path, PathBuf};

use ab_glyph::{Font, FontArc, PxScale, ScaleFont};
use image::{AnimationDecoder, RgbaImage};

/// Words captions are made of (any length; words of three letters or more are searched).
const CAPTION_WORDS: &[&str] = &[
    "monday",
    "coffee",
    "weekend",
    "happy",
    "birthday",
    "thanks",
    "awesome",
    "nope",
    "seriously",
    "whatever",
    "deploy",
    "friday",
    "pizza",
    "party",
    "dance",
    "hello",
    "goodbye",
    "sorry",
    "excited",
    "tired",
    "sleep",
    "winter",
    "summer",
    "beach",
    "office",
    "meeting",
    "deadline",
    "budget",
    "rocket",
    "planet",
    "garden",
    "kitten",
    "puppy",
    "dragon",
    "wizard",
    "castle",
    "forest",
    "river",
    "mountain",
    "thunder",
    "chicken",
    "banana",
    "cookie",
    "dinner",
    "breakfast",
    "lunch",
    "music",
    "guitar",
    "concert",
    "ticket",
    "travel",
    "train",
    "bicycle",
    "window",
    "kitchen",
    "letter",
    "secret",
    "winner",
    "champion",
    "victory",
    "trouble",
    "problem",
    "answer",
    "question",
    "science",
    "history",
    "number",
    "yellow",
    "purple",
    "orange",
    "silver",
    "golden",
    "ancient",
    "modern",
    "simple",
    "strange",
    "gentle",
    "brave",
    "clever",
    "lucky",
    "quiet",
    "loud",
    "slow",
    "fast",
    "tiny",
    "giant",
    "cheap",
    "fresh",
    "frozen",
    "broken",
    "finished",
    "ready",
    "waiting",
    "running",
    "jumping",
    "singing",
    "crying",
    "laughing",
    "thinking",
    "working",
    "cooking",
    "reading",
    "writing",
    "shopping",
    "dreaming",
    "falling",
    "flying",
];
/// Short words mixed into some captions (read, never searched: fewer than three letters).
const SHORT_WORDS: &[&str] = &["is", "it", "me", "my", "so", "we", "no", "ok"];
/// Words in no caption: searching them measures what is returned wrongly.
pub const ABSENT_WORDS: &[&str] = &[
    "elephant", "umbrella", "volcano", "penguin", "tornado", "library", "hospital", "airport", "sandwich", "pyramid",
    "compass", "lantern", "harbor", "blanket", "cactus", "dolphin", "glacier", "jacket", "marble", "needle", "oyster",
    "parrot", "quartz", "saddle", "trumpet", "velvet", "walnut", "anchor", "barrel", "candle", "feather", "helmet",
    "island", "jungle", "kettle", "ladder", "mirror", "napkin", "pepper", "rabbit",
];

/// GIFs with a caption and without.
const CAPTIONED: usize = 60;
const PLAIN: usize = 20;
/// Frames kept of each animation.
const MAX_FRAMES: usize = 12;

/// One GIF of the set: its name (base, font, size, style), bytes, the caption drawn (none for
/// the 20 without text) and its first frame as PNG (the anchor's input).
pub struct Labelled {
    pub name: String,
    pub bytes: Vec<u8>,
    pub caption: Option<String>,
    pub first_png: Vec<u8>,
}

impl Labelled {
    /// The caption's words of three letters or more, lower case, each once.
    pub fn searched_words(&self) -> Vec<String> {
        let mut words: Vec<String> = Vec::new();
        for word in self.caption.iter().flat_map(|c| c.split_whitespace()) {
            let word = word.to_lowercase();
            if word.chars().count() >= 3 && !words.contains(&word) {
                words.push(word);
            }
        }
        words
    }
}

/// A caption font: a name and its face.
pub struct Face {
    pub name: String,
    font: FontArc,
}

/// The three fonts, each the first file of its slot found here; a slot none of whose files is
/// here is left out with a line saying so.
pub fn fonts() -> Vec<Face> {
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("../media/fonts/DejaVuSansCondensed-Bold.ttf");
    let slots: [(&str, Vec<PathBuf>); 3] = [
        ("the bundled caption font", vec![bundled]),
        (
            "a serif",
            [
                "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
                "/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf",
                "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
            ]
            .map(PathBuf::from)
            .to_vec(),
        ),
        (
            "a monospace",
            [
                "/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf",
                "/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf",
                "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
            ]
            .map(PathBuf::from)
            .to_vec(),
        ),
    ];
    let mut faces = Vec::new();
    for (slot, paths) in slots {
        let found = paths.iter().find_map(|p| Some((p, FontArc::try_from_vec(std::fs::read(p).ok()?).ok()?)));
        match found {
            Some((path, font)) => {
                let name = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                println!("font: {name} ({slot}, {})", path.display());
                faces.push(Face { name, font });
            }
            None => {
                println!("font: {slot} skipped: none of {paths:?} is installed (fonts-liberation, fonts-dejavu-core)")
            }
        }
    }
    faces
}

/// An animation to caption: its name and frames (RGBA, delay in centiseconds).
struct Base {
    name: String,
    width: u32,
    height: u32,
    frames: Vec<(RgbaImage, u16)>,
}

/// The animations: the repository's corpus, the optional shared GIF, and generated scenes.
fn bases() -> Vec<Base> {
    use gifshelf_media::testing as t;
    let in_repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/corpus");
    let mut sources: Vec<(String, Vec<u8>)> = ["moon_impact", "sample_big"]
        .iter()
        .map(|n| ((*n).to_owned(), std::fs::read(in_repo.join(format!("{n}.gif"))).unwrap()))
        .collect();
    let extra = std::env::var_os("GIFSHELF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
        .join("rainbow.gif");
    match std::fs::read(&extra) {
        Ok(bytes) => sources.push(("rainbow".to_owned(), bytes)),
        Err(_) => {
            println!("note: the optional corpus GIF {} is absent (set GIFSHELF_CORPUS); skipped", extra.display())
        }
    }
    sources.extend([
        ("motion".to_owned(), t::scene_gif(320, 180, 12, 20)),
        ("video".to_owned(), t::video_gif(320, 180, 12)),
        ("photo".to_owned(), t::photo_gif(320, 180, 24)),
        ("noise".to_owned(), t::noisy_gif(320, 180, 8)),
        ("sprite".to_owned(), t::sprite_gif(320, 180, 12)),
        ("flat-tiles".to_owned(), t::pixel_art_gif(320, 176, 12)),
        ("flat-bands".to_owned(), t::animated_gif(320, 180, 10)),
    ]);
    sources.into_iter().map(|(name, bytes)| decode(name, &bytes)).collect()
}

/// The first frames of a GIF, composited, cropped to between 2:1 and 5:6.
fn decode(name: String, bytes: &[u8]) -> Base {
    let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes)).unwrap();
    let frames: Vec<(RgbaImage, u16)> = decoder
        .into_frames()
        .take(MAX_FRAMES)
        .map(|f| {
            let f = f.unwrap();
            let (n, d) = f.delay().numer_denom_ms();
            let cs = (n / d.max(1) / 10).clamp(2, 100) as u16;
            (f.into_buffer(), cs)
        })
        .collect();
    let (w, h) = frames[0].0.dimensions();
    let cw = w.min(h * 2);
    let ch = h.min(w * 6 / 5);
    let (x, y) = ((w - cw) / 2, (h - ch) / 2);
    let frames =
        frames.into_iter().map(|(img, cs)| (image::imageops::crop_imm(&img, x, y, cw, ch).to_image(), cs)).collect();
    Base { name, width: cw, height: ch, frames }
}

/// How a caption is drawn.
#[derive(Clone, Copy)]
struct Look {
    /// Letters as a share of the width: small (1/20) or large (1/12).
    large: bool,
    /// White letters in a black outline, or black letters on a light band.
    outlined: bool,
    top: bool,
}

/// A tiny deterministic generator (xorshift), so every run makes the same set.
struct Rng(u64);

impl Rng {
    fn draw(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as usize
    }
}

fn caption_text(rng: &mut Rng) -> String {
    let mut words: Vec<&str> = Vec::new();
    if rng.draw().is_multiple_of(3) {
        words.push(SHORT_WORDS[rng.draw() % SHORT_WORDS.len()]);
    }
    let n = words.len() + 2 + rng.draw() % 3;
    while words.len() < n {
        let word = CAPTION_WORDS[rng.draw() % CAPTION_WORDS.len()];
        if !words.contains(&word) {
            words.push(word);
        }
    }
    let text = words.join(" ");
    if rng.draw().is_multiple_of(2) {
        text.to_uppercase()
    } else {
        text
    }
}

/// The 80 GIFs: 60 captioned (every font, size and style in turn over the animations), 20 without.
pub fn make(faces: &[Face]) -> Vec<Labelled> {
    let bases = bases();
    let widths = [240, 320, 400, 480];
    let mut rng = Rng(0x5eed_7e47_u64);
    let mut set = Vec::with_capacity(CAPTIONED + PLAIN);
    for i in 0..CAPTIONED + PLAIN {
        let base = &bases[(i * 7 + i / bases.len()) % bases.len()];
        let width = widths[(i + i / 4) % widths.len()];
        let height = (base.height * width / base.width).max(16) & !1;
        let mut frames: Vec<(RgbaImage, u16)> = base
            .frames
            .iter()
            // The GIFs without text start one frame or more later: no two of them are the same bytes.
            .skip(if i < CAPTIONED { 0 } else { 1 + (i - CAPTIONED) / bases.len() })
            .map(|(img, cs)| (image::imageops::resize(img, width, height, image::imageops::FilterType::Triangle), *cs))
            .collect();
        let (name, caption) = if i < CAPTIONED && !faces.is_empty() {
            let combo = i % 12;
            let face = &faces[combo % 3 % faces.len()];
            let look = Look { large: combo / 3 % 2 == 1, outlined: combo < 6, top: rng.draw().is_multiple_of(3) };
            let text = caption_text(&mut rng);
            let overlay = Overlay::new(&face.font, &text, look, width, height);
            for (img, _) in &mut frames {
                overlay.apply(img);
            }
            let style = if look.outlined { "outlined" } else { "band" };
            let size = if look.large { "large" } else { "small" };
            (format!("{}/{}/{size}/{style}", base.name, face.name), Some(text))
        } else {
            (format!("{}/no text", base.name), None)
        };
        let bytes = encode(width, height, &mut frames);
        let first_png = first_frame_png(&bytes);
        set.push(Labelled { name, bytes, caption, first_png });
    }
    set
}

fn encode(width: u32, height: u32, frames: &mut [(RgbaImage, u16)]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, width as u16, height as u16, &[]).unwrap();
        encoder.set_repeat(gif::Repeat::Infinite).unwrap();
        for (img, cs) in frames.iter_mut() {
            let mut frame = gif::Frame::from_rgba_speed(width as u16, height as u16, img, 10);
            frame.delay = *cs;
            encoder.write_frame(&frame).unwrap();
        }
    }
    out
}

/// The GIF's first frame as it decodes, as PNG.
fn first_frame_png(gif: &[u8]) -> Vec<u8> {
    let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif)).unwrap();
    let frame = decoder.into_frames().next().unwrap().unwrap().into_buffer();
    let mut png = Vec::new();
    frame.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
    png
}

/// A caption laid out once: per pixel, the letters' coverage and the outline's (or band's).
struct Overlay {
    fill: Vec<u8>,
    behind: Vec<u8>,
    outlined: bool,
}

impl Overlay {
    fn new(font: &FontArc, text: &str, look: Look, width: u32, height: u32) -> Self {
        let (w, h) = (width as usize, height as usize);
        let mut px = width as f32 / if look.large { 12.0 } else { 20.0 };
        let lines = loop {
            let lines = wrap(font, px, text, width as f32 * 0.92);
            let tall = lines.len() as f32 * px * 1.2 > height as f32 * 0.45;
            if (lines.len() <= 3 && !tall) || px <= 10.0 {
                break lines;
            }
            px *= 0.85;
        };
        let scaled = font.as_scaled(PxScale::from(px));
        let line_height = scaled.height() + scaled.line_gap();
        let block = line_height * lines.len() as f32;
        let margin = (height as f32 * 0.04).max(3.0);
        let top = if look.top { margin } else { (height as f32 - margin - block).max(0.0) };
        let mut fill = vec![0_u8; w * h];
        for (i, line) in lines.iter().enumerate() {
            let x0 = ((width as f32 - measure(font, px, line)) / 2.0).max(0.0);
            let baseline = top + line_height * i as f32 + scaled.ascent();
            draw_line(font, px, line, (x0, baseline), &mut fill, w, h);
        }
        let behind = if look.outlined {
            dilate(&fill, w, h, ((px / 14.0).round() as usize).clamp(1, 6))
        } else {
            // A light band across the width, a margin around the lines.
            let (y0, y1) = ((top - margin).max(0.0) as usize, ((top + block + margin) as usize).min(h));
            (0..w * h).map(|i| if (y0..y1).contains(&(i / w)) { 255 } else { 0 }).collect()
        };
        Self { fill, behind, outlined: look.outlined }
    }

    fn apply(&self, img: &mut RgbaImage) {
        let (ink, ground) = if self.outlined { (255_u32, 0_u32) } else { (0, 245) };
        for (i, px) in img.chunks_exact_mut(4).enumerate().take(self.fill.len()) {
            let (b, f) = (u32::from(self.behind[i]), u32::from(self.fill[i]));
            if b == 0 && f == 0 {
                continue;
            }
            for c in &mut px[..3] {
                let under = (u32::from(*c) * (255 - b) + ground * b) / 255;
                *c = ((under * (255 - f) + ink * f) / 255) as u8;
            }
            px[3] = 255;
        }
    }
}

fn glyphs(font: &FontArc, px: f32, text: &str, origin: (f32, f32)) -> Vec<ab_glyph::Glyph> {
    let scaled = font.as_scaled(PxScale::from(px));
    let (mut x, mut previous) = (origin.0, None);
    let mut out = Vec::new();
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(prev) = previous {
            x += scaled.kern(prev, id);
        }
        out.push(id.with_scale_and_position(PxScale::from(px), ab_glyph::point(x, origin.1)));
        x += scaled.h_advance(id);
        previous = Some(id);
    }
    out
}

fn measure(font: &FontArc, px: f32, text: &str) -> f32 {
    let scaled = font.as_scaled(PxScale::from(px));
    glyphs(font, px, text, (0.0, 0.0)).last().map_or(0.0, |g| g.position.x + scaled.h_advance(g.id))
}

fn wrap(font: &FontArc, px: f32, text: &str, max_width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if measure(font, px, &format!("{line} {word}")) <= max_width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    if lines.iter().any(|l| measure(font, px, l) > max_width) {
        lines.extend(std::iter::repeat_n(String::new(), 3));
    }
    lines
}

fn draw_line(font: &FontArc, px: f32, line: &str, at: (f32, f32), fill: &mut [u8], w: usize, h: usize) {
    for glyph in glyphs(font, px, line, at) {
        let Some(outlined) = font.outline_glyph(glyph) else { continue };
        let bounds = outlined.px_bounds();
        outlined.draw(|gx, gy, coverage| {
            let x = bounds.min.x as i64 + i64::from(gx);
            let y = bounds.min.y as i64 + i64::from(gy);
            if (0..w as i64).contains(&x) && (0..h as i64).contains(&y) {
                let at = y as usize * w + x as usize;
                fill[at] = fill[at].max((coverage.clamp(0.0, 1.0) * 255.0) as u8);
            }
        });
    }
}

/// The largest coverage within `radius` of each pixel: the outline.
fn dilate(fill: &[u8], w: usize, h: usize, radius: usize) -> Vec<u8> {
    let r = radius as i64;
    let mut out = vec![0_u8; fill.len()];
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            let mut best = 0_u8;
            for dy in -r..=r {
                for dx in -r..=r {
                    let (nx, ny) = (x + dx, y + dy);
                    if dx * dx + dy * dy <= r * r + r && nx >= 0 && ny >= 0 && nx < w as i64 && ny < h as i64 {
                        best = best.max(fill[ny as usize * w + nx as usize]);
                    }
                }
            }
            out[y as usize * w + x as usize] = best;
        }
    }
    out
}
