import { queryOptions } from '@tanstack/react-query';
import type { GifStatRow } from '@/api/generated/GifStatRow';
import { apiRequest } from '@/lib/api-client';
import { loadDetailRows } from './detail-rows';
import { statsKeys } from './query-keys';

/** GET /api/stats/detailed/tag/{tag} → the GIFs carrying the tag. */
export const getGifsByTag = (tag: string, signal?: AbortSignal) =>
  apiRequest<GifStatRow[]>(`/api/stats/detailed/tag/${encodeURIComponent(tag)}`, signal ? { signal } : {});

export const gifsByTagQueryOptions = (tag: string) =>
  queryOptions({
    queryKey: statsKeys.detail({ kind: 'tag', value: tag }),
    queryFn: ({ signal }) => loadDetailRows('tag', getGifsByTag(tag, signal)),
    staleTime: 0,
    retry: false,
  });
