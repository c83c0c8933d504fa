/** Display formatting of the statistics screen (spec §2, §9). */
import type { OverviewStats } from '@/api/generated/OverviewStats';

const STORAGE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/**
 * A human-readable size, base 1024 with two decimals: `1536` → `"1.50 KB"`, `5 * 1024 ** 3` →
 * `"5.00 GB"`. Whole bytes stay whole (`"512 Bytes"`); GB is the largest unit.
 */
export function formatStorage(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), STORAGE_UNITS.length - 1);
  if (exponent <= 0) return `${Math.round(bytes)} Bytes`;
  return `${(bytes / 1024 ** exponent).toFixed(2)} ${STORAGE_UNITS[exponent]}`;
}

/** Two decimals (averages, sizes in MB); anything unreadable shows as `"0.00"`. */
export function formatDecimal(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : '0.00';
}

/** A whole count in the local format (`1234` → `"1,234"` in English). */
export function formatCount(value: number): string {
  return Number.isFinite(value) ? value.toLocaleString() : '0';
}

export const TITLE_MAX_LENGTH = 15;

/** Most-viewed titles are cut to 15 characters plus "..." when longer (spec §2, §9). */
export function truncateTitle(title: string, max: number = TITLE_MAX_LENGTH): string {
  const chars = Array.from(title);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : title;
}

/** The header summary: `"12 GIFs · 3 users · 45 views"`. */
export function statsSummary(stats: Pick<OverviewStats, 'totalGifs' | 'totalUsers' | 'totalViews'>): string {
  return `${formatCount(stats.totalGifs)} GIFs · ${formatCount(stats.totalUsers)} users · ${formatCount(stats.totalViews)} views`;
}

/**
 * A server day (`"YYYY-MM-DD"`, UTC) in the local date format, as that calendar day (not shifted
 * by the time zone). Anything else is returned as it is.
 */
export function formatDay(isoDay: string, locale?: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) return isoDay;
  const [, year, month, day] = match;
  const date = new Date(Number(year), Number(month) - 1, Number(day));
  return Number.isNaN(date.getTime()) ? isoDay : date.toLocaleDateString(locale);
}
