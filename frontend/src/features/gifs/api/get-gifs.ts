import type { PagedGifs } from '@/api/generated/PagedGifs';
import { apiRequest } from '@/lib/api-client';
import { pageQuery, type PageRequest } from './query-keys';

/** GET /api/gifs/dtos?page&size → every GIF, newest first. */
export const getGifs = (request: PageRequest, signal?: AbortSignal) =>
  apiRequest<PagedGifs>(`/api/gifs/dtos?${pageQuery(request)}`, {
    defaultError: 'Failed to fetch gifs',
    ...(signal ? { signal } : {}),
  });
