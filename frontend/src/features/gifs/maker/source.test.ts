import { describe, expect, it } from 'vitest';
import { checkSourceFile, gifDuration, sourceKind, titleFromName, webpDuration } from './source';

/** A GIF of `delays` (hundredths) 1×1 frames, with a global palette of 2 colours. */
function gif(delays: number[]): Uint8Array {
  const bytes = [...'GIF89a'].map((c) => c.charCodeAt(0));
  bytes.push(1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255);
  for (const delay of delays) {
    bytes.push(0x21, 0xf9, 4, 0, delay & 255, delay >> 8, 0, 0);
    bytes.push(0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4c, 0x01, 0);
  }
  bytes.push(0x3b);
  return new Uint8Array(bytes);
}

/** An animated WebP whose ANMF chunks last `durations` ms (the frame data left empty). */
function webp(durations: number[]): Uint8Array {
  const chunk = (tag: string, payload: number[]) => {
    const size = payload.length;
    return [...tag].map((c) => c.charCodeAt(0)).concat([size & 255, (size >> 8) & 255, 0, 0], payload, size & 1 ? [0] : []);
  };
  const body = [...'WEBP'].map((c) => c.charCodeAt(0));
  body.push(...chunk('VP8X', new Array<number>(10).fill(0)));
  body.push(...chunk('ANIM', new Array<number>(6).fill(0)));
  for (const ms of durations) body.push(...chunk('ANMF', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ms & 255, (ms >> 8) & 255, 0, 0]));
  const size = body.length;
  return new Uint8Array([...'RIFF'].map((c) => c.charCodeAt(0)).concat([size & 255, (size >> 8) & 255, 0, 0], body));
}

describe('sources', () => {
  it('tells videos from GIFs and WebPs, by type or else by name', () => {
    expect(sourceKind({ name: 'clip.mov', type: '' })).toBe('video');
    expect(sourceKind({ name: 'x', type: 'video/webm' })).toBe('video');
    expect(sourceKind({ name: 'a.MKV', type: '' })).toBe('video');
    expect(sourceKind({ name: 'cat.gif', type: '' })).toBe('image');
    expect(sourceKind({ name: 'x', type: 'image/webp' })).toBe('image');
    expect(sourceKind({ name: 'notes.txt', type: 'text/plain' })).toBeNull();
  });

  it('refuses other files and files over the limit', () => {
    expect(checkSourceFile({ name: 'a.txt', type: 'text/plain', size: 1 }, 100)?.title).toBe('Invalid File Type');
    expect(checkSourceFile({ name: 'a.mp4', type: 'video/mp4', size: 101 }, 100)?.title).toBe('File Too Large');
    expect(checkSourceFile({ name: 'a.mp4', type: 'video/mp4', size: 100 }, 100)).toBeNull();
  });

  it('offers the file name without its extension as the title', () => {
    expect(titleFromName('demo day.final.mp4')).toBe('demo day.final');
  });

  it('reads a GIF’s running time from its frame delays (0 and 1 play as 10)', () => {
    expect(gifDuration(gif([10, 20, 0]))).toBeCloseTo(0.4);
    expect(gifDuration(new Uint8Array([1, 2, 3]))).toBeNull();
  });

  it('reads an animated WebP’s running time from its frames', () => {
    expect(webpDuration(webp([100, 250, 40]))).toBeCloseTo(0.39);
    expect(webpDuration(gif([10]))).toBeNull();
  });
});
