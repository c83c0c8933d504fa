import type { PagedGifs } from '@/api/generated/PagedGifs';
import { apiRequest } from '@/lib/api-client';
import { pageQuery, type PageRequest } from './query-keys';

/** GET /api/gifs/dtos/tag/{tag}?page&size → the GIFs carrying the tag, newest first. */
export const getGifsByTag = (tag: string, request: PageRequest, signal?: AbortSignal) =>
  apiRequest<PagedGifs>(`/api/gifs/dtos/tag/${encodeURIComponent(tag)}?${pageQuery(request)}`, {
    defaultError: 'Failed to fetch gifs by tag',
    ...(signal ? { signal } : {}),
  });
