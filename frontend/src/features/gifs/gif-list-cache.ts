/**
 * The GIF list state of spec §4, kept in the react-query cache (one infinite query per filter):
 * - page 0 replaces the list, later pages append (useInfiniteQuery, see api/get-gif-list.ts);
 * - upload success empties every list and resets paging (`applyGifUploaded`);
 * - update replaces the matching item in every list and the detail (`applyGifUpdated`);
 * - delete removes the item and lowers the total by one, not below 0 (`applyGifDeleted`);
 * - a filter or search change starts again from page 0 (`resetOtherGifLists`);
 * - a star sets the GIF's favourite state in every list and the detail at once, and takes an
 *   unstarred GIF out of the favourites lists (`applyFavourite`); the caller rolls back on error.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { GifDto } from '@/api/generated/GifDto';
import type { PagedGifs } from '@/api/generated/PagedGifs';
import { gifKeys, type GifFilter, type GifSort } from './api/query-keys';

export type GifListData = InfiniteData<PagedGifs, number>;

/** The loaded GIFs in order, each once (a GIF can move to the next page when others are added). */
export function flattenGifs(data: GifListData | undefined): GifDto[] {
  if (!data) return [];
  const seen = new Set<number>();
  const gifs: GifDto[] = [];
  for (const page of data.pages) {
    for (const gif of page.content) {
      if (seen.has(gif.id)) continue;
      seen.add(gif.id);
      gifs.push(gif);
    }
  }
  return gifs;
}

/** The total the server reported with the latest page. */
export function listTotal(data: GifListData | undefined): number {
  return data?.pages.at(-1)?.totalElements ?? 0;
}

export function replaceGif(data: GifListData, gif: GifDto): GifListData {
  if (!data.pages.some((page) => page.content.some((g) => g.id === gif.id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.content.some((g) => g.id === gif.id)
        ? { ...page, content: page.content.map((g) => (g.id === gif.id ? gif : g)) }
        : page,
    ),
  };
}

export function removeGif(data: GifListData, id: number): GifListData {
  if (!data.pages.some((page) => page.content.some((g) => g.id === id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      content: page.content.filter((g) => g.id !== id),
      totalElements: Math.max(0, page.totalElements - 1),
    })),
  };
}

/** Update success: the new version replaces the old one everywhere it is cached. */
export function applyGifUpdated(queryClient: QueryClient, gif: GifDto): void {
  queryClient.setQueriesData<GifListData>({ queryKey: gifKeys.lists() }, (data) =>
    data ? replaceGif(data, gif) : data,
  );
  queryClient.setQueryData(gifKeys.detail(gif.id), gif);
}

/**
 * Delete success: the GIF leaves every list (total − 1, not below 0). The lists are also marked
 * stale (without a refetch now), so that the pages after the removed one are fetched again, at
 * their new boundaries, the next time a gallery opens. The detail entry is dropped by
 * `forgetGif` once its screen has been left (dropping it under a mounted screen refetches it).
 */
export function applyGifDeleted(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<GifListData>({ queryKey: gifKeys.lists() }, (data) =>
    data ? removeGif(data, id) : data,
  );
  void queryClient.invalidateQueries({ queryKey: gifKeys.lists(), refetchType: 'none' });
}

export function forgetGif(queryClient: QueryClient, id: number): void {
  queryClient.removeQueries({ queryKey: gifKeys.detail(id), exact: true });
}

/** Upload success: every list is emptied and paging starts again at page 0. */
export function applyGifUploaded(queryClient: QueryClient): Promise<void> {
  return queryClient.resetQueries({ queryKey: gifKeys.lists() });
}

/** A filter change: the other galleries' pages are dropped, so coming back starts at page 0. */
export function resetOtherGifLists(queryClient: QueryClient, current: GifFilter, sort: GifSort = 'newest'): void {
  const currentHash = JSON.stringify(gifKeys.list(current, sort));
  queryClient.removeQueries({
    queryKey: gifKeys.lists(),
    predicate: (query) => JSON.stringify(query.queryKey) !== currentHash,
  });
}

/**
 * The GIF once `on` is its favourite state. Without the server's `count`, the count moves by one
 * only when the state changes (a second star changes nothing, as on the server).
 */
export function withFavourite(gif: GifDto, on: boolean, count?: number): GifDto {
  if (count === undefined && gif.favourite === on) return gif;
  const favouriteCount = count ?? Math.max(0, gif.favouriteCount + (on ? 1 : -1));
  return { ...gif, favourite: on, favouriteCount };
}

function mapGif(data: GifListData, id: number, change: (gif: GifDto) => GifDto): GifListData {
  if (!data.pages.some((page) => page.content.some((g) => g.id === id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, content: page.content.map((g) => (g.id === id ? change(g) : g)) })),
  };
}

const favouriteLists = () => [...gifKeys.lists(), { kind: 'favourites' }] as const;

/** A star or unstar, everywhere the GIF is cached; an unstarred GIF leaves the favourites lists. */
export function applyFavourite(queryClient: QueryClient, id: number, on: boolean, count?: number): void {
  const change = (gif: GifDto) => withFavourite(gif, on, count);
  queryClient.setQueriesData<GifListData>({ queryKey: gifKeys.lists() }, (data) =>
    data ? mapGif(data, id, change) : data,
  );
  if (!on) {
    queryClient.setQueriesData<GifListData>({ queryKey: favouriteLists() }, (data) =>
      data ? removeGif(data, id) : data,
    );
  }
  queryClient.setQueryData<GifDto>(gifKeys.detail(id), (gif) => (gif ? change(gif) : gif));
}

/** After a star: the favourites lists are fetched again the next time they are shown. */
export function staleFavouriteLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: favouriteLists(), refetchType: 'none' });
}
