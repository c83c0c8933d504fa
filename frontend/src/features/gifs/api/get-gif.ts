import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GifDto } from '@/api/generated/GifDto';
import { apiRequest } from '@/lib/api-client';
import { gifKeys } from './query-keys';

/** GET /api/gifs/dto/{id} → one GIF (the server counts a view); 404 when it does not exist. */
export const getGif = (id: number, signal?: AbortSignal) =>
  apiRequest<GifDto>(`/api/gifs/dto/${id}`, {
    defaultError: 'Failed to load GIF',
    ...(signal ? { signal } : {}),
  });

export const gifQueryOptions = (id: number) =>
  queryOptions({
    queryKey: gifKeys.detail(id),
    queryFn: ({ signal }) => getGif(id, signal),
  });

export const useGif = (id: number, enabled = true) => useQuery({ ...gifQueryOptions(id), enabled });
