import type { PagedGifs } from '@/api/generated/PagedGifs';
import { apiRequest } from '@/lib/api-client';
import { pageQuery, type PageRequest } from './query-keys';

/** GET /api/gifs/dtos/search?q&page&size → GIFs matching every word of the term. */
export const searchGifs = (term: string, request: PageRequest, signal?: AbortSignal) =>
  apiRequest<PagedGifs>(`/api/gifs/dtos/search?q=${encodeURIComponent(term)}&${pageQuery(request)}`, {
    defaultError: 'Failed to search gifs',
    ...(signal ? { signal } : {}),
  });
