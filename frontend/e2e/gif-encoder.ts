/**
 * Builds small test images in code, so the e2e suite depends on no file outside the repository.
 * `animatedGif` encodes a GIF89a with a global palette, a looping NETSCAPE2.0 extension and one
 * graphic control extension per frame. Pixels are LZW-"compressed" the simple way: 9-bit literal
 * codes with a clear code often enough that the code width never grows (valid for any decoder);
 * `compression: 'lzw'` compresses for real, for large frames (`photoLikeGif`).
 */

import { randomBytes } from 'node:crypto';

export type Rgb = readonly [number, number, number];

const MIN_CODE_SIZE = 8;
const CLEAR = 1 << MIN_CODE_SIZE; // 256
const END = CLEAR + 1; // 257
const CODE_BITS = MIN_CODE_SIZE + 1; // 9
/** Literals between clear codes: the table grows by one per code after the first; stay below 512. */
const RUN = (1 << MIN_CODE_SIZE) - 2;

function lzwLiteral(indices: Uint8Array): Uint8Array {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  const put = (code: number) => {
    buffer |= code << bits;
    bits += CODE_BITS;
    while (bits >= 8) {
      out.push(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  };
  for (let i = 0; i < indices.length; i += 1) {
    if (i % RUN === 0) put(CLEAR);
    put(indices[i] ?? 0);
  }
  put(END);
  if (bits > 0) out.push(buffer & 0xff);
  return Uint8Array.from(out);
}

/**
 * Real LZW (variable code width up to 12 bits, a clear code when the table is full), for images
 * whose literal encoding would be too big to upload, such as photo-like frames.
 */
export function lzwCompress(indices: Uint8Array): Uint8Array {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  let codeSize = CODE_BITS;
  const put = (code: number) => {
    buffer |= code << bits;
    bits += codeSize;
    while (bits >= 8) {
      out.push(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  };
  const table = new Map<number, number>();
  let next = END + 1;
  put(CLEAR);
  let prefix = indices[0] ?? 0;
  for (let i = 1; i < indices.length; i += 1) {
    const byte = indices[i] ?? 0;
    const key = prefix * 256 + byte;
    const known = table.get(key);
    if (known !== undefined) {
      prefix = known;
      continue;
    }
    put(prefix);
    if (next < 4096) {
      table.set(key, next);
      next += 1;
      // The decoder widens its codes one entry later than the encoder adds them.
      if (next > 1 << codeSize && codeSize < 12) codeSize += 1;
    } else {
      put(CLEAR);
      table.clear();
      next = END + 1;
      codeSize = CODE_BITS;
    }
    prefix = byte;
  }
  put(prefix);
  put(END);
  if (bits > 0) out.push(buffer & 0xff);
  return Uint8Array.from(out);
}

function subBlocks(data: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const chunk = data.subarray(i, i + 255);
    out.push(chunk.length, ...chunk);
  }
  out.push(0);
  return out;
}

const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];

export type GifSpec = {
  width: number;
  height: number;
  /** Up to 256 colours. */
  palette: readonly Rgb[];
  /** One palette index per pixel, row by row, for each frame. */
  frames: readonly Uint8Array[];
  /** Frame delay in hundredths of a second. */
  delay?: number;
  /** `literal` (default): 9-bit literal codes; `lzw`: real compression (`lzwCompress`). */
  compression?: 'literal' | 'lzw';
  /** A palette index drawn as transparent (none by default). */
  transparent?: number;
};

export function encodeGif({
  width,
  height,
  palette,
  frames,
  delay = 10,
  compression = 'literal',
  transparent,
}: GifSpec): Buffer {
  const compress = compression === 'lzw' ? lzwCompress : lzwLiteral;
  const bytes: number[] = [];
  bytes.push(...Buffer.from('GIF89a', 'ascii'));
  // Logical screen: global colour table of 256 entries (size field 7), 8 bits of colour resolution.
  bytes.push(...u16(width), ...u16(height), 0xf7, 0, 0);
  for (let i = 0; i < 256; i += 1) {
    const [r, g, b] = palette[i] ?? [0, 0, 0];
    bytes.push(r, g, b);
  }
  // Loop forever.
  bytes.push(0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'ascii'), 0x03, 0x01, 0, 0, 0);
  for (const frame of frames) {
    if (frame.length !== width * height) throw new Error('frame size does not match the image');
    // Graphic control: keep the frame; the transparency flag and index when there is one.
    bytes.push(0x21, 0xf9, 0x04, transparent === undefined ? 0x04 : 0x05, ...u16(delay), transparent ?? 0, 0);
    bytes.push(0x2c, ...u16(0), ...u16(0), ...u16(width), ...u16(height), 0); // image descriptor
    bytes.push(MIN_CODE_SIZE);
    for (const byte of subBlocks(compress(frame))) bytes.push(byte); // no spread: frames can be large
  }
  bytes.push(0x3b);
  return Buffer.from(bytes);
}

const PALETTE: Rgb[] = [
  [98, 70, 234],
  [228, 69, 143],
  [22, 163, 74],
  [250, 204, 21],
  [255, 255, 255],
  [23, 23, 43],
];

/** The palette index `animatedGif` draws as transparent. */
const TRANSPARENT = 6;

/** Calls of `animatedGif` in this process, part of each image's mark. */
let made = 0;

/**
 * A small animated GIF (default 96 × 72, 4 frames): a coloured square moving over a gradient
 * background. `seed` changes the colours. Every call gives a different file (the library refuses
 * byte-identical uploads, and every spec shares one server): the bottom row of the first frame
 * carries a random mark. Upload the same Buffer twice to test duplicates.
 */
export function animatedGif({ width = 96, height = 72, frameCount = 4, seed = 0 } = {}): Buffer {
  made += 1;
  const mark = (randomBytes(4).readUInt32BE(0) ^ made) >>> 0;
  const frames: Uint8Array[] = [];
  const size = Math.floor(height / 2);
  for (let f = 0; f < frameCount; f += 1) {
    const pixels = new Uint8Array(width * height);
    const x0 = Math.floor(((width - size) * f) / Math.max(1, frameCount - 1));
    const y0 = Math.floor((height - size) / 2);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const inside = x >= x0 && x < x0 + size && y >= y0 && y < y0 + size;
        pixels[y * width + x] = inside ? (seed + 1 + f) % 4 : y < height / 2 ? 4 : 5;
      }
    }
    // One transparent corner pixel: the server then never prefers a video (which has no
    // transparency) over this GIF, so the screens show it as a GIF before and after its
    // renditions job ran, and the specs see the same page either way.
    pixels[0] = TRANSPARENT;
    if (f === 0) {
      for (let bit = 0; bit < Math.min(32, width); bit += 1) {
        pixels[(height - 1) * width + bit] = (mark >>> bit) & 1 ? 4 : 5;
      }
    }
    frames.push(pixels);
  }
  return encodeGif({ width, height, palette: PALETTE, frames, delay: 20, transparent: TRANSPARENT });
}

/** The palette index `photoLikeGif` leaves transparent around a sticker (after its 252 colours). */
const CUT_OUT = 252;

/**
 * A "photo-like" animated GIF (default 400 × 300, 24 frames, opaque): smooth colour gradients,
 * ordered-dithered into a 252-colour palette, panning 10 px a frame, so every pixel changes every
 * frame. GIF compresses it badly and H.264/VP9 very well (the pan is an exact translation, also at
 * the 4/5 scale of a 320-wide rendition), so the server prefers its videos. Every call differs.
 * With `sticker`, only a disc in the middle is drawn and the rest is transparent: a transparent
 * animation, which no video may play, whose animated WebP is far smaller than the GIF.
 */
export function photoLikeGif({ width = 400, height = 300, frameCount = 24, sticker = false } = {}): Buffer {
  const levels = [6, 7, 6] as const;
  const palette: Rgb[] = [];
  for (let r = 0; r < levels[0]; r += 1)
    for (let g = 0; g < levels[1]; g += 1)
      for (let b = 0; b < levels[2]; b += 1)
        palette.push([
          Math.round((r * 255) / (levels[0] - 1)),
          Math.round((g * 255) / (levels[1] - 1)),
          Math.round((b * 255) / (levels[2] - 1)),
        ]);
  const bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
  const phase = (randomBytes(2).readUInt16BE(0) / 65536) * Math.PI * 2;
  const frames: Uint8Array[] = [];
  for (let f = 0; f < frameCount; f += 1) {
    const pixels = new Uint8Array(width * height);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        // Content coordinates: the picture (dither included) moves as one.
        const u = x + 10 * f;
        const v = y + 10 * f;
        const threshold = ((bayer[(v % 4) * 4 + (u % 4)] ?? 0) + 0.5) / 16;
        const channel = (value: number, count: number) =>
          Math.min(count - 1, Math.floor(((value + 1) / 2) * (count - 1) + threshold));
        const r = channel(Math.sin(u / 47 + phase) * 0.6 + Math.sin(v / 83) * 0.4, levels[0]);
        const g = channel(Math.sin(v / 61 - u / 131 + 1 + phase) * 0.7 + Math.cos(u / 29) * 0.3, levels[1]);
        const b = channel(Math.sin((u + v) / 71 + 2) * 0.8 + Math.cos(v / 37 + phase) * 0.2, levels[2]);
        const outside = sticker && Math.hypot(x - width / 2, y - height / 2) > Math.min(width, height) * 0.45;
        pixels[y * width + x] = outside ? CUT_OUT : (r * levels[1] + g) * levels[2] + b;
      }
    }
    frames.push(pixels);
  }
  return encodeGif({ width, height, palette, frames, delay: 8, compression: 'lzw', transparent: sticker ? CUT_OUT : undefined });
}
