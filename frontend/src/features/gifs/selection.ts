import type { BulkResult } from '@/api/generated/BulkResult';

/**
 * The ids selected after a click on the card at `index` of `ids` (the cards on screen, in order):
 * a plain click toggles that card; a shift-click selects every card between the last one clicked
 * (`anchor`) and this one.
 */
export function toggleSelection(
  selected: ReadonlySet<number>,
  ids: readonly number[],
  index: number,
  anchor: number | null,
  shift: boolean,
): Set<number> {
  const next = new Set(selected);
  const id = ids[index];
  if (id === undefined) return next;
  if (shift && anchor !== null && anchor >= 0 && anchor < ids.length) {
    const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
    for (const each of ids.slice(from, to + 1)) next.add(each);
    return next;
  }
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

const gifs = (n: number) => `${n} ${n === 1 ? 'GIF' : 'GIFs'}`;

/** The toast of a bulk action: what was done, and what was not (never silently skipped). */
export function bulkSummary(done: string, results: readonly BulkResult[]): { ok: boolean; message: string } {
  const count = (status: BulkResult['status']) => results.filter((r) => r.status === status).length;
  const applied = count('ok');
  const forbidden = count('forbidden');
  const missing = count('not_found');
  const parts = [`${done} ${gifs(applied)}`];
  if (forbidden > 0) parts.push(`${gifs(forbidden)} not yours to change`);
  if (missing > 0) parts.push(`${gifs(missing)} no longer ${missing === 1 ? 'exists' : 'exist'}`);
  return { ok: forbidden === 0 && missing === 0, message: parts.join('; ') };
}

/** "cats, Funny dogs ,," → ["cats", "Funny dogs"]. */
export const parseTagInput = (raw: string) =>
  raw
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
