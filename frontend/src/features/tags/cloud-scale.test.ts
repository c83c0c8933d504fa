import { describe, expect, it } from 'vitest';
import type { TagDto } from '@/api/generated/TagDto';
import {
  CLOUD_EQUAL_FONT_PX,
  CLOUD_MAX_FONT_PX,
  CLOUD_MIN_FONT_PX,
  buildCloud,
  cloudFontSize,
  cloudLevel,
  cloudTagLabel,
} from './cloud-scale';

const tag = (id: number, name: string, count: number): TagDto => ({ id, name, count });

describe('cloud font scaling', () => {
  it('is 14 px at the smallest count and 72 px at the largest', () => {
    expect(CLOUD_MIN_FONT_PX).toBe(14);
    expect(CLOUD_MAX_FONT_PX).toBe(72);
    expect(cloudFontSize(1, 1, 10)).toBe(14);
    expect(cloudFontSize(10, 1, 10)).toBe(72);
  });

  it('is linear in between (rounded to whole pixels)', () => {
    expect(cloudFontSize(3, 1, 5)).toBe(43);
    expect(cloudFontSize(2, 1, 5)).toBe(Math.round(14 + 58 / 4));
    const sizes = [1, 2, 3, 4, 5].map((n) => cloudFontSize(n, 1, 5));
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
  });

  it('a single tag, or all counts equal, gets the middle size, 43 px', () => {
    expect(CLOUD_EQUAL_FONT_PX).toBe(43);
    expect(cloudFontSize(7, 7, 7)).toBe(43);
    expect(cloudLevel(7, 7, 7)).toBe(3);
    expect(buildCloud([tag(1, 'alone', 4)])).toEqual([{ id: 1, name: 'alone', count: 4, fontSize: 43, level: 3 }]);
    expect(buildCloud([tag(1, 'a', 2), tag(2, 'b', 2)]).map((t) => t.fontSize)).toEqual([43, 43]);
  });

  it('stays within 14..72 for counts outside the range', () => {
    expect(cloudFontSize(0, 1, 10)).toBe(14);
    expect(cloudFontSize(99, 1, 10)).toBe(72);
  });

  it('levels run from 1 (smallest) to 5 (largest)', () => {
    expect([1, 2, 3, 4, 5].map((n) => cloudLevel(n, 1, 5))).toEqual([1, 2, 3, 4, 5]);
  });

  it('builds the cloud from the tags with GIFs, biggest first, scaled over the shown counts', () => {
    const cloud = buildCloud([tag(1, 'rare', 1), tag(2, 'empty', 0), tag(3, 'top', 9), tag(4, 'mid', 5)]);
    expect(cloud.map((t) => [t.name, t.fontSize, t.level])).toEqual([
      ['top', 72, 5],
      ['mid', 43, 3],
      ['rare', 14, 1],
    ]);
    expect(buildCloud([])).toEqual([]);
    expect(buildCloud([tag(1, 'empty', 0)])).toEqual([]);
  });

  it('labels each tag with its count', () => {
    expect(cloudTagLabel({ name: 'cats', count: 3 })).toBe('cats: 3 GIFs');
    expect(cloudTagLabel({ name: 'dogs', count: 1 })).toBe('dogs: 1 GIF');
  });
});
