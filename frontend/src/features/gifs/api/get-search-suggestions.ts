import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SuggestionDto } from '@/api/generated/SuggestionDto';
import { apiRequest } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { gifKeys } from './query-keys';

/** Suggestions start with the second character typed (the server answers `[]` below that). */
export const SUGGEST_MIN_CHARS = 2;
/** How long typing must pause before suggestions are asked for. */
export const SUGGEST_DELAY_MS = 150;

/**
 * GET /api/search/suggestions?q= → at most 8 suggestions (tags, titles, words of the text in GIFs,
 * popular searches), best first. An answer that is not a list reads as none.
 */
export const getSearchSuggestions = async (q: string, signal?: AbortSignal): Promise<SuggestionDto[]> => {
  const answer = await apiRequest<unknown>(`/api/search/suggestions?q=${encodeURIComponent(q)}`, {
    ...(signal ? { signal } : {}),
  });
  return Array.isArray(answer) ? (answer as SuggestionDto[]) : [];
};

export const searchSuggestionsOptions = (q: string) =>
  queryOptions({
    queryKey: gifKeys.suggestions(q),
    // react-query aborts the request when its term is no longer wanted (typing went on).
    queryFn: ({ signal }) => getSearchSuggestions(q, signal),
    enabled: q.length >= SUGGEST_MIN_CHARS,
    // Suggestions are a convenience: a failure is no suggestions, never retried or shown.
    retry: false,
    staleTime: 60_000,
  });

/**
 * The suggestions for what is typed in the search box, asked for once typing pauses. While the
 * next answer is on its way the previous one stays; a failed call gives none.
 */
export function useSearchSuggestions(typed: string): SuggestionDto[] {
  const q = useDebouncedValue(typed.trim(), SUGGEST_DELAY_MS);
  const suggestions = useQuery({ ...searchSuggestionsOptions(q), placeholderData: keepPreviousData });
  // Both what is typed and what was asked for must be long enough: a term typed again after
  // clearing the box shows nothing of the earlier one.
  if (typed.trim().length < SUGGEST_MIN_CHARS || q.length < SUGGEST_MIN_CHARS || suggestions.isError) return [];
  return suggestions.data ?? [];
}
