import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, makeGif, makePage, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { GalleryPage } from './gallery-page';

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([input]) => urlOf(input));

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

const renderGallery = (route: string, path = '/gifs') => renderWithProviders(<GalleryPage />, { route, path });

describe('gallery page', () => {
  it('shows "Loading GIFs...", then the cards with their links, views and tags', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(makePage([makeGif(2, { viewCount: 12, tags: [{ id: 4, name: 'funny cats' }] }), makeGif(1)])),
    );
    renderGallery('/gifs');
    expect(screen.getByText('Loading GIFs...')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'All GIFs' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Gif 2' })).toHaveAttribute('href', '/gifs/2');
    expect(screen.getByText('12 views')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'funny cats' })).toHaveAttribute('href', '/tags/funny%20cats');
    const image = screen.getByRole('img', { name: 'Gif 2' });
    expect(image).toHaveAttribute('src', '/api/gifs/static-thumbnail/2');
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
    expect(calls()).toEqual(['/api/gifs/dtos?page=0&size=12']);
  });

  it('a card plays its preferred small video, the still as poster, and under reduced motion its still until hovered', async () => {
    const file = (kind: 'thumbnail' | 'still' | 'mp4_small', size: number, preferred = false) => ({
      kind,
      url: `/api/gifs/2/files/${kind}.${kind === 'mp4_small' ? 'mp4' : kind === 'still' ? 'webp' : 'gif'}`,
      contentType: kind === 'mp4_small' ? 'video/mp4' : kind === 'still' ? 'image/webp' : 'image/gif',
      width: 320,
      height: 240,
      size,
      frames: kind === 'still' ? 1 : 20,
      durationMs: 2000,
      codec: kind === 'mp4_small' ? 'h264' : null,
      preferred,
    });
    const gif = makeGif(2, {
      renditions: [file('thumbnail', 200_000), file('still', 5_000), file('mp4_small', 20_000, true)],
    });
    fetchMock.mockImplementation(answering(() => jsonResponse(makePage([gif]))));
    const { unmount } = renderGallery('/gifs');
    await screen.findByRole('link', { name: 'Gif 2' });
    const video = screen.getByTestId('gif-card').querySelector('video');
    expect(video).toHaveAttribute('poster', '/api/gifs/2/files/still.webp');
    expect(video?.querySelector('source')).toHaveAttribute('src', '/api/gifs/2/files/mp4_small.mp4');
    unmount();

    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    renderGallery('/gifs');
    const card = (await screen.findByRole('link', { name: 'Gif 2' })).closest('article')!;
    expect(screen.getByRole('img', { name: 'Gif 2' })).toHaveAttribute('src', '/api/gifs/2/files/still.webp');
    expect(card.querySelector('video')).toBeNull();
    fireEvent.mouseEnter(card);
    expect(card.querySelector('video')).toHaveAttribute('poster', '/api/gifs/2/files/still.webp');
    fireEvent.mouseLeave(card);
    expect(card.querySelector('video')).toBeNull();
  });

  it('"Load More" ("Loading..." while busy) appends the next page while hasNext', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(makePage([makeGif(3)], { totalPages: 2, totalElements: 2 })));
    renderGallery('/gifs');
    const more = await screen.findByRole('button', { name: 'Load More' });
    let answer: (response: Response) => void = () => {};
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    fireEvent.click(more);
    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    answer(jsonResponse(makePage([makeGif(2)], { page: 1, totalPages: 2, totalElements: 2 })));
    expect(await screen.findByRole('link', { name: 'Gif 2' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Gif 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
    expect(calls()[1]).toBe('/api/gifs/dtos?page=1&size=12');
  });

  it('reads ?q= on load, searches trimmed terms on Enter, and an empty search returns to all', async () => {
    fetchMock.mockImplementation(answering(() => jsonResponse(makePage([]))));
    renderGallery('/gifs?q=%20cats%20');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Search results for "cats"');
    expect(await screen.findByText('No GIFs found. Try different search terms.')).toBeInTheDocument();
    expect(calls()[0]).toBe('/api/gifs/dtos/search?q=cats&page=0&size=12');

    const box = screen.getByRole('combobox', { name: 'Search GIFs' });
    expect(box).toHaveAttribute('placeholder', 'Search GIFs by title, description, or tags...');
    expect(box).toHaveValue('cats');
    fireEvent.change(box, { target: { value: '  happy dog ' } });
    fireEvent.submit(box.closest('form')!);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Search results for "happy dog"'));
    await waitFor(() => expect(calls()).toContain('/api/gifs/dtos/search?q=happy%20dog&page=0&size=12'));

    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('All GIFs'));
    expect(await screen.findByText('No GIFs uploaded yet.')).toBeInTheDocument();
    expect(calls().at(-1)).toBe('/api/gifs/dtos?page=0&size=12');

    fireEvent.change(screen.getByRole('combobox', { name: 'Search GIFs' }), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('All GIFs');
  });

  it('filters by tag without a search box; empty: "Try a different tag."', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(makePage([])));
    renderGallery('/tags/funny%20cats', '/tags/:tagName');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('GIFs tagged with "funny cats"');
    expect(await screen.findByText('Try a different tag.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Search GIFs' })).toBeNull();
    expect(calls()).toEqual(['/api/gifs/dtos/tag/funny%20cats?page=0&size=12']);
  });

  it('filters by user; empty: "No GIFs uploaded yet."', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(makePage([])));
    renderGallery('/user/bob', '/user/:username');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('GIFs by bob');
    expect(await screen.findByText('No GIFs uploaded yet.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Search GIFs' })).toBeNull();
    expect(calls()).toEqual(['/api/gifs/dtos/user/bob?page=0&size=12']);
  });

  it.each([
    ['/gifs', '/gifs', 'Error: Failed to fetch gifs'],
    ['/gifs?q=x', '/gifs', 'Error: Failed to search gifs'],
    ['/tags/x', '/tags/:tagName', 'Error: Failed to fetch gifs by tag'],
    ['/user/x', '/user/:username', 'Error: Failed to fetch user gifs'],
  ])('%s shows "%s" when the server gives no message', async (route, path, text) => {
    fetchMock.mockResolvedValue(new Response('', { status: 404 }));
    renderGallery(route, path);
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('shows the server error message', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ error: 'Bad page', code: 'validation' }, 400));
    renderGallery('/gifs');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Bad page');
  });
});
