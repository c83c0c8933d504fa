import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import type { GifDto } from '@/api/generated/GifDto';
import type { RenditionDto } from '@/api/generated/RenditionDto';
import { answering, sentJson } from '@/test/fetch';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { GifDetailPage } from './gif-detail-page';

const fetchMock = vi.fn<typeof fetch>();
const calls = () =>
  fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${urlOf(input)}`);

const gif = makeGif(5, {
  title: 'Dancing cat',
  description: 'It dances',
  uploadedBy: 'alice',
  viewCount: 41,
  contentSize: 123_456,
  contentWidth: 480,
  thumbnailSize: 2048,
  thumbnailWidth: 320,
  thumbnailStaticSize: 1536,
  thumbnailStaticWidth: 320,
  tags: [{ id: 1, name: 'cats' }],
  shareId: 'abcDEF123',
});

function serveGif(tags = [{ id: 1, name: 'cats', count: 3 }, { id: 2, name: 'dogs', count: 1 }], served: GifDto = gif) {
  fetchMock.mockImplementation(answering((input, init) => {
    const url = urlOf(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/gifs/dto/5') return jsonResponse(served);
    if (url === '/api/tags' && method === 'GET') return jsonResponse(tags);
    if (url.startsWith('/api/tags?name=')) return jsonResponse({ id: 9, name: 'new', count: 0 }, 201);
    if (url === '/api/gifs/5' && method === 'PUT') {
      const body = sentJson(init) as { title: string; description: string; tags: string[] };
      return jsonResponse({ ...gif, ...body, tags: body.tags.map((name, i) => ({ id: i + 1, name })) });
    }
    if (url === '/api/gifs/5' && method === 'DELETE') return new Response(null, { status: 204 });
    return jsonResponse({ error: 'not found', code: 'not_found' }, 404);
  }));
}

const renderDetail = (route = '/gifs/5') => renderWithProviders(<GifDetailPage />, { route, path: '/gifs/:id' });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

describe('GIF detail', () => {
  it('shows loading, then the GIF with sizes, renditions, file information and the share link', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif();
    renderDetail();
    expect(screen.getByText('Loading GIF...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dancing cat' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Dancing cat' })).toHaveAttribute('src', '/api/gifs/content/5');
    expect(screen.getAllByText('120.56 KB · 480 × 360')).toHaveLength(2);
    expect(screen.getByText('41 views')).toBeInTheDocument();
    expect(screen.getByText('It dances')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'cats' })).toHaveAttribute('href', '/tags/cats');
    expect(screen.getByRole('link', { name: 'alice' })).toHaveAttribute('href', '/user/alice');
    const info = screen.getByRole('heading', { name: 'File Information' }).closest('section')!;
    expect(within(info).getByText('Content height').nextElementSibling).toHaveTextContent('360px');
    expect(within(info).getByText('Thumbnail size').nextElementSibling).toHaveTextContent('2.00 KB');
    expect(within(info).getByText('Static thumbnail size').nextElementSibling).toHaveTextContent('1.50 KB');
    expect(screen.getByRole('button', { name: /^Static Thumbnail/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Thumbnail/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Original Gif/ })).toBeInTheDocument();
    expect(screen.getByLabelText('Share this GIF')).toHaveValue(`${window.location.origin}/s/abcDEF123`);
    expect(screen.getByRole('link', { name: 'Back to Gallery' })).toHaveAttribute('href', '/gifs');

    fireEvent.click(screen.getByRole('button', { name: 'Show Natural Size' }));
    expect(screen.getByRole('button', { name: 'Show Fixed Size' })).toBeInTheDocument();
  });

  it.each([
    ['the owner', 'alice', 'ROLE_USER', true, true],
    ['an admin', 'root', 'ROLE_USER,ROLE_ADMIN', true, false],
    ['someone else', 'bob', 'ROLE_USER', false, false],
  ])('%s: Edit %s, Delete %s', async (_who, user, roles, edit, del) => {
    login(tokenFor(user, 3600, roles), user);
    serveGif();
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    expect(screen.queryByRole('button', { name: 'Edit' }) !== null).toBe(edit);
    expect(screen.queryByRole('button', { name: 'Delete' }) !== null).toBe(del);
  });

  it('shows "GIF not found" on 404 and for a bad id', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif();
    renderDetail('/gifs/77');
    expect(await screen.findByText('GIF not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Gallery' })).toBeInTheDocument();
  });

  it('shows "GIF not found" without a request for a non-numeric id', () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif();
    renderDetail('/gifs/abc');
    expect(screen.getByText('GIF not found')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows "Failed to load GIF" when the server gives no message', async () => {
    login(tokenFor('alice', 3600), 'alice');
    fetchMock.mockResolvedValue(new Response('', { status: 400 }));
    renderDetail();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load GIF');
  });

  it('asks for the tiles and similar GIFs only once the poster has been painted', async () => {
    login(tokenFor('bob', 3600), 'bob');
    const poster: RenditionDto = {
      kind: 'poster',
      url: '/api/gifs/5/files/poster.webp',
      contentType: 'image/webp',
      width: 480,
      height: 270,
      size: 9_000,
      frames: 1,
      durationMs: 0,
      codec: null,
      preferred: false,
    };
    serveGif(undefined, { ...gif, renditions: [poster] });
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    const figure = screen.getByRole('img', { name: 'Dancing cat' });
    expect(figure).toHaveAttribute('src', poster.url);
    const tile = () => screen.getByRole('button', { name: /^Thumbnail/ }).querySelector('img');
    expect(tile()).toBeNull();
    fireEvent.load(figure);
    await waitFor(() => expect(tile()).toHaveAttribute('src', '/api/gifs/thumbnail/5'));
    expect(figure).toHaveAttribute('src', '/api/gifs/content/5');
  });

  it('opens each rendition in an accessible modal that Escape closes', async () => {
    login(tokenFor('bob', 3600), 'bob');
    serveGif();
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    for (const [label, src] of [
      ['Static Thumbnail', '/api/gifs/static-thumbnail/5'],
      ['Thumbnail', '/api/gifs/thumbnail/5'],
      ['Original Gif', '/api/gifs/content/5'],
    ] as const) {
      const opener = screen.getByRole('button', { name: new RegExp(`^${label}`) });
      // The tiles never load the original: its tile shows the animated thumbnail.
      expect(opener.querySelector('img')).toHaveAttribute('src', src.replace('content', 'thumbnail'));
      opener.focus();
      fireEvent.click(opener);
      const dialog = screen.getByRole('dialog', { name: `${label}: Dancing cat` });
      expect(dialog).toHaveAttribute('aria-modal', 'true');
      expect(within(dialog).getByRole('img')).toHaveAttribute('src', src);
      const close = within(dialog).getByRole('button', { name: 'Close' });
      expect(close).toHaveFocus();
      const toggle = within(dialog).getByRole('button', { name: 'Show Natural Size' });
      // Tab wraps inside the dialog.
      toggle.focus();
      fireEvent.keyDown(toggle, { key: 'Tab' });
      expect(close).toHaveFocus();
      fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
      expect(toggle).toHaveFocus();
      fireEvent.click(toggle);
      expect(within(dialog).getByRole('button', { name: 'Show Fixed Size' })).toBeInTheDocument();
      fireEvent.keyDown(dialog, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(opener).toHaveFocus();
    }
    fireEvent.click(screen.getByRole('button', { name: /^Thumbnail/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes after the confirm, then goes to / with a success toast', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif();
    const { toasts } = renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this GIF?');
    expect(calls()).not.toContain('DELETE /api/gifs/5');

    confirm.mockReturnValueOnce(true);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(calls()).toContain('DELETE /api/gifs/5');
    expect(toasts.getState().toasts[0]).toMatchObject({ type: 'success' });
  });

  it('a failed delete shows "Failed to delete GIF"', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif();
    const { toasts } = renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    fetchMock.mockResolvedValueOnce(new Response('', { status: 404 }));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts.getState().toasts[0]).toMatchObject({ type: 'error' }));
    expect(toasts.getState().toasts[0]?.message).toBe('Failed to delete gif');
  });

  it('stars at once with the count, and rolls back with an error toast when the call fails', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif();
    const { toasts } = renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    expect(screen.getByTestId('favourite-count')).toHaveTextContent('0 favourites');

    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    fireEvent.click(screen.getByRole('button', { name: 'Add to favourites' }));
    const star = await screen.findByRole('button', { name: 'Remove from favourites' });
    expect(star).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('favourite-count')).toHaveTextContent('1 favourite');
    answer(jsonResponse({ favourite: true, favouriteCount: 4 }));
    await waitFor(() => expect(screen.getByTestId('favourite-count')).toHaveTextContent('4 favourites'));
    expect(calls()).toContain('PUT /api/gifs/5/favourite');

    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'Database down', code: 'unavailable' }, 503));
    fireEvent.click(screen.getByRole('button', { name: 'Remove from favourites' }));
    await waitFor(() => expect(toasts.getState().toasts.at(-1)).toMatchObject({ type: 'error' }));
    expect(screen.getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('favourite-count')).toHaveTextContent('4 favourites');
    expect(calls()).toContain('DELETE /api/gifs/5/favourite');
  });

  it('edits: "Edit GIF" form, title required, tags added, Update GIF saves and returns', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif();
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Edit GIF' })).toBeInTheDocument();
    const title = screen.getByLabelText('Title *');
    expect(title).toHaveValue('Dancing cat');
    expect(title).toHaveAttribute('maxLength', '100');
    expect(screen.getByLabelText('Description')).toHaveAttribute('maxLength', '500');

    fireEvent.change(title, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update GIF' }));
    expect(screen.getByText('Please enter a title for your GIF.')).toBeInTheDocument();
    expect(calls().some((c) => c.startsWith('PUT'))).toBe(false);

    fireEvent.change(title, { target: { value: 'Dancing cat 2' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Still dancing' } });
    expect(await screen.findByText('Available tags')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add tag dogs' }));
    const tagInput = screen.getByRole('combobox', { name: 'Tags' });
    fireEvent.change(tagInput, { target: { value: ' NEW ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('button', { name: 'Remove tag new' })).toBeInTheDocument();
    expect(calls()).toContain('POST /api/tags?name=new');

    expect(screen.getByLabelText('Rating')).toHaveValue('g');
    fireEvent.change(screen.getByLabelText('Rating'), { target: { value: 'pg-13' } });

    fireEvent.click(screen.getByRole('button', { name: 'Update GIF' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dancing cat 2' })).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(sentJson(put?.[1])).toEqual({
      title: 'Dancing cat 2',
      description: 'Still dancing',
      tags: ['cats', 'dogs', 'new'],
      rating: 'pg-13',
    });
  });

  it('lists the video files with their sizes and links, and plays the preferred video', async () => {
    login(tokenFor('bob', 3600), 'bob');
    const file = (kind: RenditionDto['kind'], ext: string, width: number, height: number, size: number, preferred = false): RenditionDto => ({
      kind,
      url: `/api/gifs/5/files/${kind}.${ext}`,
      contentType: ext === 'mp4' || ext === 'webm' ? `video/${ext}` : `image/${ext}`,
      width,
      height,
      size,
      frames: 24,
      durationMs: 2400,
      codec: ext === 'mp4' ? 'h264' : ext === 'webm' ? 'vp9' : null,
      preferred,
    });
    serveGif(undefined, {
      ...gif,
      renditions: [
        file('original', 'gif', 480, 270, 900_000),
        file('thumbnail', 'gif', 320, 180, 300_000),
        file('still', 'webp', 320, 180, 9_000),
        file('mp4', 'mp4', 480, 270, 319_488, true),
        file('webm', 'webm', 480, 270, 409_600),
        file('webp', 'webp', 480, 270, 614_400),
        file('mp4_small', 'mp4', 320, 180, 51_200, true),
        file('webm_small', 'webm', 320, 180, 61_440),
      ],
    });
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    const files = screen.getByRole('heading', { name: 'Files' }).closest('section')!;
    expect(within(files).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'MP4 · 480 × 270 · 312.00 KB',
      'WebM · 480 × 270 · 400.00 KB',
      'WebP · 480 × 270 · 600.00 KB',
      'MP4 (small) · 320 × 180 · 50.00 KB',
      'WebM (small) · 320 × 180 · 60.00 KB',
    ]);
    expect(within(files).getByRole('link', { name: 'MP4' })).toHaveAttribute('href', '/api/gifs/5/files/mp4.mp4');
    expect(within(files).getByRole('link', { name: 'WebM (small)' })).toHaveAttribute('href', '/api/gifs/5/files/webm_small.webm');
    const video = document.querySelector('.gif-detail__figure video')!;
    expect(video).toHaveAttribute('poster', '/api/gifs/5/files/still.webp');
    expect(Array.from(video.querySelectorAll('source'), (s) => s.getAttribute('src'))).toEqual([
      '/api/gifs/5/files/mp4.mp4',
      '/api/gifs/5/files/webm.webm',
    ]);
    // The three renditions of before are still there.
    expect(screen.getByRole('button', { name: /^Original Gif/ })).toBeInTheDocument();
  });

  it('has no Files section while the GIF has no videos', async () => {
    login(tokenFor('bob', 3600), 'bob');
    serveGif();
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    expect(screen.queryByRole('heading', { name: 'Files' })).toBeNull();
    expect(document.querySelector('video')).toBeNull();
  });

  it('Cancel leaves the edit form without saving', async () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    serveGif();
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Dancing cat' })).toBeInTheDocument();
    await act(async () => {});
    expect(calls().some((c) => c.startsWith('PUT'))).toBe(false);
  });
});

describe('GIF detail: the text in the GIF', () => {
  it('shows "Text in this GIF" with its lines when the GIF has text, and nothing otherwise', async () => {
    login(tokenFor('bob', 3600), 'bob');
    serveGif(undefined, { ...gif, captionText: 'THIS IS FINE\nthe dog says' });
    const { unmount } = renderDetail();
    const heading = await screen.findByRole('heading', { level: 2, name: 'Text in this GIF' });
    const section = heading.closest('section')!;
    expect(within(section).getByText(/THIS IS FINE/)).toHaveClass('gif-detail__text-body');
    expect(within(section).getByText(/THIS IS FINE/).textContent).toBe('THIS IS FINE\nthe dog says');
    unmount();

    for (const captionText of [null, '', '   ']) {
      serveGif(undefined, { ...gif, captionText });
      const view = renderDetail();
      await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
      expect(screen.queryByRole('heading', { name: 'Text in this GIF' })).toBeNull();
      view.unmount();
    }
  });

  it('the owner edits the text: counted, trimmed, sent with the rest, then shown', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif(undefined, { ...gif, captionText: 'THIS IS FIEN' });
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByLabelText('Text in this GIF');
    expect(field).toHaveValue('THIS IS FIEN');
    expect(field).toHaveAttribute('maxLength', '500');
    expect(screen.getByText('12/500')).toBeInTheDocument();

    fireEvent.change(field, { target: { value: '  THIS IS FINE  ' } });
    expect(screen.getByText('16/500')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Update GIF' }));
    const heading = await screen.findByRole('heading', { level: 2, name: 'Text in this GIF' });
    expect(heading.closest('section')).toHaveTextContent('THIS IS FINE');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(sentJson(put?.[1])).toEqual({
      title: 'Dancing cat',
      description: 'It dances',
      tags: ['cats'],
      rating: 'g',
      captionText: 'THIS IS FINE',
    });
  });

  it('an admin clears the text with an empty field', async () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    serveGif(undefined, { ...gif, captionText: 'wrongly read' });
    renderDetail();
    await screen.findByRole('heading', { level: 2, name: 'Text in this GIF' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Text in this GIF'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update GIF' }));
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(sentJson(put?.[1])).toMatchObject({ captionText: '' });
    expect(screen.queryByRole('heading', { name: 'Text in this GIF' })).toBeNull();
  });

  it('an edit that leaves the text alone does not send it', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif(undefined, { ...gif, captionText: 'read by the server' });
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Title *'), { target: { value: 'Dancing cat 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update GIF' }));
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat 2' });
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(sentJson(put?.[1])).not.toHaveProperty('captionText');
  });
});

describe('GIF detail: the maker', () => {
  it('offers "Edit a copy" to anyone who can see the GIF, not only its owner', async () => {
    login(tokenFor('bob', 3600), 'bob');
    serveGif();
    renderDetail();
    const copy = await screen.findByRole('link', { name: 'Edit a copy' });
    expect(copy).toHaveAttribute('href', '/make?gif=5');
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Made from/)).not.toBeInTheDocument();
  });

  it('links a copy to the GIF it was made from', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serveGif(undefined, { ...gif, madeFrom: { id: 2, title: 'Original cat' } });
    renderDetail();
    const source = await screen.findByRole('link', { name: 'Original cat' });
    expect(source).toHaveAttribute('href', '/gifs/2');
    expect(source.parentElement).toHaveTextContent('Made from Original cat');
  });
});
