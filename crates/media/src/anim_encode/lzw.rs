//! GIF's LZW coder, with its dictionary open to the lossy pass ([`super::lossy`]): the pass
//! parses a frame with the very dictionary the coder then builds, so the strings it makes
//! longer are the ones the coder finds.

const NONE: u16 = u16::MAX;
/// LZW codes are at most 12 bits wide.
const MAX_CODES: usize = 4096;

/// The LZW dictionary as a tree: each code's first child and next sibling, and its last index.
/// A string that would take code 4096 empties it instead (as the `weezl` coder does).
pub(super) struct Dictionary {
    roots: usize,
    next: usize,
    first_child: Vec<u16>,
    sibling: Vec<u16>,
    pub(super) symbol: Vec<u8>,
}

impl Dictionary {
    /// For codes of `min_code_size` bits and more: that many roots, then the clear and end codes.
    pub(super) fn new(min_code_size: u8) -> Self {
        let roots = 1 << min_code_size;
        Dictionary {
            roots,
            next: roots + 2,
            first_child: vec![NONE; MAX_CODES],
            sibling: vec![NONE; MAX_CODES],
            symbol: vec![0; MAX_CODES],
        }
    }

    pub(super) fn clear_code(&self) -> u16 {
        // At most 256 roots: fits.
        self.roots as u16
    }

    /// Adds the string `parent` then `symbol`; returns false when the dictionary was full and
    /// has been emptied instead.
    pub(super) fn add(&mut self, parent: u16, symbol: u8) -> bool {
        if self.next >= MAX_CODES {
            self.first_child[..self.next].fill(NONE);
            self.next = self.roots + 2;
            return false;
        }
        let code = self.next;
        self.symbol[code] = symbol;
        self.first_child[code] = NONE;
        self.sibling[code] = self.first_child[usize::from(parent)];
        // `code` < 4096 fits.
        self.first_child[usize::from(parent)] = code as u16;
        self.next += 1;
        true
    }

    /// The children of `node`: (code, last index).
    pub(super) fn children(&self, node: u16) -> impl Iterator<Item = (u16, u8)> + '_ {
        let mut child = self.first_child[usize::from(node)];
        std::iter::from_fn(move || {
            (child != NONE).then(|| {
                let c = child;
                child = self.sibling[usize::from(c)];
                (c, self.symbol[usize::from(c)])
            })
        })
    }

    pub(super) fn child(&self, node: u16, symbol: u8) -> Option<u16> {
        self.children(node).find(|&(_, s)| s == symbol).map(|(c, _)| c)
    }
}

/// The smallest code size (2 to 8 bits) for these indices, as GIF writers choose it.
pub(super) fn min_code_size(indices: &[u8]) -> u8 {
    let max = indices.iter().copied().max().unwrap_or(0);
    (u32::from(max) + 1).max(4).next_power_of_two().trailing_zeros() as u8
}

/// LSB-first codes of growing width.
struct Bits {
    out: Vec<u8>,
    acc: u64,
    held: u32,
    width: u32,
}

impl Bits {
    fn put(&mut self, code: u16) {
        self.acc |= u64::from(code) << self.held;
        self.held += self.width;
        while self.held >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.held -= 8;
        }
    }
}

/// `indices` coded with codes of at least `min_code_size` bits, as `Encoder::
/// write_lzw_pre_encoded_frame` takes them: the code size, then the codes' bytes. It emits what
/// the `weezl` coder does (a clear code first, one when the dictionary fills, the end code),
/// except that every string it learns stays in its dictionary.
pub(super) fn encode(indices: &[u8], min_code_size: u8) -> Vec<u8> {
    let mut dict = Dictionary::new(min_code_size);
    let first_width = u32::from(min_code_size) + 1;
    let mut bits = Bits { out: Vec::with_capacity(indices.len() / 2 + 16), acc: 0, held: 0, width: first_width };
    bits.out.push(min_code_size);
    let clear = dict.clear_code();
    bits.put(clear);
    let Some((&first, rest)) = indices.split_first() else {
        bits.put(clear + 1);
        return finish(bits);
    };
    let mut node = u16::from(first);
    for &symbol in rest {
        if let Some(child) = dict.child(node, symbol) {
            node = child;
            continue;
        }
        bits.put(node);
        if dict.add(node, symbol) {
            // The code just added reached the width's limit: the next codes take a bit more.
            if dict.next > 1 << bits.width && bits.width < 12 {
                bits.width += 1;
            }
        } else {
            bits.put(clear);
            bits.width = first_width;
        }
        node = u16::from(symbol);
    }
    bits.put(node);
    // The decoder adds an entry on reading this code: its width may grow before the end code.
    if dict.next >= 1 << bits.width && bits.width < 12 {
        bits.width += 1;
    }
    bits.put(clear + 1);
    finish(bits)
}

fn finish(mut bits: Bits) -> Vec<u8> {
    if bits.held > 0 {
        bits.out.push(bits.acc as u8);
    }
    bits.out
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::{encode, min_code_size};

    /// The frame decoded back by the `gif` crate.
    fn round_trip(indices: &[u8], width: u16) -> Vec<u8> {
        let height = u16::try_from(indices.len() / usize::from(width)).unwrap();
        let mut enc = gif::Encoder::new(Vec::new(), width, height, &[0; 768]).unwrap();
        let lzw = encode(indices, min_code_size(indices));
        let frame = gif::Frame { width, height, buffer: Cow::Owned(lzw), ..gif::Frame::default() };
        enc.write_lzw_pre_encoded_frame(&frame).unwrap();
        let bytes = enc.into_inner().unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut dec = options.read_info(bytes.as_slice()).unwrap();
        dec.read_next_frame().unwrap().unwrap().buffer.to_vec()
    }

    #[test]
    fn every_kind_of_frame_decodes_to_its_indices() {
        let mut seed = 9_u32;
        let mut noise = |colors: u32| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((seed >> 16) % colors) as u8
        };
        let cases: Vec<(&str, Vec<u8>, u16)> = vec![
            ("one pixel", vec![0], 1),
            ("flat", vec![3; 640 * 48], 640),
            ("two colours of noise", (0..200 * 200).map(|_| noise(2)).collect(), 200),
            // Enough strings to fill the dictionary many times, at every code width.
            ("256 colours of noise", (0..480 * 270).map(|_| noise(256)).collect(), 480),
            ("17 colours of noise", (0..300 * 300).map(|_| noise(17)).collect(), 300),
            ("a ramp", (0..256 * 64).map(|i| (i % 256) as u8).collect(), 256),
        ];
        for (name, indices, width) in cases {
            assert_eq!(round_trip(&indices, width), indices, "{name}");
        }
    }

    #[test]
    fn the_code_size_follows_the_highest_index() {
        assert_eq!(min_code_size(&[0, 1]), 2);
        assert_eq!(min_code_size(&[4]), 3);
        assert_eq!(min_code_size(&[200]), 8);
    }
}
