import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, makeGif, makePage, urlOf } from '@/test/gifs';
import { tokenFor } from '@/test/tokens';
import { useGifList } from './api/get-gif-list';
import { gifKeys, type GifFilter } from './api/query-keys';
import {
  applyGifDeleted,
  applyGifUpdated,
  applyGifUploaded,
  flattenGifs,
  listTotal,
  removeGif,
  replaceGif,
  resetOtherGifLists,
  type GifListData,
} from './gif-list-cache';

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([input]) => urlOf(input));

/** A fake server: `pages[path]` lists the pages of each endpoint (path without the query). */
function serve(pages: Record<string, ReturnType<typeof makePage>[]>) {
  fetchMock.mockImplementation(answering((input) => {
    const url = new URL(urlOf(input), 'http://localhost');
    const page = Number(url.searchParams.get('page'));
    const body = pages[url.pathname]?.[page];
    return body ? jsonResponse(body) : jsonResponse({ error: 'nope', code: 'not_found' }, 404);
  }));
}

/** "Load More": fetches the next page and waits until it is in the rendered result. */
async function loadNext(result: { current: ReturnType<typeof useGifList> }) {
  const pages = result.current.data?.pages.length ?? 0;
  await act(() => result.current.fetchNextPage());
  await waitFor(() => expect(result.current.data?.pages.length).toBe(pages + 1));
}

let client: QueryClient;
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={client}>{children}</QueryClientProvider>
);

beforeEach(() => {
  client = createQueryClient();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  client.clear();
  logout();
  vi.unstubAllGlobals();
});

const twoPages = () => [
  makePage([makeGif(6), makeGif(5), makeGif(4)], { page: 0, totalPages: 2, totalElements: 5 }),
  makePage([makeGif(3), makeGif(2)], { page: 1, totalPages: 2, totalElements: 5 }),
];

describe('gif list (spec §4)', () => {
  it('loads page 0 with size 12, then appends the next page', async () => {
    serve({ '/api/gifs/dtos': twoPages() });
    const { result } = renderHook(() => useGifList({ kind: 'all' }), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(calls()).toEqual(['/api/gifs/dtos?page=0&size=12']);
    expect(flattenGifs(result.current.data).map((g) => g.id)).toEqual([6, 5, 4]);
    expect(result.current.hasNextPage).toBe(true);

    await loadNext(result);
    expect(calls()[1]).toBe('/api/gifs/dtos?page=1&size=12');
    expect(flattenGifs(result.current.data).map((g) => g.id)).toEqual([6, 5, 4, 3, 2]);
    expect(result.current.hasNextPage).toBe(false);
  });

  it('uses the endpoint of each filter; a filter change starts again at page 0', async () => {
    serve({
      '/api/gifs/dtos/search': [makePage([makeGif(9)])],
      '/api/gifs/dtos/tag/funny%20cats': [makePage([makeGif(8)])],
      '/api/gifs/dtos/user/bob': twoPages(),
    });
    const { result, rerender } = renderHook((filter: GifFilter) => useGifList(filter), {
      wrapper,
      initialProps: { kind: 'user', username: 'bob' },
    });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    await loadNext(result);
    expect(flattenGifs(result.current.data)).toHaveLength(5);

    rerender({ kind: 'search', term: 'a b' });
    await waitFor(() => expect(flattenGifs(result.current.data).map((g) => g.id)).toEqual([9]));
    rerender({ kind: 'tag', tag: 'funny cats' });
    await waitFor(() => expect(flattenGifs(result.current.data).map((g) => g.id)).toEqual([8]));
    expect(calls()).toEqual([
      '/api/gifs/dtos/user/bob?page=0&size=12',
      '/api/gifs/dtos/user/bob?page=1&size=12',
      '/api/gifs/dtos/search?q=a%20b&page=0&size=12',
      '/api/gifs/dtos/tag/funny%20cats?page=0&size=12',
    ]);

    // Coming back to the first filter: its two loaded pages were dropped, page 0 is fetched again.
    resetOtherGifLists(client, { kind: 'tag', tag: 'funny cats' });
    expect(client.getQueryData(gifKeys.list({ kind: 'user', username: 'bob' }))).toBeUndefined();
    rerender({ kind: 'user', username: 'bob' });
    await waitFor(() => expect(flattenGifs(result.current.data)).toHaveLength(3));
    expect(calls().at(-1)).toBe('/api/gifs/dtos/user/bob?page=0&size=12');
    expect(client.getQueryData(gifKeys.list({ kind: 'tag', tag: 'funny cats' }))).toBeDefined();
  });

  it('update replaces the matching item in every list and the detail', async () => {
    serve({ '/api/gifs/dtos': twoPages(), '/api/gifs/dtos/user/alice': [makePage([makeGif(3)])] });
    const all = renderHook(() => useGifList({ kind: 'all' }), { wrapper });
    const mine = renderHook(() => useGifList({ kind: 'user', username: 'alice' }), { wrapper });
    await waitFor(() => expect(mine.result.current.isSuccess && all.result.current.isSuccess).toBe(true));
    await loadNext(all.result);
    expect(flattenGifs(mine.result.current.data)[0]?.title).toBe('Gif 3');

    const updated = makeGif(3, { title: 'New title' });
    act(() => applyGifUpdated(client, updated));
    await waitFor(() =>
      expect(flattenGifs(all.result.current.data).find((g) => g.id === 3)?.title).toBe('New title'),
    );
    expect(flattenGifs(all.result.current.data).map((g) => g.id)).toEqual([6, 5, 4, 3, 2]);
    await waitFor(() => expect(flattenGifs(mine.result.current.data)[0]?.title).toBe('New title'));
    expect(client.getQueryData(gifKeys.detail(3))).toEqual(updated);
    const before = fetchMock.mock.calls.length;
    await Promise.resolve();
    expect(fetchMock.mock.calls.length).toBe(before);
  });

  it('delete removes the item and lowers the total by one, not below 0', async () => {
    serve({ '/api/gifs/dtos': twoPages() });
    const { result } = renderHook(() => useGifList({ kind: 'all' }), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    await loadNext(result);
    const callsBefore = fetchMock.mock.calls.length;

    act(() => applyGifDeleted(client, 5));
    await waitFor(() => expect(flattenGifs(result.current.data).map((g) => g.id)).toEqual([6, 4, 3, 2]));
    expect(listTotal(result.current.data)).toBe(4);
    expect(fetchMock.mock.calls.length).toBe(callsBefore);
    expect(client.getQueryState(gifKeys.list({ kind: 'all' }))?.isInvalidated).toBe(true);

    const zero: GifListData = {
      pages: [makePage([makeGif(1)], { totalElements: 0 })],
      pageParams: [0],
    };
    expect(listTotal(removeGif(zero, 1))).toBe(0);
    expect(removeGif(zero, 99)).toBe(zero);
  });

  it('upload success empties the lists and resets paging', async () => {
    serve({ '/api/gifs/dtos': twoPages(), '/api/gifs/dtos/user/alice': [makePage([makeGif(3)])] });
    const { result } = renderHook(() => useGifList({ kind: 'all' }), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    await loadNext(result);
    // An inactive list (another gallery visited earlier).
    await client.prefetchInfiniteQuery({
      queryKey: gifKeys.list({ kind: 'user', username: 'alice' }),
      queryFn: () => makePage([makeGif(3)]),
      initialPageParam: 0,
    });
    fetchMock.mockClear();
    serve({ '/api/gifs/dtos': [makePage([makeGif(7), makeGif(6)], { totalPages: 2, totalElements: 6 })] });

    await act(() => applyGifUploaded(client));
    expect(client.getQueryData(gifKeys.list({ kind: 'user', username: 'alice' }))).toBeUndefined();
    await waitFor(() => expect(flattenGifs(result.current.data).map((g) => g.id)).toEqual([7, 6]));
    expect(result.current.data?.pages).toHaveLength(1);
    expect(calls()).toEqual(['/api/gifs/dtos?page=0&size=12']);
  });

  it('flattens pages without duplicates and leaves other lists untouched', () => {
    const data: GifListData = {
      pages: [makePage([makeGif(3), makeGif(2)], { totalPages: 2 }), makePage([makeGif(2), makeGif(1)], { page: 1, totalPages: 2 })],
      pageParams: [0, 1],
    };
    expect(flattenGifs(data).map((g) => g.id)).toEqual([3, 2, 1]);
    expect(flattenGifs(undefined)).toEqual([]);
    expect(replaceGif(data, makeGif(99))).toBe(data);
  });
});
