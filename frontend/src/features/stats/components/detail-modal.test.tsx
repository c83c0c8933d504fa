import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { jsonResponse, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import type { DetailTarget } from '../api/query-keys';
import { DetailModal } from './detail-modal';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

function renderModal(target: DetailTarget) {
  const onClose = vi.fn();
  const result = renderWithProviders(<DetailModal target={target} onClose={onClose} />);
  return { ...result, onClose };
}

describe('detail modal', () => {
  it('shows "Loading detailed data..." and then the rows', async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    renderModal({ kind: 'size', value: '0-100KB' });
    const dialog = screen.getByRole('dialog', { name: 'Detailed Data: 0-100KB' });
    expect(within(dialog).getByText('Loading detailed data...')).toBeInTheDocument();
    expect(urlOf(fetchMock.mock.calls[0]?.[0])).toBe('/api/stats/detailed/size/0-100KB');
    answer(jsonResponse([{ id: 3, title: 'Tiny', sizeMB: 0.0412, views: 0, contentType: 'image/gif' }]));
    expect(await within(dialog).findByRole('link', { name: 'Tiny' })).toHaveAttribute('href', '/gifs/3');
    expect(within(dialog).getByRole('cell', { name: '0.04' })).toBeInTheDocument();
    expect(within(dialog).queryByText('Loading detailed data...')).toBeNull();
  });

  it('shows "No data available" for an empty list', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse([]));
    renderModal({ kind: 'activity', value: 'power' });
    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(urlOf(fetchMock.mock.calls[0]?.[0])).toBe('/api/stats/detailed/activity/power');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('logs a failed fetch and shows "No data available"', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'Unknown size range', code: 'bad_request' }, 400));
    renderModal({ kind: 'size', value: 'huge' });
    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]?.[1])).toContain('Unknown size range');
  });

  it('encodes the tag and the content type in the URL', async () => {
    fetchMock.mockResolvedValue(jsonResponse([]));
    renderModal({ kind: 'tag', value: 'funny cats/dogs' });
    await screen.findByText('No data available');
    cleanup();
    renderModal({ kind: 'content-type', value: 'image/gif' });
    await screen.findByText('No data available');
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).toEqual([
      '/api/stats/detailed/tag/funny%20cats%2Fdogs',
      '/api/stats/detailed/content-type?type=image%2Fgif',
    ]);
  });

  it('closes through the × button, the Close button and Escape', () => {
    fetchMock.mockResolvedValue(jsonResponse([]));
    const { onClose } = renderModal({ kind: 'tag', value: 'funny' });
    const dialog = screen.getByRole('dialog');
    const [cross, close] = within(dialog).getAllByRole('button', { name: 'Close' });
    fireEvent.click(cross!);
    fireEvent.click(close!);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(3);
  });
});
