import type { PagedGifs } from '@/api/generated/PagedGifs';
import { apiRequest } from '@/lib/api-client';
import { pageQuery, type PageRequest } from './query-keys';

/** GET /api/gifs/dtos/user/{username}?page&size → one uploader's GIFs, newest first. */
export const getGifsByUser = (username: string, request: PageRequest, signal?: AbortSignal) =>
  apiRequest<PagedGifs>(
    `/api/gifs/dtos/user/${encodeURIComponent(username)}?${pageQuery(request)}`,
    { defaultError: 'Failed to fetch user gifs', ...(signal ? { signal } : {}) },
  );
