//! Lossy LZW: a frame's palette indices rewritten, within each pixel's tolerance, so that the LZW
//! coder finds longer strings in its dictionary (the idea of gifsicle's `--lossy`). The coder
//! itself stays exact: this pass runs LZW's parse once over the frame, and where the next pixel
//! does not continue the current string but a close enough colour would, that colour is written
//! instead. Exact pixels (transparent, redrawn, flat areas and edges whose tolerance is none) are
//! never changed.

use super::lzw::Dictionary;

/// What a pixel may become: any palette colour within `limit` squared RGB error of `rgb`, or
/// transparent (the colour shown before, `shown`) when that is within `limit` too.
#[derive(Clone, Copy)]
pub(super) struct Want {
    pub(super) rgb: [u8; 3],
    pub(super) limit: u32,
    pub(super) shown: Option<[u8; 3]>,
}

/// The child of `node` to continue with for a pixel whose index is `exact`: the one with that
/// index, else the one whose colour is closest to `want` within its limit.
fn step(dict: &Dictionary, node: u16, exact: u8, want: Option<Want>, palette: &[[u8; 3]]) -> Option<u16> {
    let mut best: Option<(u32, u16)> = None;
    for (child, s) in dict.children(node) {
        if s == exact {
            return Some(child);
        }
        let colour = palette.get(usize::from(s)).copied().or(want.and_then(|w| w.shown));
        if let (Some(w), Some(c)) = (want, colour) {
            let d = dist(w.rgb, c);
            if d <= w.limit && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, child));
            }
        }
    }
    best.map(|(_, c)| c)
}

fn dist(a: [u8; 3], b: [u8; 3]) -> u32 {
    (0..3).map(|k| u32::from(a[k].abs_diff(b[k])).pow(2)).sum()
}

/// Rewrites `indices` (a frame's pixels in raster order, each below `palette.len() + 1`, the last
/// being transparent) where `wants` lets a pixel change, for an LZW coder with codes of
/// `min_code_size` bits and more; returns how many changed.
pub(super) fn rewrite(indices: &mut [u8], wants: &[Option<Want>], palette: &[[u8; 3]], min_code_size: u8) -> usize {
    let mut dict = Dictionary::new(min_code_size);
    let mut changed = 0;
    let mut pos = 0;
    while pos < indices.len() {
        let mut node = u16::from(indices[pos]);
        let mut end = pos + 1;
        while end < indices.len() {
            let Some(child) = step(&dict, node, indices[end], wants[end], palette) else { break };
            let s = dict.symbol[usize::from(child)];
            if s != indices[end] {
                indices[end] = s;
                changed += 1;
            }
            node = child;
            end += 1;
        }
        if end < indices.len() {
            let _ = dict.add(node, indices[end]);
        }
        pos = end;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::{dist, rewrite, Want};
    use crate::anim_encode::lzw::encode;

    const PALETTE: [[u8; 3]; 4] = [[0, 0, 0], [100, 100, 100], [104, 100, 100], [255, 255, 255]];

    #[test]
    fn without_wants_nothing_changes() {
        let mut indices: Vec<u8> = (0..400).map(|i| ((i * 7 + i / 13) % 5) as u8).collect();
        let before = indices.clone();
        assert_eq!(rewrite(&mut indices, &vec![None; 400], &PALETTE, 3), 0);
        assert_eq!(indices, before);
    }

    #[test]
    fn close_colours_continue_strings_within_their_limit_only() {
        // Grey noise between two close greys, with black and white pixels no tolerance may touch.
        let mut indices = Vec::new();
        let mut wants = Vec::new();
        // Long enough for the dictionary to fill and empty several times: the pass must stay in
        // step with the coder across those.
        for i in 0..130_000u32 {
            let (index, want) = match i % 11 {
                0 => (0, None),
                5 => (3, None),
                _ => {
                    let index = 1 + u8::from(i.wrapping_mul(2_654_435_761) >> 31 == 1);
                    let rgb = PALETTE[usize::from(index)];
                    (index, Some(Want { rgb, limit: 16, shown: None }))
                }
            };
            indices.push(index);
            wants.push(want);
        }
        let before = indices.clone();
        let changed = rewrite(&mut indices, &wants, &PALETTE, 3);
        assert!(changed > 6_000, "only {changed} pixels joined a string");
        for ((now, was), want) in indices.iter().zip(&before).zip(&wants) {
            match want {
                None => assert_eq!(now, was, "an exact pixel changed"),
                Some(w) => assert!(dist(w.rgb, PALETTE[usize::from(*now)]) <= w.limit),
            }
        }
        // The frame's bytes as the GIF writer codes them.
        let lzw = |v: &[u8]| encode(v, 3).len();
        assert!(lzw(&indices) < lzw(&before) * 3 / 4, "{} vs {} bytes", lzw(&indices), lzw(&before));
    }
}
