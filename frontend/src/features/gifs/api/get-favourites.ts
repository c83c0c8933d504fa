import type { PagedGifs } from '@/api/generated/PagedGifs';
import { apiRequest } from '@/lib/api-client';
import { pageQuery, type PageRequest } from './query-keys';

/** GET /api/gifs/dtos/favourites?page&size → your favourites, newest favourited first. */
export const getFavourites = (request: PageRequest, signal?: AbortSignal) =>
  apiRequest<PagedGifs>(`/api/gifs/dtos/favourites?${pageQuery(request)}`, {
    defaultError: 'Failed to fetch favourites',
    ...(signal ? { signal } : {}),
  });
