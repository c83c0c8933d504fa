/** Its own file: the suggestions' chunk fails to load here (a network error, a deploy in between). */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, makePage, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { GalleryPage } from './gallery-page';

vi.mock('./search-suggestions', () => {
  throw new Error('Loading chunk search-suggestions failed');
});

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(answering(() => jsonResponse(makePage([]))));
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

it('without its suggestions the box stays a plain search field that searches and clears', async () => {
  renderWithProviders(<GalleryPage />, { route: '/gifs', path: '/gifs' });
  await screen.findByText('No GIFs uploaded yet.');
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  const box = screen.getByRole('searchbox', { name: 'Search GIFs' });
  expect(screen.queryByRole('combobox', { name: 'Search GIFs' })).toBeNull();

  fireEvent.change(box, { target: { value: ' zebra ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Search results for "zebra"');
  expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).toContain('/api/gifs/dtos/search?q=zebra&page=0&size=12');
  fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('All GIFs');
  expect(screen.getByRole('searchbox', { name: 'Search GIFs' })).toHaveValue('');
});
