import { describe, expect, it } from 'vitest';
import { gifCountLabel, moveItem } from './order';

describe('moveItem', () => {
  it('moves forwards, backwards and clamps', () => {
    expect(moveItem([1, 2, 3], 0, 2)).toEqual([2, 3, 1]);
    expect(moveItem([1, 2, 3], 2, 0)).toEqual([3, 1, 2]);
    expect(moveItem([1, 2, 3], 1, 9)).toEqual([1, 3, 2]);
    expect(moveItem([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moveItem([1, 2, 3], 5, 0)).toEqual([1, 2, 3]);
  });

  it('never changes its input', () => {
    const list = [1, 2, 3];
    moveItem(list, 0, 2);
    expect(list).toEqual([1, 2, 3]);
  });
});

describe('gifCountLabel', () => {
  it('says GIF once and GIFs otherwise', () => {
    expect(gifCountLabel(1)).toBe('1 GIF');
    expect(gifCountLabel(0)).toBe('0 GIFs');
    expect(gifCountLabel(12)).toBe('12 GIFs');
  });
});
