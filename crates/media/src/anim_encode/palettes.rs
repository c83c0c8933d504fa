//! The palettes frames are mapped onto, and when a frame reuses one.

use crate::quantize::{Mapper, Palette};
use crate::MediaRejection;

/// Mean squared RGB error above which a frame does not reuse an earlier palette.
const REUSE_MAX_ERROR: u64 = 24;

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
}

impl Palettes {
    /// Picks the palette for a frame that needs one of its own (see [`AnimEncoder`]).
    pub(super) fn choose(&mut self, colors: Vec<u32>, first: bool) -> Choice {
        let limit = REUSE_MAX_ERROR * colors.len() as u64;
        if let (Some(p), Some(m)) = (self.global.as_ref(), self.global_map.as_mut()) {
            if map_error(&colors, p, m, limit).is_some() {
                return Choice::Global;
            }
        }
        if let Some((p, m)) = self.recent.as_mut() {
            if map_error(&colors, p, m, limit).is_some() {
                return Choice::Recent;
            }
        }
        let p = Palette::for_colors(colors);
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

/// Sum of squared errors of mapping `colors` with `m`, or `None` once it passes `limit`.
pub(super) fn map_error(colors: &[u32], p: &Palette, m: &mut Mapper, limit: u64) -> Option<u64> {
    let mut sum = 0u64;
    for &c in colors {
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
