/** Tag editor rules (spec §5, §9). */

export const MAX_TAG_SUGGESTIONS = 8;
export const MAX_AVAILABLE_TAGS = 10;

/** Tags are trimmed and lower-cased. */
export const normalizeTag = (name: string) => name.trim().toLowerCase();

/** The selection with `name` added; blank names and duplicates are ignored. */
export function addTagTo(selected: readonly string[], name: string): string[] {
  const tag = normalizeTag(name);
  if (!tag || selected.includes(tag)) return [...selected];
  return [...selected, tag];
}

/** Names containing the typed text, except an exact match and those already chosen; at most 8. */
export function suggestTags(input: string, known: readonly string[], selected: readonly string[]): string[] {
  const query = normalizeTag(input);
  if (!query) return [];
  return known
    .filter((name) => name.includes(query) && name !== query && !selected.includes(name))
    .slice(0, MAX_TAG_SUGGESTIONS);
}

/** Quick-add buttons: the known tags (server order) not already chosen; at most 10. */
export function availableTags(known: readonly string[], selected: readonly string[]): string[] {
  return known.filter((name) => !selected.includes(name)).slice(0, MAX_AVAILABLE_TAGS);
}
