import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TagDto } from '@/api/generated/TagDto';
import { login, logout } from '@/lib/session';
import { jsonResponse } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { TagCloudPage } from './tag-cloud-page';

const fetchMock = vi.fn<typeof fetch>();
const tag = (id: number, name: string, count: number): TagDto => ({ id, name, count });
const renderCloud = () => renderWithProviders(<TagCloudPage />, { route: '/tags/cloud', path: '/tags/cloud' });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

describe('tag cloud', () => {
  it('shows "Loading tags...", then the tags with GIFs, biggest first, sized 14 to 72 px', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse([tag(1, 'mid', 5), tag(2, 'top', 9), tag(3, 'empty', 0), tag(4, 'rare cats', 1)]),
    );
    renderCloud();
    expect(screen.getByText('Loading tags...')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Tags by number of GIFs' });
    const links = Array.from(list.querySelectorAll('a'));
    expect(links.map((a) => a.getAttribute('aria-label'))).toEqual([
      'top: 9 GIFs',
      'mid: 5 GIFs',
      'rare cats: 1 GIF',
    ]);
    expect(links.map((a) => a.style.getPropertyValue('--tag-size'))).toEqual(['72px', '43px', '14px']);
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/tags/top', '/tags/mid', '/tags/rare%20cats']);
    expect(links[0]).toHaveAttribute('title', 'top: 9 GIFs');
    expect(screen.queryByText('empty')).toBeNull();
  });

  it('shows "No tags found." when no tag has a GIF', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse([tag(1, 'empty', 0)]));
    renderCloud();
    expect(await screen.findByText('No tags found.')).toBeInTheDocument();
  });

  it('shows "Error: {message}"', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'Nope' }, 400));
    renderCloud();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Nope');
  });
});
