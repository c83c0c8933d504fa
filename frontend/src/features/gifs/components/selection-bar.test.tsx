import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { jsonResponse, makeGif, makePage, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { GalleryPage } from './gallery-page';

const fetchMock = vi.fn<typeof fetch>();
/** The JSON the API client sent (it sends JSON bodies as strings). */
const jsonSent = (init: RequestInit | undefined): unknown =>
  typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
const bulkBodies = () =>
  fetchMock.mock.calls.filter(([input]) => urlOf(input) === '/api/gifs/bulk').map(([, init]) => jsonSent(init));

function answer(url: string, init: RequestInit | undefined): Response {
  if (url === '/api/gifs/bulk') {
    const { ids } = jsonSent(init) as { ids: number[] };
    return jsonResponse({ results: ids.map((id) => ({ id, status: id === 2 ? 'forbidden' : 'ok' })) });
  }
  if (url.startsWith('/api/gifs/dtos')) return jsonResponse(makePage([makeGif(4), makeGif(3), makeGif(2), makeGif(1)]));
  return jsonResponse({ error: 'not found' }, 404);
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation((input, init) => Promise.resolve(answer(urlOf(input), init)));
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

it('"Select" picks cards (shift-click a range) and tags them in one request with a summary toast', async () => {
  const { toasts } = renderWithProviders(<GalleryPage />, { route: '/gifs', path: '/gifs' });
  fireEvent.click(await screen.findByRole('button', { name: 'Select' }));
  const bar = await screen.findByRole('toolbar', { name: 'Selected GIFs' });
  expect(bar).toHaveTextContent('0 selected');
  expect(within(bar).getByRole('button', { name: 'Delete' })).toBeDisabled();

  fireEvent.click(screen.getByRole('button', { name: 'Select Gif 4' }));
  fireEvent.click(screen.getByRole('button', { name: 'Select Gif 2' }), { shiftKey: true });
  expect(bar).toHaveTextContent('3 selected');
  expect(screen.getByRole('button', { name: 'Select Gif 3' })).toHaveAttribute('aria-pressed', 'true');
  expect(screen.getByRole('button', { name: 'Select Gif 1' })).toHaveAttribute('aria-pressed', 'false');

  fireEvent.click(within(bar).getByRole('button', { name: 'Add tags' }));
  expect(within(bar).getByRole('button', { name: 'Add tags' })).toHaveAttribute('aria-pressed', 'true');
  const input = within(bar).getByRole('textbox', { name: 'Tags to add' });
  expect(input).toHaveFocus();
  expect(within(bar).getByRole('button', { name: 'Add to selected' })).toBeDisabled();
  fireEvent.change(input, { target: { value: 'cats, funny dogs ,' } });
  fireEvent.click(within(bar).getByRole('button', { name: 'Add to selected' }));
  await waitFor(() =>
    expect(toasts.getState().toasts.at(-1)).toMatchObject({
      type: 'warning',
      message: 'Tagged 2 GIFs; 1 GIF not yours to change',
    }),
  );
  expect(bulkBodies()).toEqual([
    { ids: [4, 3, 2], addTags: ['cats', 'funny dogs'], removeTags: [], collectionId: null, delete: false },
  ]);
  expect(within(bar).queryByRole('textbox')).toBeNull();

  fireEvent.click(within(bar).getByRole('button', { name: 'Remove tags' }));
  expect(within(bar).getByRole('textbox', { name: 'Tags to remove' })).toHaveValue('');
  fireEvent.click(within(bar).getByRole('button', { name: 'Clear' }));
  expect(bar).toHaveTextContent('0 selected');
  fireEvent.click(within(bar).getByRole('button', { name: 'Select all on screen' }));
  expect(bar).toHaveTextContent('4 selected');

  fireEvent.click(within(bar).getByRole('button', { name: 'Done' }));
  expect(screen.queryByRole('toolbar')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Select Gif 4' })).toBeNull();
});

it('Delete asks first and sends nothing when cancelled; confirmed, it deletes and clears the selection', async () => {
  const confirm = vi.fn(() => false);
  vi.stubGlobal('confirm', confirm);
  const { toasts } = renderWithProviders(<GalleryPage />, { route: '/gifs', path: '/gifs' });
  fireEvent.click(await screen.findByRole('button', { name: 'Select' }));
  const bar = await screen.findByRole('toolbar', { name: 'Selected GIFs' });
  fireEvent.click(screen.getByRole('button', { name: 'Select Gif 3' }));
  fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
  expect(confirm).toHaveBeenCalledWith('Delete 1 GIF? Only your own are deleted; this cannot be undone.');
  expect(bulkBodies()).toEqual([]);

  confirm.mockReturnValue(true);
  fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(toasts.getState().toasts.at(-1)).toMatchObject({ type: 'success', message: 'Deleted 1 GIF' }));
  expect(bulkBodies()).toEqual([{ ids: [3], addTags: [], removeTags: [], collectionId: null, delete: true }]);
  expect(bar).toHaveTextContent('0 selected');
});
