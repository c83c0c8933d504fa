import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TagDto } from '@/api/generated/TagDto';
import { apiRequest } from '../api-client';
import { tagKeys } from './query-keys';

/** GET /api/tags → every tag with its GIF count, by count descending then name. */
export const getTags = (signal?: AbortSignal) =>
  apiRequest<TagDto[]>('/api/tags', {
    defaultError: 'Failed to fetch tags',
    ...(signal ? { signal } : {}),
  });

export const tagsQueryOptions = () =>
  queryOptions({
    queryKey: tagKeys.list(),
    queryFn: ({ signal }) => getTags(signal),
  });

export const useTags = () => useQuery(tagsQueryOptions());
