import { queryOptions } from '@tanstack/react-query';
import type { GifStatRow } from '@/api/generated/GifStatRow';
import { apiRequest } from '@/lib/api-client';
import { loadDetailRows } from './detail-rows';
import { statsKeys } from './query-keys';

/** GET /api/stats/detailed/content-type?type= → the GIFs stored with that content type. */
export const getGifsByContentType = (type: string, signal?: AbortSignal) =>
  apiRequest<GifStatRow[]>(`/api/stats/detailed/content-type?type=${encodeURIComponent(type)}`, signal ? { signal } : {});

export const gifsByContentTypeQueryOptions = (type: string) =>
  queryOptions({
    queryKey: statsKeys.detail({ kind: 'content-type', value: type }),
    queryFn: ({ signal }) => loadDetailRows('content-type', getGifsByContentType(type, signal)),
    staleTime: 0,
    retry: false,
  });
