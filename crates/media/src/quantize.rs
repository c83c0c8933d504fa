//! Output palettes and the nearest-colour mapping onto them.

/// An output palette of at most 255 visible colours; the index after the last colour is the
/// transparent one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Palette {
    pub rgb: Vec<[u8; 3]>,
}

fn dist(a: [u8; 3], b: [u8; 3]) -> i32 {
    let dr = i32::from(a[0]) - i32::from(b[0]);
    let dg = i32::from(a[1]) - i32::from(b[1]);
    let db = i32::from(a[2]) - i32::from(b[2]);
    dr * dr + dg * dg + db * db
}

impl Palette {
    /// From a GIF colour table (`r, g, b` triples). A full 256-colour table loses the colour
    /// closest to another one, to free an index for transparency.
    pub(crate) fn from_table(raw: &[u8]) -> Palette {
        let mut rgb: Vec<[u8; 3]> = raw.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        rgb.truncate(256);
        if rgb.is_empty() {
            rgb.push([0, 0, 0]);
        }
        if rgb.len() == 256 {
            let mut best = (i32::MAX, 255);
            for i in 0..rgb.len() {
                for j in i + 1..rgb.len() {
                    let d = dist(rgb[i], rgb[j]);
                    if d < best.0 {
                        best = (d, j);
                    }
                }
            }
            rgb.remove(best.1);
        }
        Palette { rgb }
    }

    /// A palette of at most 255 colours for packed opaque colours (`0xFF_RR_GG_BB`): the
    /// colours themselves when there are at most 256 of them (one merged into its nearest when
    /// there are exactly 256); otherwise a palette learnt as `start` says.
    pub(crate) fn for_colors(mut colors: Vec<u32>, start: Start) -> Palette {
        let unpack = |c: u32| {
            let b = c.to_be_bytes();
            [b[1], b[2], b[3]]
        };
        if colors.is_empty() {
            return Palette { rgb: vec![[0, 0, 0]] };
        }
        let pixels = colors.len();
        let distinct = counted(&colors);
        if distinct.len() <= 256 {
            let raw: Vec<u8> = distinct.into_iter().flat_map(|(c, _)| unpack(c)).collect();
            return Palette::from_table(&raw);
        }
        if let Start::From(seed) = start {
            return seed.refined(&distinct, KMEANS_ROUNDS);
        }
        // NeuQuant learns from a sample; larger inputs can afford a sparser one.
        let sample = if pixels > 100_000 { 10 } else { 3 };
        let rgba: Vec<u8> = colors
            .drain(..)
            .flat_map(|c| {
                let [r, g, b] = unpack(c);
                [r, g, b, 255]
            })
            .collect();
        let nq = color_quant::NeuQuant::new(sample, 255, &rgba);
        let mut rgb: Vec<[u8; 3]> = nq.color_map_rgb().chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        rgb.sort_unstable();
        rgb.dedup();
        let learnt = Palette { rgb };
        match start {
            Start::Polished => learnt.refined(&distinct, KMEANS_ROUNDS),
            _ => learnt,
        }
    }

    /// This palette moved towards `distinct` (packed opaque colours, each with its count) by
    /// `rounds` of Lloyd's k-means: each colour goes to its nearest palette colour, and each
    /// palette colour becomes the mean of the colours it got; one that gets none stays. A frame
    /// whose colours drift from the last palette's gets its own this way, at a fraction of a
    /// fresh NeuQuant's cost, and close to the last one, so steady pixels keep their colour.
    pub(crate) fn refined(&self, distinct: &[(u32, u32)], rounds: usize) -> Palette {
        let mut rgb = self.rgb.clone();
        for _ in 0..rounds {
            // Each colour is looked up once a round: straight searches, no cache.
            let by_green = sorted(&rgb);
            let mut sums = vec![[0u64; 4]; rgb.len()];
            for &(c, n) in distinct {
                let b = c.to_be_bytes();
                let i = usize::from(nearest(&by_green, i32::from(b[1]), i32::from(b[2]), i32::from(b[3])));
                let n = u64::from(n);
                if let Some(s) = sums.get_mut(i) {
                    *s = [s[0] + u64::from(b[1]) * n, s[1] + u64::from(b[2]) * n, s[2] + u64::from(b[3]) * n, s[3] + n];
                }
            }
            for (c, s) in rgb.iter_mut().zip(&sums) {
                if s[3] > 0 {
                    let mean = |k: usize| u8::try_from((s[k] + s[3] / 2) / s[3]).unwrap_or(255);
                    *c = [mean(0), mean(1), mean(2)];
                }
            }
        }
        rgb.sort_unstable();
        rgb.dedup();
        Palette { rgb }
    }

    /// The transparent index.
    pub(crate) fn transparent(&self) -> u8 {
        // At most 255 visible colours, so this fits.
        u8::try_from(self.rgb.len()).unwrap_or(255)
    }

    /// Packed opaque colour of index `i` (0 is reserved for "transparent").
    pub(crate) fn packed(&self, i: u8) -> u32 {
        match self.rgb.get(usize::from(i)) {
            Some(c) => pack(*c),
            None => 0,
        }
    }
}

/// Where a palette for more than 256 colours starts ([`Palette::for_colors`]).
#[derive(Clone, Copy)]
pub(crate) enum Start<'a> {
    /// NeuQuant learns it from the colours (animated thumbnails: `cargo xtask bench media`'s
    /// PSNR against gifsicle was measured with these).
    Learnt,
    /// NeuQuant learns it, then k-means moves it to the colours' means (the maker's first frame
    /// and cuts: NeuQuant leaves its colours off the means of the colours they serve).
    Polished,
    /// This palette, moved to the colours by k-means (a frame whose colours drifted from it).
    From(&'a Palette),
}

/// Rounds of k-means that move a seed palette to a frame's colours. On `cargo xtask bench make`
/// two rounds (in place of a NeuQuant palette per frame) took the screen clip's SSIM from 0.965 to
/// 0.969 at 10 % fewer bytes, and the camera clip's bytes down by 9 % at a higher SSIM.
const KMEANS_ROUNDS: usize = 2;

/// The distinct colours of `colors`, sorted, each with how often it occurs.
fn counted(colors: &[u32]) -> Vec<(u32, u32)> {
    let mut sorted = colors.to_vec();
    sorted.sort_unstable();
    let mut distinct: Vec<(u32, u32)> = Vec::new();
    for c in sorted {
        match distinct.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => distinct.push((c, 1)),
        }
    }
    distinct
}

/// Packs an opaque colour as `0xFF_RR_GG_BB`; transparent pixels are `0`.
pub(crate) fn pack(c: [u8; 3]) -> u32 {
    0xFF00_0000 | u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2])
}

const CACHE_BITS: u32 = 16;

/// A [`Mapper`] table entry not looked up yet.
const UNKNOWN: u16 = u16::MAX;

/// The value a 5- or 6-bit cell (`mask` 7 or 3) of one channel is looked up by: its middle, but 0
/// and 255 for the cells at the ends, so that black and white, the commonest colours of screens
/// and captions, map to the palette's black and white rather than to a colour near the cell's
/// middle (black had become (5, 1, 1)).
fn cell_middle(v: u8, mask: u8) -> i32 {
    if v & !mask == 0 {
        0
    } else if v | mask == 255 {
        255
    } else {
        i32::from(v | mask) - i32::from(mask / 2)
    }
}

/// Nearest-colour lookup, exact (a direct-mapped cache of recent answers) or approximate (a
/// table of every colour at 5/6/5 bits of red/green/blue, each entry searched once).
pub(crate) struct Mapper {
    /// Palette sorted by green, with original indices.
    sorted: Vec<([i32; 3], u8)>,
    /// The exact answers' cache: keys (colour + 1; 0 is empty) and answers (an approximate
    /// mapper makes it at its first [`Mapper::map_exact`]).
    keys: Vec<u32>,
    vals: Vec<u8>,
    /// Approximate: the answer for each 5/6/5-bit colour, or [`UNKNOWN`].
    table: Vec<u16>,
}

/// The palette's colours sorted by green, with their indices.
fn sorted(rgb: &[[u8; 3]]) -> Vec<([i32; 3], u8)> {
    let mut sorted: Vec<([i32; 3], u8)> = rgb
        .iter()
        .enumerate()
        .map(|(i, c)| ([i32::from(c[0]), i32::from(c[1]), i32::from(c[2])], u8::try_from(i).unwrap_or(0)))
        .collect();
    sorted.sort_by_key(|(c, _)| c[1]);
    sorted
}

impl Mapper {
    /// An exact mapper: every colour gets its nearest palette colour.
    pub(crate) fn new(p: &Palette) -> Mapper {
        Mapper {
            sorted: sorted(&p.rgb),
            keys: vec![0; 1 << CACHE_BITS],
            vals: vec![0; 1 << CACHE_BITS],
            table: Vec::new(),
        }
    }

    /// An approximate mapper, for resampled colours: a colour gets the palette colour nearest to
    /// the middle of its 5/6/5-bit cell (at most 4 levels of red and blue and 2 of green away;
    /// the end of the channel for a cell at either end, up to 7 and 3 away), looked up once per
    /// cell.
    pub(crate) fn approximate(p: &Palette) -> Mapper {
        Mapper { sorted: sorted(&p.rgb), keys: Vec::new(), vals: Vec::new(), table: vec![UNKNOWN; 1 << 16] }
    }

    /// The index of the palette colour nearest to `rgb` (squared RGB distance).
    #[inline]
    pub(crate) fn map(&mut self, r: u8, g: u8, b: u8) -> u8 {
        if !self.table.is_empty() {
            let cell = usize::from(r >> 3) << 11 | usize::from(g >> 2) << 5 | usize::from(b >> 3);
            return match self.table.get(cell) {
                Some(&v) if v != UNKNOWN => v as u8,
                _ => {
                    let v = nearest(&self.sorted, cell_middle(r, 7), cell_middle(g, 3), cell_middle(b, 7));
                    if let Some(slot) = self.table.get_mut(cell) {
                        *slot = u16::from(v);
                    }
                    v
                }
            };
        }
        self.cached(r, g, b)
    }

    /// The index of the palette colour nearest to `rgb`, exactly, from an approximate mapper too:
    /// for pixels whose error would be seen (flat areas and edges).
    #[inline]
    pub(crate) fn map_exact(&mut self, r: u8, g: u8, b: u8) -> u8 {
        if self.keys.is_empty() {
            self.keys = vec![0; 1 << CACHE_BITS];
            self.vals = vec![0; 1 << CACHE_BITS];
        }
        self.cached(r, g, b)
    }

    /// The exact answer, through the direct-mapped cache.
    #[inline]
    fn cached(&mut self, r: u8, g: u8, b: u8) -> u8 {
        let key = (u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)) + 1;
        let slot = (key.wrapping_mul(0x9E37_79B1) >> (32 - CACHE_BITS)) as usize;
        if self.keys[slot] == key {
            return self.vals[slot];
        }
        let v = nearest(&self.sorted, i32::from(r), i32::from(g), i32::from(b));
        self.keys[slot] = key;
        self.vals[slot] = v;
        v
    }
}

/// The index of the colour of `s` (sorted by green) nearest to `(r, g, b)`: outwards from `g` in
/// both directions, each stopping once green alone is farther than the best so far.
fn nearest(s: &[([i32; 3], u8)], r: i32, g: i32, b: i32) -> u8 {
    let start = s.partition_point(|(c, _)| c[1] < g);
    let mut best = (i32::MAX, 0u8);
    // Takes one colour into account; false once green alone is as far as the best so far, so
    // that no colour further that way can be nearer.
    let mut look = |&(c, i): &([i32; 3], u8)| {
        let dg = c[1] - g;
        if dg * dg >= best.0 {
            return false;
        }
        let d = (c[0] - r) * (c[0] - r) + dg * dg + (c[2] - b) * (c[2] - b);
        if d < best.0 {
            best = (d, i);
        }
        true
    };
    let (mut up, mut down) = (s[start..].iter(), s[..start].iter().rev());
    let (mut going_up, mut going_down) = (true, true);
    while going_up || going_down {
        going_up = going_up && up.next().is_some_and(&mut look);
        going_down = going_down && down.next().is_some_and(&mut look);
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapper_finds_nearest() {
        let p = Palette { rgb: vec![[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 0, 255], [10, 200, 10]] };
        let mut m = Mapper::new(&p);
        for (i, c) in p.rgb.iter().enumerate() {
            assert_eq!(usize::from(m.map(c[0], c[1], c[2])), i);
        }
        assert_eq!(m.map(240, 10, 10), 2);
        assert_eq!(m.map(20, 180, 30), 4);
        assert_eq!(m.map(200, 200, 200), 1);
        // Brute force agreement on a grid.
        for r in (0..=255).step_by(37) {
            for g in (0..=255).step_by(29) {
                for b in (0..=255).step_by(41) {
                    let want = p.rgb.iter().map(|c| dist(*c, [r as u8, g as u8, b as u8])).min().unwrap();
                    let got = m.map(r as u8, g as u8, b as u8);
                    assert_eq!(dist(p.rgb[usize::from(got)], [r as u8, g as u8, b as u8]), want);
                }
            }
        }
    }

    #[test]
    fn the_approximate_mapper_answers_the_nearest_colour_to_its_cell() {
        let raw: Vec<u8> = (0..=255u8).flat_map(|i| [i, i.wrapping_mul(7), 255 - i]).collect();
        let p = Palette::from_table(&raw);
        let mut m = Mapper::approximate(&p);
        for r in (0..=255).step_by(37) {
            for g in (0..=255).step_by(29) {
                for b in (0..=255).step_by(41) {
                    let c = [r as u8, g as u8, b as u8];
                    let got = p.rgb[usize::from(m.map(c[0], c[1], c[2]))];
                    let best = p.rgb.iter().map(|q| dist(*q, c)).min().unwrap();
                    // The cell's middle is at most e = |(4, 2, 4)| = 6 away (|(7, 3, 7)| < 11 for
                    // a cell at an end), so the answer is at most 2e farther than the nearest:
                    // (√best + 2e)².
                    let end =
                        [c[0] >> 3, c[2] >> 3].iter().any(|&v| v == 0 || v == 31) || c[1] >> 2 == 0 || c[1] >> 2 == 63;
                    let e2 = if end { 22 } else { 12 };
                    let slack = 2 * e2 * (best as f64).sqrt().ceil() as i32 + e2 * e2;
                    assert!(dist(got, c) <= best + slack, "{c:?}: {} vs {best}", dist(got, c));
                    assert_eq!(m.map(c[0], c[1], c[2]), m.map(c[0] | 1, c[1], c[2]), "one answer per cell");
                }
            }
        }
    }

    #[test]
    fn black_and_white_map_to_themselves_approximately_too() {
        let p = Palette { rgb: vec![[0, 0, 0], [2, 2, 2], [5, 1, 1], [250, 250, 252], [255, 255, 255], [128, 64, 32]] };
        let mut m = Mapper::approximate(&p);
        assert_eq!(m.map(0, 0, 0), 0);
        assert_eq!(m.map(255, 255, 255), 4);
        assert_eq!(m.map(130, 66, 30), 5);
    }

    #[test]
    fn an_approximate_mapper_also_answers_exactly_when_asked() {
        // A flat blue the bench's flat clip decodes to, and a rare colour closer to its cell's
        // middle (52, 102, 204): the approximate answer is the rare one, three levels of red off.
        let p = Palette { rgb: vec![[48, 101, 201], [51, 101, 201], [253, 202, 0]] };
        let mut m = Mapper::approximate(&p);
        assert_eq!(m.map(48, 101, 201), 1);
        assert_eq!(m.map_exact(48, 101, 201), 0);
        assert_eq!(m.map_exact(50, 101, 201), 1);
        assert_eq!(m.map_exact(250, 200, 10), 2);
        // The cell's answer is unchanged by the exact ones.
        assert_eq!(m.map(49, 101, 201), 1);
    }

    #[test]
    fn k_means_moves_each_colour_to_the_mean_of_the_colours_it_serves() {
        let seed = Palette { rgb: vec![[10, 10, 10], [200, 200, 200], [100, 0, 0]] };
        let distinct = [(pack([20, 20, 20]), 3), (pack([24, 24, 24]), 1), (pack([210, 200, 190]), 2)];
        // Weighted by count: (3 × 20 + 24) / 4 = 21. Nobody takes the red, so it stays.
        let refined = seed.refined(&distinct, 1);
        assert_eq!(refined.rgb, vec![[21, 21, 21], [100, 0, 0], [210, 200, 190]]);
        // A second round changes nothing: every colour is where its cluster is.
        assert_eq!(seed.refined(&distinct, 2), refined);
    }

    #[test]
    fn a_polished_palette_maps_many_colours_closer_than_neuquants() {
        // 3,000 pixels of a photo-like spread: more colours than a table holds, unevenly often.
        let mut seed = 5_u32;
        let colors: Vec<u32> = (0..3000u32)
            .map(|i| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let n = (seed >> 24) as u8 / 16;
                pack([(i % 60) as u8 * 4 + n, (i / 60) as u8 * 5, 255 - n * 3])
            })
            .collect();
        let error = |p: &Palette| {
            let mut m = Mapper::new(p);
            colors
                .iter()
                .map(|&c| {
                    let b = c.to_be_bytes();
                    let q = p.packed(m.map(b[1], b[2], b[3])).to_be_bytes();
                    (1..4).map(|k| u64::from(b[k].abs_diff(q[k])).pow(2)).sum::<u64>()
                })
                .sum::<u64>()
        };
        let learnt = error(&Palette::for_colors(colors.clone(), Start::Learnt));
        let polished = error(&Palette::for_colors(colors.clone(), Start::Polished));
        assert!(polished * 10 < learnt * 9, "NeuQuant {learnt}, polished {polished}");
    }

    #[test]
    fn full_table_frees_one_index() {
        let raw: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
        let p = Palette::from_table(&raw);
        assert_eq!(p.rgb.len(), 255);
        assert_eq!(p.transparent(), 255);
    }
}
