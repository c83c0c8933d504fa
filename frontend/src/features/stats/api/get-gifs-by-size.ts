import { queryOptions } from '@tanstack/react-query';
import type { GifStatRow } from '@/api/generated/GifStatRow';
import { apiRequest } from '@/lib/api-client';
import { loadDetailRows } from './detail-rows';
import { statsKeys } from './query-keys';

/** GET /api/stats/detailed/size/{range} → the GIFs whose original falls in the size range (a bucket label). */
export const getGifsBySize = (range: string, signal?: AbortSignal) =>
  apiRequest<GifStatRow[]>(`/api/stats/detailed/size/${encodeURIComponent(range)}`, signal ? { signal } : {});

export const gifsBySizeQueryOptions = (range: string) =>
  queryOptions({
    queryKey: statsKeys.detail({ kind: 'size', value: range }),
    queryFn: ({ signal }) => loadDetailRows('size', getGifsBySize(range, signal)),
    staleTime: 0,
    retry: false,
  });
