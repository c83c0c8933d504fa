import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { apiRequest } from '../api-client';
import { collectionKeys } from './query-keys';

/** GET /api/collections → every team collection and the caller's private ones. */
export const getCollections = (signal?: AbortSignal) =>
  apiRequest<CollectionDto[]>('/api/collections', {
    defaultError: 'Failed to fetch collections',
    ...(signal ? { signal } : {}),
  });

export const collectionsQueryOptions = () =>
  queryOptions({
    queryKey: collectionKeys.list(),
    queryFn: ({ signal }) => getCollections(signal),
  });

export const useCollections = (enabled = true) => useQuery({ ...collectionsQueryOptions(), enabled });
