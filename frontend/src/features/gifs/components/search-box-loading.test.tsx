/** Its own file: the suggestions' chunk is loaded once per module graph, and this test needs it not yet loaded. */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, makePage, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { GalleryPage } from './gallery-page';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(
    answering((input) =>
      urlOf(input).startsWith('/api/search/suggestions')
        ? jsonResponse([{ text: 'catnap', kind: 'title' }])
        : jsonResponse(makePage([])),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

it('is a plain search field until the suggestions arrive, then keeps what was typed and the focus', async () => {
  renderWithProviders(<GalleryPage />, { route: '/gifs?q=dogs', path: '/gifs' });
  const plain = screen.getByRole('searchbox', { name: 'Search GIFs' });
  expect(plain).toHaveValue('dogs');
  act(() => plain.focus());
  fireEvent.change(plain, { target: { value: 'cat' } });

  const box = await screen.findByRole('combobox', { name: 'Search GIFs' });
  expect(box).toHaveValue('cat');
  expect(box).toHaveFocus();
  expect(box).toHaveAttribute('placeholder', 'Search GIFs by title, description, or tags...');

  fireEvent.change(box, { target: { value: 'catn' } });
  const list = await screen.findByRole('listbox', { name: 'Search suggestions' });
  expect(within(list).getByRole('option', { name: 'catnap, title' })).toBeInTheDocument();
});
