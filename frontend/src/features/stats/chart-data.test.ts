import { describe, expect, it } from 'vitest';
import {
  bucketRows,
  bucketSeries,
  dailyUploadsSeries,
  distributionSeries,
  mostViewedSeries,
  pairsToSeries,
  percentages,
  toNumber,
} from './chart-data';

describe('chart data mapping', () => {
  it('reads counts sent as text; unreadable counts are 0', () => {
    expect(toNumber('12')).toBe(12);
    expect(toNumber('0.42')).toBe(0.42);
    expect(toNumber('n/a')).toBe(0);
    expect(toNumber(undefined)).toBe(0);
  });

  it('maps [label, count] pairs to labels, numbers and keys', () => {
    expect(pairsToSeries([['funny', '5'], ['cats', '3']])).toEqual({
      labels: ['funny', 'cats'],
      values: [5, 3],
      keys: ['funny', 'cats'],
    });
    expect(pairsToSeries([])).toEqual({ labels: [], values: [], keys: [] });
  });

  it('cuts most-viewed titles for the axis and keeps the full titles as keys', () => {
    const series = mostViewedSeries([['A very long dancing cat title', '40'], ['Short', '2']]);
    expect(series.labels).toEqual(['A very long dan...', 'Short']);
    expect(series.keys).toEqual(['A very long dancing cat title', 'Short']);
    expect(series.values).toEqual([40, 2]);
  });

  it('shows the daily uploads in the local date format, oldest first as sent', () => {
    const series = dailyUploadsSeries(
      [
        ['2026-01-01', '0'],
        ['2026-01-02', '4'],
        ['2026-01-07', '1'],
      ],
      'en-US',
    );
    expect(series.labels).toEqual(['1/1/2026', '1/2/2026', '1/7/2026']);
    expect(series.values).toEqual([0, 4, 1]);
    expect(series.keys).toEqual(['2026-01-01', '2026-01-02', '2026-01-07']);
  });

  it('computes percentages of the total (0 when the total is 0)', () => {
    expect(percentages([1, 3])).toEqual([25, 75]);
    expect(percentages([0, 0])).toEqual([0, 0]);
    expect(percentages([])).toEqual([]);
  });

  it('labels the tag distribution "name (xx.x%)"', () => {
    const series = distributionSeries([['funny', '2'], ['cats', '1'], ['empty', '0']]);
    expect(series.labels).toEqual(['funny (66.7%)', 'cats (33.3%)', 'empty (0.0%)']);
    expect(series.values).toEqual([2, 1, 0]);
    expect(series.keys).toEqual(['funny', 'cats', 'empty']);
  });

  it('maps [label, count, average MB] triples to rows and a count series', () => {
    const triples: Array<[string, string, string]> = [
      ['0-100KB', '3', '0.04'],
      ['100KB-500KB', '1', '0.21'],
    ];
    expect(bucketRows(triples)).toEqual([
      { label: '0-100KB', count: 3, averageMB: '0.04' },
      { label: '100KB-500KB', count: 1, averageMB: '0.21' },
    ]);
    expect(bucketSeries(triples)).toEqual({
      labels: ['0-100KB', '100KB-500KB'],
      values: [3, 1],
      keys: ['0-100KB', '100KB-500KB'],
    });
  });
});
