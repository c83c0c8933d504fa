import { useQuery } from '@tanstack/react-query';
import type { DuplicateGroupsDto } from '@/api/generated/DuplicateGroupsDto';
import type { GifLinkDto } from '@/api/generated/GifLinkDto';
import { apiRequest } from '@/lib/api-client';
import { gifKeys } from './query-keys';

/** GET /api/gifs/{id}/looks-like → the GIFs this one looks like (near duplicates), closest first. */
export const getLooksLike = (id: number, signal?: AbortSignal) =>
  apiRequest<GifLinkDto[]>(`/api/gifs/${id}/looks-like`, {
    defaultError: 'Failed to load similar GIFs',
    ...(signal ? { signal } : {}),
  });

export const useLooksLike = (id: number) =>
  useQuery({
    queryKey: [...gifKeys.detail(id), 'looks-like'] as const,
    queryFn: ({ signal }) => getLooksLike(id, signal),
  });

/** GET /api/admin/duplicates → groups of near-duplicate GIFs (admins). */
export const getDuplicateGroups = (signal?: AbortSignal) =>
  apiRequest<DuplicateGroupsDto>('/api/admin/duplicates', {
    defaultError: 'Failed to load duplicates',
    ...(signal ? { signal } : {}),
  });

export const useDuplicateGroups = () =>
  useQuery({
    queryKey: [...gifKeys.all, 'duplicate-groups'] as const,
    queryFn: ({ signal }) => getDuplicateGroups(signal),
  });
