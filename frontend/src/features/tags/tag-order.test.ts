import { describe, expect, it } from 'vitest';
import type { TagDto } from '@/api/generated/TagDto';
import { cloudTags, sortTags } from './tag-order';

const tag = (id: number, name: string, count: number): TagDto => ({ id, name, count });

describe('tag order', () => {
  it('sorts by count descending, then name, without changing the input', () => {
    const input = [tag(1, 'zebra', 2), tag(2, 'apple', 0), tag(3, 'cats', 5), tag(4, 'bee', 2)];
    expect(sortTags(input).map((t) => t.name)).toEqual(['cats', 'bee', 'zebra', 'apple']);
    expect(input.map((t) => t.name)).toEqual(['zebra', 'apple', 'cats', 'bee']);
  });

  it('the cloud keeps only tags with a count above 0, in the same order (not shuffled)', () => {
    const input = [tag(1, 'b', 1), tag(2, 'empty', 0), tag(3, 'a', 1), tag(4, 'top', 9)];
    expect(cloudTags(input).map((t) => t.name)).toEqual(['top', 'a', 'b']);
    expect(cloudTags(input)).toEqual(cloudTags(input));
    expect(cloudTags([tag(1, 'none', 0)])).toEqual([]);
  });
});
