/** Mapping of the stats lists (pairs and triples of text, spec §3) to chart series. */
import { formatDay, truncateTitle } from './stats-format';

export type Series = {
  /** What the chart shows on its axis or legend. */
  labels: string[];
  values: number[];
  /** The server's names, in the same order (what a click opens and tooltips show). */
  keys: string[];
};

/** A count sent as text; anything unreadable counts as 0. */
export function toNumber(text: string | undefined): number {
  const value = Number(text);
  return Number.isFinite(value) ? value : 0;
}

/** `[label, count]` pairs → labels and numbers, with an optional display form of the label. */
export function pairsToSeries(
  pairs: ReadonlyArray<readonly [string, string]>,
  display: (label: string) => string = (label) => label,
): Series {
  return {
    labels: pairs.map(([label]) => display(label)),
    values: pairs.map(([, count]) => toNumber(count)),
    keys: pairs.map(([label]) => label),
  };
}

/** Most viewed GIFs: titles cut to 15 characters plus "...". */
export const mostViewedSeries = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairsToSeries(pairs, (title) => truncateTitle(title));

/** Daily uploads: the 7 days in the local date format, oldest first (as the server sends them). */
export const dailyUploadsSeries = (pairs: ReadonlyArray<readonly [string, string]>, locale?: string) =>
  pairsToSeries(pairs, (day) => formatDay(day, locale));

/** Share of each value in the total, in percent (0 when the total is 0). */
export function percentages(values: readonly number[]): number[] {
  const total = values.reduce((sum, value) => sum + value, 0);
  return values.map((value) => (total > 0 ? (value / total) * 100 : 0));
}

/** Tag distribution: labels `"name (xx.x%)"`. */
export function distributionSeries(pairs: ReadonlyArray<readonly [string, string]>): Series {
  const series = pairsToSeries(pairs);
  const shares = percentages(series.values);
  return {
    ...series,
    labels: series.keys.map((name, index) => `${name} (${(shares[index] ?? 0).toFixed(1)}%)`),
  };
}

export type BucketRow = {
  label: string;
  count: number;
  /** Average size in MB, as the server sends it (e.g. "0.42"). */
  averageMB: string;
};

/** Size buckets and content types: `[label, count, average MB]` triples. */
export function bucketRows(triples: ReadonlyArray<readonly [string, string, string]>): BucketRow[] {
  return triples.map(([label, count, averageMB]) => ({ label, count: toNumber(count), averageMB }));
}

export function bucketSeries(triples: ReadonlyArray<readonly [string, string, string]>): Series {
  const rows = bucketRows(triples);
  return {
    labels: rows.map((row) => row.label),
    values: rows.map((row) => row.count),
    keys: rows.map((row) => row.label),
  };
}
