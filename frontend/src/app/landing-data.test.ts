import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gifKeys } from '@/features/gifs/api/query-keys';
import { createQueryClient } from '@/lib/query-client';
import { login, logout } from '@/lib/session';
import { tagKeys } from '@/lib/tags/query-keys';
import { urlOf } from '@/test/fetch';
import { tokenFor } from '@/test/tokens';
import { prefetchLanding } from './landing-data';

const fetchMock = vi.fn<typeof fetch>();
const urls = () => fetchMock.mock.calls.map(([input]) => urlOf(input));

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(() => new Promise<Response>(() => undefined));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
});

describe('prefetchLanding', () => {
  it('asks for the gallery page /gifs shows, under the key the gallery reads', () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockClear();
    const client = createQueryClient();
    prefetchLanding(client, { pathname: '/gifs', search: '?q=cats&sort=views' });
    expect(urls()).toEqual(['/api/gifs/dtos/search?q=cats&page=0&size=12&sort=views']);
    expect(client.getQueryState(gifKeys.list({ kind: 'search', term: 'cats' }, 'views'))).toBeDefined();
  });

  it('asks for the tags on / (the tag cloud)', () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockClear();
    const client = createQueryClient();
    prefetchLanding(client, { pathname: '/', search: '' });
    expect(urls()).toEqual(['/api/tags']);
    expect(client.getQueryState(tagKeys.list())).toBeDefined();
  });

  it('asks for the GIF on /gifs/:id', () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockClear();
    const client = createQueryClient();
    prefetchLanding(client, { pathname: '/gifs/12', search: '' });
    expect(urls()).toEqual(['/api/gifs/dto/12']);
    expect(client.getQueryState(gifKeys.detail(12))).toBeDefined();
  });

  it('asks for nothing signed out, or on other screens', () => {
    prefetchLanding(createQueryClient(), { pathname: '/gifs', search: '' });
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockClear();
    prefetchLanding(createQueryClient(), { pathname: '/settings', search: '' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
