import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';

/** GET /api/collections/{id} (404 for someone else's private collection). */
export const getCollection = (id: number, signal?: AbortSignal) =>
  apiRequest<CollectionDto>(`/api/collections/${id}`, {
    defaultError: 'Failed to load collection',
    ...(signal ? { signal } : {}),
  });

export const collectionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: collectionKeys.detail(id),
    queryFn: ({ signal }) => getCollection(id, signal),
  });

export const useCollection = (id: number, enabled = true) => useQuery({ ...collectionQueryOptions(id), enabled });
