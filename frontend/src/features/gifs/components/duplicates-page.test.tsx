import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/app/routes';
import { ToastProvider } from '@/components/toast/toast-provider';
import { createQueryClient } from '@/lib/query-client';
import { login, logout } from '@/lib/session';
import { createToastStore } from '@/lib/toast-store';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { tokenFor } from '@/test/tokens';
import { MSG_NO_DUPLICATES } from './duplicates-page';

const fetchMock = vi.fn<typeof fetch>();

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider store={createToastStore()}>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

describe('/admin/duplicates', () => {
  it('lists each group of near duplicates with links to the GIFs', async () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    fetchMock.mockImplementation(async (input) =>
      urlOf(input) === '/api/admin/duplicates'
        ? jsonResponse({
            groups: [
              [
                { id: 3, title: 'Cat' },
                { id: 7, title: 'Cat, smaller' },
              ],
              [
                { id: 4, title: 'Dog' },
                { id: 5, title: 'Dog again' },
                { id: 9, title: 'Dog once more' },
              ],
            ],
          })
        : jsonResponse({ error: 'Not found', code: 'not_found' }, 404),
    );
    renderAt('/admin/duplicates');
    expect(await screen.findByRole('heading', { level: 1, name: 'Near duplicates' })).toBeInTheDocument();
    const groups = await screen.findAllByTestId('duplicate-group');
    expect(groups).toHaveLength(2);
    expect(within(groups[0]!).getByRole('heading')).toHaveTextContent('2 GIFs that look alike');
    expect(within(groups[1]!).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/gifs/4',
      '/gifs/5',
      '/gifs/9',
    ]);
    expect(within(groups[0]!).getByRole('link', { name: /Cat, smaller/ })).toBeInTheDocument();
  });

  it('says so when there is none, and shows the error of a failed load', async () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    fetchMock.mockResolvedValueOnce(jsonResponse({ groups: [] }));
    renderAt('/admin/duplicates');
    expect(await screen.findByText(MSG_NO_DUPLICATES)).toBeInTheDocument();
    cleanup();
    fetchMock.mockResolvedValue(jsonResponse({ error: 'Access denied', code: 'forbidden' }, 403));
    renderAt('/admin/duplicates');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error:');
  });

  it('sends a signed-in non-admin to /', async () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockRejectedValue(new TypeError('offline'));
    const router = renderAt('/admin/duplicates');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).not.toContain('/api/admin/duplicates');
  });
});

describe('Looks like on the detail page', () => {
  it('links the near duplicates of the GIF, and shows nothing when there are none', async () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url === '/api/gifs/dto/3') return jsonResponse(makeGif(3));
      if (url === '/api/gifs/3/looks-like') return jsonResponse([{ id: 7, title: 'Cat, smaller' }]);
      if (url === '/api/gifs/dto/4') return jsonResponse(makeGif(4));
      if (url === '/api/gifs/4/looks-like') return jsonResponse([]);
      return jsonResponse([]);
    });
    renderAt('/gifs/3');
    const section = await screen.findByRole('region', { name: 'Looks like' });
    expect(within(section).getByRole('link', { name: 'Cat, smaller' })).toHaveAttribute('href', '/gifs/7');
    cleanup();
    renderAt('/gifs/4');
    await screen.findByRole('heading', { name: 'File Information' });
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).toContain('/api/gifs/4/looks-like'),
    );
    expect(screen.queryByRole('region', { name: 'Looks like' })).not.toBeInTheDocument();
  });
});
