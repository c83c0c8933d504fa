import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { renderApp } from '@/test/render-app';
import { tokenFor } from '@/test/tokens';
import { MSG_NO_DUPLICATES } from './duplicates-page';

const fetchMock = vi.fn<typeof fetch>();

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
    fetchMock.mockImplementation(answering((input) =>
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
    ));
    renderApp('/admin/duplicates');
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
    renderApp('/admin/duplicates');
    expect(await screen.findByText(MSG_NO_DUPLICATES)).toBeInTheDocument();
    cleanup();
    fetchMock.mockResolvedValue(jsonResponse({ error: 'Access denied', code: 'forbidden' }, 403));
    renderApp('/admin/duplicates');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error:');
  });

  it('sends a signed-in non-admin to /', async () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockRejectedValue(new TypeError('offline'));
    const router = renderApp('/admin/duplicates');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).not.toContain('/api/admin/duplicates');
  });
});

describe('Looks like on the detail page', () => {
  it('links the near duplicates of the GIF, and shows nothing when there are none', async () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockImplementation(answering((input) => {
      const url = urlOf(input);
      if (url === '/api/gifs/dto/3') return jsonResponse(makeGif(3));
      if (url === '/api/gifs/3/looks-like') return jsonResponse([{ id: 7, title: 'Cat, smaller' }]);
      if (url === '/api/gifs/dto/4') return jsonResponse(makeGif(4));
      if (url === '/api/gifs/4/looks-like') return jsonResponse([]);
      return jsonResponse([]);
    }));
    renderApp('/gifs/3');
    const section = await screen.findByRole('region', { name: 'Looks like' });
    expect(within(section).getByRole('link', { name: 'Cat, smaller' })).toHaveAttribute('href', '/gifs/7');
    cleanup();
    renderApp('/gifs/4');
    await screen.findByRole('heading', { name: 'File Information' });
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).toContain('/api/gifs/4/looks-like'),
    );
    expect(screen.queryByRole('region', { name: 'Looks like' })).not.toBeInTheDocument();
  });
});
