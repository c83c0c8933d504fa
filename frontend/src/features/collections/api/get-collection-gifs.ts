import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { PagedGifs } from '@/api/generated/PagedGifs';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';

/** A collection screen loads 100 GIFs a page (reordering needs them all on screen). */
export const COLLECTION_PAGE_SIZE = 100;

/** GET /api/collections/{id}/gifs?page&size → its GIFs in the collection's order. */
export const getCollectionGifs = (id: number, page: number, signal?: AbortSignal) =>
  apiRequest<PagedGifs>(`/api/collections/${id}/gifs?page=${page}&size=${COLLECTION_PAGE_SIZE}`, {
    defaultError: 'Failed to fetch the collection’s GIFs',
    ...(signal ? { signal } : {}),
  });

export const collectionGifsQueryOptions = (id: number) =>
  infiniteQueryOptions({
    queryKey: collectionKeys.gifs(id),
    queryFn: ({ pageParam, signal }) => getCollectionGifs(id, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last: PagedGifs) => (last.hasNext ? last.currentPage + 1 : undefined),
  });

export const useCollectionGifs = (id: number, enabled = true) =>
  useInfiniteQuery({ ...collectionGifsQueryOptions(id), enabled });
