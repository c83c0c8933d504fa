import type { QueryClient } from '@tanstack/react-query';
import { gifQueryOptions } from '@/features/gifs/api/get-gif';
import { gifListQueryOptions } from '@/features/gifs/api/get-gif-list';
import { galleryFilter, parseSort } from '@/features/gifs/gallery';
import { sessionStore } from '@/lib/session';
import { tagsQueryOptions } from '@/lib/tags/get-tags';
import { paths } from './paths';
import { preloadGifDetailPage } from './routes/lazy-pages';

/**
 * Starts the first request of the screen a visit lands on as the app starts, rather than once
 * React has rendered down to that screen: the gallery's first page on `/gifs`, the tags on `/` and
 * `/tags/cloud` (the tag cloud), the GIF and the screen's chunk on `/gifs/:id`. The screens read
 * the same queries, so nothing is fetched twice.
 * Signed in only: signed out, those screens are not shown.
 */
export function prefetchLanding(client: QueryClient, location: Pick<Location, 'pathname' | 'search'>): void {
  if (!sessionStore.getState().isAuthenticated) return;
  if (location.pathname === paths.gifs) {
    const params = new URLSearchParams(location.search);
    const filter = galleryFilter({ q: params.get('q') });
    void client.prefetchInfiniteQuery(gifListQueryOptions(filter, parseSort(params.get('sort'))));
  } else if (location.pathname === paths.home || location.pathname === paths.tagCloud) {
    void client.prefetchQuery(tagsQueryOptions());
  } else {
    const detail = /^\/gifs\/(\d+)$/.exec(location.pathname);
    if (detail) {
      void client.prefetchQuery(gifQueryOptions(Number(detail[1])));
      preloadGifDetailPage();
    }
  }
}
