import { describe, expect, it } from 'vitest';
import { formatCount, formatDay, formatDecimal, formatStorage, statsSummary, truncateTitle } from './stats-format';

describe('formatStorage (base 1024, two decimals, Bytes/KB/MB/GB)', () => {
  it.each([
    [0, '0 Bytes'],
    [-5, '0 Bytes'],
    [Number.NaN, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 * 1024 - 1, '1024.00 KB'],
    [1024 * 1024, '1.00 MB'],
    [12.345 * 1024 * 1024, '12.35 MB'],
    [5 * 1024 ** 3, '5.00 GB'],
    [3 * 1024 ** 4, '3072.00 GB'],
  ])('%s bytes → %s', (bytes, text) => {
    expect(formatStorage(bytes)).toBe(text);
  });
});

describe('formatDecimal and formatCount', () => {
  it('shows averages with two decimals', () => {
    expect(formatDecimal(1.5)).toBe('1.50');
    expect(formatDecimal(2)).toBe('2.00');
    expect(formatDecimal(0.004)).toBe('0.00');
    expect(formatDecimal(3.456)).toBe('3.46');
    expect(formatDecimal(Number.POSITIVE_INFINITY)).toBe('0.00');
  });

  it('shows whole counts in the local format', () => {
    expect(formatCount(7)).toBe('7');
    expect(formatCount(1234567)).toBe((1234567).toLocaleString());
    expect(formatCount(Number.NaN)).toBe('0');
  });
});

describe('truncateTitle', () => {
  it('keeps titles of up to 15 characters', () => {
    expect(truncateTitle('')).toBe('');
    expect(truncateTitle('Fifteen chars!!')).toBe('Fifteen chars!!');
  });

  it('cuts longer titles to 15 characters plus "..."', () => {
    expect(truncateTitle('Sixteen chars!!!')).toBe('Sixteen chars!!...');
    expect(truncateTitle('A very long dancing cat title')).toBe('A very long dan...');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(truncateTitle('😀'.repeat(16))).toBe(`${'😀'.repeat(15)}...`);
  });

  it('accepts another limit', () => {
    expect(truncateTitle('abcdef', 3)).toBe('abc...');
  });
});

describe('statsSummary', () => {
  it('lists GIFs, users and views', () => {
    expect(statsSummary({ totalGifs: 12, totalUsers: 3, totalViews: 45 })).toBe('12 GIFs · 3 users · 45 views');
  });
});

describe('formatDay', () => {
  it('shows a server day in the local date format, on that calendar day', () => {
    expect(formatDay('2026-01-02', 'en-US')).toBe('1/2/2026');
    expect(formatDay('2026-12-31', 'de-DE')).toBe('31.12.2026');
    expect(formatDay('2026-01-02')).toBe(new Date(2026, 0, 2).toLocaleDateString());
  });

  it('returns anything else unchanged', () => {
    expect(formatDay('yesterday')).toBe('yesterday');
  });
});
