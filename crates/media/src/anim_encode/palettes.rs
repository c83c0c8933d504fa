//! The palettes frames are mapped onto, and when a frame reuses one.

use crate::quantize::{Mapper, Palette, Start};
use crate::MediaRejection;

/// Mean squared RGB error above which a frame does not reuse an earlier palette.
const REUSE_MAX_ERROR: u64 = 24;

/// Mean squared RGB error above which an earlier palette is no start for a frame's own (about
/// 17 levels on each channel): past it the frame's colours are new (a cut, a new scene), and
/// NeuQuant learns them from scratch.
const SEED_MAX_ERROR: u64 = 900;

/// Every how many colours a frame's are sampled to compare the seeds' errors.
const SEED_SAMPLE: usize = 8;

/// Which palette a frame is mapped onto.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Choice {
    Global,
    Recent,
}

/// The palettes frames can be mapped onto, each with its nearest-colour cache.
pub(super) struct Palettes {
    pub(super) global: Option<Palette>,
    pub(super) global_map: Option<Mapper>,
    /// The palette of the last frame that needed one of its own.
    pub(super) recent: Option<(Palette, Mapper)>,
    /// Map colours approximately ([`Mapper::approximate`]): resampled frames.
    pub(super) approximate: bool,
    /// Make a frame's own palette from an earlier one when that is a fair start (the maker's
    /// video frames). Thumbnails of a GIF take NeuQuant's palettes: seeded ones scored a little
    /// lower PSNR on `cargo xtask bench media`'s sample_big.
    pub(super) seeded: bool,
}

impl Palettes {
    /// Picks the palette for a frame that needs one of its own (see [`AnimEncoder`]): the
    /// global or the recent palette when it maps the frame's colours closely enough; else a new
    /// one: when `seeded`, made from the closer of the two by k-means if it is a fair start (the
    /// frame's colours drifted: a scrolling ramp, a fade, grain); by NeuQuant otherwise (a cut),
    /// then moved by k-means too.
    pub(super) fn choose(&mut self, colors: Vec<u32>, first: bool) -> Choice {
        let limit = REUSE_MAX_ERROR * colors.len() as u64;
        if let (Some(p), Some(m)) = (self.global.as_ref(), self.global_map.as_mut()) {
            if map_error(&colors, 1, p, m, limit).is_some() {
                return Choice::Global;
            }
        }
        if let Some((p, m)) = self.recent.as_mut() {
            if map_error(&colors, 1, p, m, limit).is_some() {
                return Choice::Recent;
            }
        }
        if !self.seeded {
            return self.adopt(Palette::for_colors(colors, Start::Learnt), first);
        }
        // The seeds' errors are only compared, so a sample of the colours tells them.
        let limit = SEED_MAX_ERROR * colors.len().div_ceil(SEED_SAMPLE) as u64;
        let global = match (self.global.as_ref(), self.global_map.as_mut()) {
            (Some(p), Some(m)) => map_error(&colors, SEED_SAMPLE, p, m, limit),
            _ => None,
        };
        let recent = self.recent.as_mut().and_then(|(p, m)| map_error(&colors, SEED_SAMPLE, p, m, limit));
        let global = self.global.as_ref().zip(global);
        let recent = self.recent.as_ref().map(|(p, _)| p).zip(recent);
        let start = match (global, recent) {
            (Some((g, ge)), Some((_, re))) if ge < re => Start::From(g),
            (_, Some((r, _))) | (Some((r, _)), None) => Start::From(r),
            (None, None) => Start::Polished,
        };
        let p = Palette::for_colors(colors, start);
        self.adopt(p, first)
    }

    /// Makes `p` the global palette (the first frame of a source without one) or the recent one.
    fn adopt(&mut self, p: Palette, first: bool) -> Choice {
        let m = self.mapper(&p);
        if first && self.global.is_none() {
            self.global = Some(p);
            self.global_map = Some(m);
            Choice::Global
        } else {
            self.recent = Some((p, m));
            Choice::Recent
        }
    }

    pub(super) fn mapper(&self, p: &Palette) -> Mapper {
        if self.approximate {
            Mapper::approximate(p)
        } else {
            Mapper::new(p)
        }
    }

    /// The chosen palette and its mapper.
    pub(super) fn get(&mut self, choice: Choice) -> Result<(&Palette, &mut Mapper), MediaRejection> {
        match choice {
            Choice::Global => match (self.global.as_ref(), self.global_map.as_mut()) {
                (Some(p), Some(m)) => Ok((p, m)),
                _ => Err(crate::error::internal("palette missing")),
            },
            Choice::Recent => match self.recent.as_mut() {
                Some((p, m)) => Ok((p, m)),
                None => Err(crate::error::internal("palette missing")),
            },
        }
    }

    /// The transparent index of a frame with local table `local` (else the global one).
    pub(super) fn transparent_of(&self, local: Option<&Palette>) -> Result<u8, MediaRejection> {
        local
            .or(self.global.as_ref())
            .map(Palette::transparent)
            .ok_or_else(|| crate::error::internal("palette missing"))
    }
}

/// Sum of squared errors of mapping every `step`th colour of `colors` with `m`, or `None` once it
/// passes `limit`.
pub(super) fn map_error(colors: &[u32], step: usize, p: &Palette, m: &mut Mapper, limit: u64) -> Option<u64> {
    let mut sum = 0u64;
    for &c in colors.iter().step_by(step) {
        let b = c.to_be_bytes();
        let i = m.map(b[1], b[2], b[3]);
        let q = p.packed(i).to_be_bytes();
        let d = |k: usize| u64::from(b[k].abs_diff(q[k])).pow(2);
        sum += d(1) + d(2) + d(3);
        if sum > limit {
            return None;
        }
    }
    Some(sum)
}

#[cfg(test)]
mod tests {
    use super::{map_error, Choice, Palettes};
    use crate::quantize::{pack, Mapper};

    /// 400 distinct colours along a ramp, shifted by `shift` levels of red and blue.
    fn ramp(shift: u8) -> Vec<u32> {
        (0..400u32).map(|i| pack([(i % 200) as u8 + shift, (i / 2) as u8, (i % 200) as u8 / 2 + shift])).collect()
    }

    fn palettes(seeded: bool) -> Palettes {
        Palettes { global: None, global_map: None, recent: None, approximate: false, seeded }
    }

    /// The mean squared error of mapping `colors` onto the recent palette.
    fn recent_error(p: &mut Palettes, colors: &[u32]) -> u64 {
        let (palette, mapper) = p.get(Choice::Recent).unwrap();
        map_error(colors, 1, palette, mapper, u64::MAX).unwrap() / colors.len() as u64
    }

    #[test]
    fn a_drifting_frame_gets_the_last_palette_moved_to_its_colours() {
        let mut errors = Vec::new();
        for seeded in [false, true] {
            let mut p = palettes(seeded);
            assert!(p.choose(ramp(0), true) == Choice::Global);
            // Twelve levels of red and blue: too far to reuse the palette, close enough to start
            // from it.
            let drifted = ramp(12);
            assert!(p.choose(drifted.clone(), false) == Choice::Recent);
            errors.push(recent_error(&mut p, &drifted));
        }
        // NeuQuant learns 400 colours seen once each poorly; the moved palette fits them closely.
        assert!(errors[1] * 4 < errors[0], "errors: NeuQuant {}, seeded {}", errors[0], errors[1]);
    }

    #[test]
    fn after_a_cut_the_frame_gets_a_palette_of_its_own_colours() {
        let mut p = palettes(true);
        p.choose(ramp(0), true);
        // Colours far from every colour of the first palette: no fair start.
        let cut: Vec<u32> = (0..400u32).map(|i| pack([(i % 40) as u8, 255, 255 - (i / 40) as u8 * 3])).collect();
        let before = {
            let g = p.global.clone().unwrap();
            let mut m = Mapper::new(&g);
            map_error(&cut, 1, &g, &mut m, u64::MAX).unwrap() / cut.len() as u64
        };
        assert!(before > 900, "the cut is too close to the first palette: {before}");
        assert!(p.choose(cut.clone(), false) == Choice::Recent);
        // NeuQuant's palette, learnt from the new colours (a start that far would keep most of
        // the old ones and leave the new colours hundreds off).
        let after = recent_error(&mut p, &cut);
        assert!(after * 4 < before, "after the cut {after}, before {before}");
    }
}
