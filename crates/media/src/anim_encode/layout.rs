//! Colour tables laid out for the frames that use them.

use super::Done;
use crate::quantize::Palette;

/// A colour table laid out for the frames that use it: `order[old]` is a used colour's new index.
pub(super) struct Layout {
    /// New index of each old one; `None` for colours no frame uses (and the old transparent slot).
    pub(super) order: [Option<u8>; 256],
    /// The table to write: the kept colours, then one black slot so that a frame using every
    /// kept colour still has an index for transparency.
    pub(super) table: Vec<u8>,
}

impl Layout {
    /// The global table for the frames without a table of their own, ordered so that as many
    /// frames as possible use only low indices (gifsicle's idea): every colour counts the frames
    /// that still need it; the colour the fewest need takes the highest free index, and the frames
    /// that needed it stop counting (they need a wide code anyway). Ties go to the colour with
    /// fewer pixels.
    pub(super) fn global(palette: &Palette, frames: &[Done]) -> Layout {
        let t = usize::from(palette.transparent());
        let mut pixels = [0u64; 256];
        let mut wanted = [0u32; 256];
        let mut needs: Vec<[bool; 256]> = Vec::new();
        for frame in frames.iter().filter(|f| f.local.is_none()) {
            let mut need = [false; 256];
            for &i in &frame.indices {
                pixels[usize::from(i)] += 1;
                need[usize::from(i)] = true;
            }
            need[t] = false;
            for (count, &n) in wanted.iter_mut().zip(need.iter()) {
                *count += u32::from(n);
            }
            needs.push(need);
        }
        let mut left: Vec<usize> = (0..palette.rgb.len()).filter(|&i| i != t && pixels[i] > 0).collect();
        let mut active = vec![true; needs.len()];
        let mut order = Vec::with_capacity(left.len());
        while !left.is_empty() {
            let (pos, _) = left
                .iter()
                .enumerate()
                .min_by_key(|(_, &c)| (wanted[c], pixels[c], std::cmp::Reverse(c)))
                .unwrap_or((0, &0));
            let removed = left.swap_remove(pos);
            order.push(removed);
            for (need, on) in needs.iter().zip(active.iter_mut()) {
                if *on && need[removed] {
                    *on = false;
                    for (count, &n) in wanted.iter_mut().zip(need.iter()) {
                        *count -= u32::from(n);
                    }
                }
            }
        }
        order.reverse();
        Layout::of(palette, &order)
    }

    /// Every colour of `palette`, in its order: for frames written before all are known.
    pub(super) fn as_is(palette: &Palette) -> Layout {
        Layout::of(palette, &(0..palette.rgb.len()).collect::<Vec<_>>())
    }

    /// A local table: only the colours its frame uses, in their old order.
    pub(super) fn local(palette: &Palette, indices: &[u8]) -> Layout {
        let t = usize::from(palette.transparent());
        let mut seen = [false; 256];
        for &i in indices {
            seen[usize::from(i)] = true;
        }
        let used: Vec<usize> = (0..palette.rgb.len()).filter(|&i| i != t && seen[i]).collect();
        Layout::of(palette, &used)
    }

    pub(super) fn of(palette: &Palette, used: &[usize]) -> Layout {
        let mut order = [None; 256];
        let mut table = Vec::with_capacity((used.len() + 1) * 3);
        for (new, &old) in used.iter().enumerate() {
            // At most 255 visible colours (see `Palette`), so `new` fits.
            order[old] = u8::try_from(new).ok();
            table.extend_from_slice(&palette.rgb[old]);
        }
        table.extend_from_slice(&[0, 0, 0]);
        Layout { order, table }
    }

    /// A frame's indices in this layout, and its transparent index: the lowest one the frame does
    /// not use (none when it has no transparent pixel).
    pub(super) fn remap(&self, indices: &[u8], old_transparent: u8) -> (Vec<u8>, Option<u8>) {
        let mut used = [false; 257];
        let mut clear = false;
        for &i in indices {
            match self.order[usize::from(i)] {
                Some(new) if i != old_transparent => used[usize::from(new)] = true,
                _ => clear = true,
            }
        }
        let t = if clear {
            // At most 255 colours are kept and the table has one slot more: a free index exists.
            let kept = self.table.len() / 3 - 1;
            (0..=kept).find(|&n| !used[n]).and_then(|n| u8::try_from(n).ok())
        } else {
            None
        };
        let t_or_zero = t.unwrap_or(0);
        let out = indices
            .iter()
            .map(|&i| if i == old_transparent { t_or_zero } else { self.order[usize::from(i)].unwrap_or(t_or_zero) })
            .collect();
        (out, t)
    }
}
