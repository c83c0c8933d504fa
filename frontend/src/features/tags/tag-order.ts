import type { TagDto } from '@/api/generated/TagDto';

/** Code-point order, like the server's ORDER BY name (no locale surprises). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The tag list order of spec §2/§9: count descending, then name. Returns a new array. */
export function sortTags(tags: readonly TagDto[]): TagDto[] {
  return [...tags].sort((a, b) => b.count - a.count || byName(a.name, b.name));
}

/** The tags the cloud shows (spec §2): count above 0, by count descending then name, not shuffled. */
export function cloudTags(tags: readonly TagDto[]): TagDto[] {
  return sortTags(tags.filter((tag) => tag.count > 0));
}
