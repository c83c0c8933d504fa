import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { makeGif, makePage } from '@/test/gifs';
import { randomQuery } from './api/get-random-gif';
import { gifKeys, pageQuery } from './api/query-keys';
import {
  favouriteLabel,
  favouritesLabel,
  galleryEmptyMessage,
  galleryFilter,
  galleryTitle,
  parseSort,
  randomScope,
  withSort,
} from './gallery';
import { applyFavourite, withFavourite, type GifListData } from './gif-list-cache';

const listOf = (...gifs: ReturnType<typeof makeGif>[]): GifListData => ({
  pages: [makePage(gifs)],
  pageParams: [0],
});

describe('favourites', () => {
  it('is a gallery of its own with its empty message', () => {
    const filter = galleryFilter({ favourites: true, q: 'ignored' });
    expect(filter).toEqual({ kind: 'favourites' });
    expect(galleryTitle(filter)).toBe('Favourites');
    expect(galleryEmptyMessage(filter)).toBe('No favourites yet.');
  });

  it('labels the star by what a press does', () => {
    expect(favouriteLabel(false)).toBe('Add to favourites');
    expect(favouriteLabel(true)).toBe('Remove from favourites');
    expect([favouritesLabel(0), favouritesLabel(1), favouritesLabel(2)]).toEqual([
      '0 favourites',
      '1 favourite',
      '2 favourites',
    ]);
  });

  it('moves the count by one only when the state changes, or takes the server count', () => {
    const gif = makeGif(1, { favourite: false, favouriteCount: 2 });
    expect(withFavourite(gif, true)).toMatchObject({ favourite: true, favouriteCount: 3 });
    expect(withFavourite(gif, false)).toBe(gif);
    expect(withFavourite({ ...gif, favourite: true, favouriteCount: 0 }, false).favouriteCount).toBe(0);
    expect(withFavourite(gif, true, 7)).toMatchObject({ favourite: true, favouriteCount: 7 });
  });

  it('stars every cached copy and takes an unstarred GIF out of the favourites lists', () => {
    const client = new QueryClient();
    const gif = makeGif(1, { favourite: true, favouriteCount: 1 });
    client.setQueryData(gifKeys.list({ kind: 'all' }), listOf(gif, makeGif(2)));
    client.setQueryData(gifKeys.list({ kind: 'favourites' }, 'title'), listOf(gif));
    client.setQueryData(gifKeys.detail(1), gif);

    applyFavourite(client, 1, false);

    const all = client.getQueryData<GifListData>(gifKeys.list({ kind: 'all' }));
    expect(all?.pages[0]?.content.map((g) => [g.id, g.favourite, g.favouriteCount])).toEqual([
      [1, false, 0],
      [2, false, 0],
    ]);
    const favourites = client.getQueryData<GifListData>(gifKeys.list({ kind: 'favourites' }, 'title'));
    expect(favourites?.pages[0]?.content).toEqual([]);
    expect(favourites?.pages[0]?.totalElements).toBe(0);
    expect(client.getQueryData(gifKeys.detail(1))).toMatchObject({ favourite: false, favouriteCount: 0 });
  });
});

describe('sorting', () => {
  it('reads ?sort= and falls back to newest', () => {
    expect(parseSort('views')).toBe('views');
    expect(parseSort('title')).toBe('title');
    expect(parseSort(null)).toBe('newest');
    expect(parseSort('random')).toBe('newest');
  });

  it('keeps the URL clean for the default order and keeps other params', () => {
    const params = new URLSearchParams('q=cats');
    expect(withSort(params, 'favourites').toString()).toBe('q=cats&sort=favourites');
    expect(withSort(new URLSearchParams('q=cats&sort=views'), 'newest').toString()).toBe('q=cats');
    expect(params.toString()).toBe('q=cats');
  });

  it('asks the server for the order, and keys the cache by it', () => {
    expect(pageQuery({ page: 1, sort: 'oldest' })).toBe('page=1&size=12&sort=oldest');
    expect(pageQuery({ page: 0, sort: 'newest' })).toBe('page=0&size=12');
    expect(gifKeys.list({ kind: 'all' }, 'views')).not.toEqual(gifKeys.list({ kind: 'all' }));
  });
});

describe('random', () => {
  it.each([
    ['/tags/funny%20cats', '', { tag: 'funny cats' }],
    ['/user/bob', '', { user: 'bob' }],
    ['/gifs', '?q=%20happy%20', { q: 'happy' }],
    ['/gifs', '', {}],
    ['/tags/cloud', '', {}],
    ['/tags', '', {}],
    ['/gifs/12', '', {}],
    ['/favourites', '', {}],
    ['/tags/%E0%A4%A', '', {}],
  ])('%s%s picks from %o', (pathname, search, scope) => {
    expect(randomScope(pathname, search)).toEqual(scope);
  });

  it('sends at most one filter', () => {
    expect(randomQuery({})).toBe('');
    expect(randomQuery({ tag: 'a b' })).toBe('?tag=a+b');
    expect(randomQuery({ user: 'bob' })).toBe('?user=bob');
    expect(randomQuery({ q: 'x' })).toBe('?q=x');
  });
});
