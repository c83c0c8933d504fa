import { describe, expect, it } from 'vitest';
import { displayHeight, formatDate, formatDimensions, formatKB, toMB } from './format';

describe('format', () => {
  it.each([
    [0, '0.00 KB'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [123_456, '120.56 KB'],
  ])('formatKB(%i) = %s', (bytes, text) => expect(formatKB(bytes)).toBe(text));

  it.each([
    [10 * 1024 * 1024, '10.00'],
    [11 * 1024 * 1024 + 5 * 1024, '11.00'],
    [1_572_864, '1.50'],
    [123, '0.00'],
  ])('toMB(%i) = %s', (bytes, text) => expect(toMB(bytes)).toBe(text));

  it('shows heights as 3/4 of the width, rounded', () => {
    expect(displayHeight(320)).toBe(240);
    expect(displayHeight(401)).toBe(301);
    expect(displayHeight(0)).toBe(0);
    expect(formatDimensions(320)).toBe('320 × 240');
  });

  it('shows a date alone, or the text when it is no date', () => {
    expect(formatDate('2026-03-04T10:00:00Z')).toBe(new Date('2026-03-04T10:00:00Z').toLocaleDateString());
    expect(formatDate('soon')).toBe('soon');
  });
});
