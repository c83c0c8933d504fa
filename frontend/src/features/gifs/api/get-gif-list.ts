import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { PagedGifs } from '@/api/generated/PagedGifs';
import { getFavourites } from './get-favourites';
import { getGifs } from './get-gifs';
import { getGifsByTag } from './get-gifs-by-tag';
import { getGifsByUser } from './get-gifs-by-user';
import { searchGifs } from './search-gifs';
import { GIF_PAGE_SIZE, gifKeys, type GifFilter, type GifSort } from './query-keys';

/** One page of the gallery's list, in `sort` order, from the endpoint that matches the filter. */
export function fetchGifPage(
  filter: GifFilter,
  page: number,
  signal?: AbortSignal,
  sort: GifSort = 'newest',
): Promise<PagedGifs> {
  const request = { page, size: GIF_PAGE_SIZE, sort };
  switch (filter.kind) {
    case 'favourites':
      return getFavourites(request, signal);
    case 'search':
      return searchGifs(filter.term, request, signal);
    case 'tag':
      return getGifsByTag(filter.tag, request, signal);
    case 'user':
      return getGifsByUser(filter.username, request, signal);
    case 'all':
      return getGifs(request, signal);
  }
}

/**
 * The gallery list (spec §4): page 0 first, "Load More" appends the next page while hasNext.
 * Each filter has its own cache entry, so a filter change starts again at page 0.
 */
export const gifListQueryOptions = (filter: GifFilter, sort: GifSort = 'newest') =>
  infiniteQueryOptions<PagedGifs, Error, InfiniteData<PagedGifs, number>, ReturnType<typeof gifKeys.list>, number>({
    queryKey: gifKeys.list(filter, sort),
    queryFn: ({ pageParam, signal }) => fetchGifPage(filter, pageParam, signal, sort),
    initialPageParam: 0,
    getNextPageParam: (last: PagedGifs) => (last.hasNext ? last.currentPage + 1 : undefined),
  });

export const useGifList = (filter: GifFilter, sort: GifSort = 'newest') =>
  useInfiniteQuery(gifListQueryOptions(filter, sort));
