import type { GifStatRow } from '@/api/generated/GifStatRow';
import type { UserStatRow } from '@/api/generated/UserStatRow';

/** The rows of a detail modal: GIF rows for a size range, tag or content type; user rows for an activity level. */
export type DetailRows =
  | { kind: 'size' | 'tag' | 'content-type'; rows: GifStatRow[] }
  | { kind: 'activity'; rows: UserStatRow[] };

/**
 * Awaits a detail fetch. A failure is logged and becomes an empty list (spec §4 "Detail modal":
 * the modal then shows "No data available").
 */
export async function loadDetailRows<K extends DetailRows['kind']>(
  kind: K,
  request: Promise<K extends 'activity' ? UserStatRow[] : GifStatRow[]>,
): Promise<DetailRows> {
  try {
    const rows = await request;
    return { kind, rows: Array.isArray(rows) ? rows : [] } as DetailRows;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.error(`Failed to fetch ${kind} details`, error);
    return { kind, rows: [] };
  }
}
