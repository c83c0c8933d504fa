//! A GIF LZW encoder whose input pixels may be "either of two indices".
//!
//! A pixel that the viewer already shows correctly can be written either as the transparent
//! index or as the index of the colour it already has. Choosing per pixel, greedily, whichever
//! extends the current dictionary string gives the compressor much longer matches than a fixed
//! choice would (this is what `gifsicle -O2` gains from transparency).

const MAX_CODES: u16 = 4096;
const HASH_BITS: u32 = 13;
const HASH_SIZE: usize = 1 << HASH_BITS;

struct BitWriter {
    out: Vec<u8>,
    acc: u32,
    bits: u32,
}

impl BitWriter {
    #[inline]
    fn put(&mut self, code: u16, size: u32) {
        self.acc |= u32::from(code) << self.bits;
        self.bits += size;
        while self.bits >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.bits > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// The string table: `(prefix code, next index) -> code`, open addressing.
struct Table {
    keys: Vec<u32>,
    vals: Vec<u16>,
}

impl Table {
    fn new() -> Self {
        Table { keys: vec![0; HASH_SIZE], vals: vec![0; HASH_SIZE] }
    }

    fn reset(&mut self) {
        self.keys.fill(0);
    }

    #[inline]
    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
    }

    #[inline]
    fn get(&self, prefix: u16, k: u8) -> Option<u16> {
        let key = (u32::from(prefix) << 8 | u32::from(k)) + 1;
        let mut s = Self::slot(key);
        loop {
            let kk = self.keys[s];
            if kk == key {
                return Some(self.vals[s]);
            }
            if kk == 0 {
                return None;
            }
            s = (s + 1) & (HASH_SIZE - 1);
        }
    }

    #[inline]
    fn insert(&mut self, prefix: u16, k: u8, code: u16) {
        let key = (u32::from(prefix) << 8 | u32::from(k)) + 1;
        let mut s = Self::slot(key);
        while self.keys[s] != 0 {
            s = (s + 1) & (HASH_SIZE - 1);
        }
        self.keys[s] = key;
        self.vals[s] = code;
    }
}

/// Minimum code size for a colour table of `colors` entries.
pub(crate) fn min_code_size(colors: usize) -> u8 {
    let mut bits = 2u8;
    while (1usize << bits) < colors && bits < 8 {
        bits += 1;
    }
    bits
}

/// Encodes pixels as a GIF image data stream prefixed with its minimum code size (the layout
/// `gif::Encoder::write_lzw_pre_encoded_frame` expects). Pixel `i` may be written as `want[i]`
/// or `alt[i]` (equal when there is no choice). Every index must be below `1 << mcs`.
pub(crate) fn encode(want: &[u8], alt: &[u8], mcs: u8) -> Vec<u8> {
    let mcs = mcs.clamp(2, 8);
    let clear: u16 = 1 << mcs;
    let eoi = clear + 1;
    let mut w = BitWriter { out: Vec::with_capacity(want.len() / 2 + 16), acc: 0, bits: 0 };
    w.out.push(mcs);
    let mut table = Table::new();
    let base_size = u32::from(mcs) + 1;
    let mut size = base_size;
    let mut next = eoi + 1;
    w.put(clear, size);
    let mut cur: Option<u16> = None;
    // The index chosen for the previous pixel, to prefer continuing runs.
    let mut last = 0u8;
    for (&a, &b) in want.iter().zip(alt) {
        let Some(c) = cur else {
            let v = if b != a && last != a { b } else { a };
            cur = Some(u16::from(v));
            last = v;
            continue;
        };
        if b != a {
            if let Some(n) = table.get(c, b) {
                cur = Some(n);
                last = b;
                continue;
            }
        }
        if let Some(n) = table.get(c, a) {
            cur = Some(n);
            last = a;
            continue;
        }
        w.put(c, size);
        if next > (1 << size) - 1 && size < 12 {
            size += 1;
        }
        let v = if b != a && last != a { b } else { a };
        if next < MAX_CODES {
            table.insert(c, v, next);
            next += 1;
        } else {
            w.put(clear, size);
            table.reset();
            size = base_size;
            next = eoi + 1;
        }
        cur = Some(u16::from(v));
        last = v;
    }
    if let Some(c) = cur {
        w.put(c, size);
        if next > (1 << size) - 1 && size < 12 {
            size += 1;
        }
    }
    w.put(eoi, size);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(data: &[u8], n: usize) -> Vec<u8> {
        let mut d = weezl_like(data[0]);
        let mut out = Vec::new();
        d.decode(&data[1..], &mut out);
        out.truncate(n);
        out
    }

    /// A tiny reference GIF LZW decoder (independent of the encoder above).
    struct Dec {
        mcs: u8,
    }
    fn weezl_like(mcs: u8) -> Dec {
        Dec { mcs }
    }
    impl Dec {
        fn decode(&mut self, data: &[u8], out: &mut Vec<u8>) {
            let clear = 1u16 << self.mcs;
            let eoi = clear + 1;
            let mut dict: Vec<Vec<u8>> = Vec::new();
            let reset = |dict: &mut Vec<Vec<u8>>| {
                dict.clear();
                for i in 0..clear {
                    dict.push(vec![i as u8]);
                }
                dict.push(vec![]);
                dict.push(vec![]);
            };
            reset(&mut dict);
            let mut size = u32::from(self.mcs) + 1;
            let (mut acc, mut bits, mut pos) = (0u32, 0u32, 0usize);
            let mut prev: Option<Vec<u8>> = None;
            loop {
                while bits < size {
                    acc |= u32::from(data[pos]) << bits;
                    pos += 1;
                    bits += 8;
                }
                let code = (acc & ((1 << size) - 1)) as u16;
                acc >>= size;
                bits -= size;
                if code == clear {
                    reset(&mut dict);
                    size = u32::from(self.mcs) + 1;
                    prev = None;
                    continue;
                }
                if code == eoi {
                    return;
                }
                let entry = if usize::from(code) < dict.len() {
                    dict[usize::from(code)].clone()
                } else {
                    let p = prev.clone().unwrap();
                    let mut e = p.clone();
                    e.push(p[0]);
                    e
                };
                if let Some(p) = prev {
                    if dict.len() < 4096 {
                        let mut e = p;
                        e.push(entry[0]);
                        dict.push(e);
                    }
                }
                if dict.len() == (1 << size) && size < 12 {
                    size += 1;
                }
                out.extend_from_slice(&entry);
                prev = Some(entry);
            }
        }
    }

    fn noise(n: usize, seed: u32, modulo: u32) -> Vec<u8> {
        let mut s = seed | 1;
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                (s % modulo) as u8
            })
            .collect()
    }

    #[test]
    fn round_trips_fixed_pixels() {
        for (n, m, mcs) in [(1, 2, 2), (10, 4, 2), (50_000, 256, 8), (70_000, 3, 2), (9000, 17, 5)] {
            let px = noise(n, n as u32, m);
            let enc = encode(&px, &px, mcs);
            assert_eq!(decode(&enc, n), px, "n={n} m={m}");
        }
        let runs: Vec<u8> = (0..100_000).map(|i| ((i / 5000) % 7) as u8).collect();
        assert_eq!(decode(&encode(&runs, &runs, 3), runs.len()), runs);
    }

    #[test]
    fn flexible_pixels_decode_to_an_allowed_value_and_shrink() {
        let n = 60_000;
        let want = noise(n, 7, 200);
        let flex = noise(n, 9, 4);
        let alt: Vec<u8> = want.iter().zip(&flex).map(|(&a, &f)| if f != 0 { 255 } else { a }).collect();
        let enc = encode(&want, &alt, 8);
        let got = decode(&enc, n);
        for i in 0..n {
            assert!(got[i] == want[i] || got[i] == alt[i], "pixel {i}");
        }
        assert!(enc.len() < encode(&want, &want, 8).len());
    }
}
