import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SuggestionDto } from '@/api/generated/SuggestionDto';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, makeGif, makePage, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { GalleryPage } from './gallery-page';

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([input]) => urlOf(input));
const suggestionCalls = () => calls().filter((url) => url.startsWith('/api/search/suggestions'));

const suggestions: SuggestionDto[] = [
  { text: 'cats', kind: 'tag' },
  { text: 'Cat on a keyboard', kind: 'title' },
  { text: 'catastrophe', kind: 'caption' },
  { text: 'cat fail', kind: 'search' },
];

/** The gallery's calls, with `suggest` answering the suggestions. */
function serve(suggest: (q: string) => Response = () => jsonResponse(suggestions)) {
  fetchMock.mockImplementation(
    answering((input) => {
      const url = new URL(urlOf(input), 'http://gifshelf.test');
      if (url.pathname === '/api/search/suggestions') return suggest(url.searchParams.get('q') ?? '');
      if (url.pathname === '/api/gifs/dtos/search') {
        return jsonResponse(makePage([makeGif(7, { title: `Found by ${url.searchParams.get('q')}` })]));
      }
      return jsonResponse(makePage([makeGif(1)]));
    }),
  );
}

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

/** The gallery, once its search box proposes suggestions (a chunk loaded after the first paint). */
async function renderGallery(route = '/gifs') {
  const view = renderWithProviders(<GalleryPage />, { route, path: '/gifs' });
  await screen.findByRole('combobox', { name: 'Search GIFs' });
  return view;
}
const box = () => screen.getByRole('combobox', { name: 'Search GIFs' });
const type = (value: string) => fireEvent.change(box(), { target: { value } });
const key = (name: string) => fireEvent.keyDown(box(), { key: name });
/** The live region saying how many suggestions there are. */
const count = () => box().closest('form')!.querySelector('[role="status"]');
const options = () => within(box().closest('form')!).queryAllByRole('option');

describe('search suggestions', () => {
  it('asks once typing pauses after two characters, and lists them with their kinds and a count', async () => {
    serve();
    await renderGallery();
    await screen.findByRole('link', { name: 'Gif 1' });
    expect(box()).toHaveAttribute('aria-expanded', 'false');

    type('c');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(suggestionCalls()).toEqual([]);

    type('ca');
    type('cat');
    await waitFor(() => expect(options()).toHaveLength(4));
    // Only the term typing paused on was asked for.
    expect(suggestionCalls()).toEqual(['/api/search/suggestions?q=cat']);
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    expect(box()).toHaveAttribute('aria-controls', screen.getByRole('listbox', { name: 'Search suggestions' }).id);
    expect(options().map((option) => option.getAttribute('aria-label'))).toEqual([
      'cats, tag',
      'Cat on a keyboard, title',
      'catastrophe, caption',
      'cat fail, popular search',
    ]);
    // What is seen: the text, and beside it where it comes from.
    expect(within(options()[3]!).getByText('cat fail')).toHaveClass('search-box__option-text');
    expect(within(options()[3]!).getByText('popular search')).toHaveClass('search-box__option-kind');
    expect(count()).toHaveTextContent('4 suggestions');
    // The placeholder stays the spec's.
    expect(box()).toHaveAttribute('placeholder', 'Search GIFs by title, description, or tags...');
  });

  it('arrows move the highlight, Enter searches for the highlighted suggestion', async () => {
    serve();
    await renderGallery();
    type('ca');
    await waitFor(() => expect(options()).toHaveLength(4));
    expect(box()).not.toHaveAttribute('aria-activedescendant');

    key('ArrowDown');
    key('ArrowDown');
    expect(box()).toHaveAttribute('aria-activedescendant', options()[1]!.id);
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    key('ArrowUp');
    key('ArrowUp');
    // Wraps around to the last.
    expect(box()).toHaveAttribute('aria-activedescendant', options()[3]!.id);
    key('ArrowDown');
    key('ArrowDown');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');

    key('Enter');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Search results for "Cat on a keyboard"');
    expect(await screen.findByRole('link', { name: 'Found by Cat on a keyboard' })).toBeInTheDocument();
    expect(calls()).toContain('/api/gifs/dtos/search?q=Cat%20on%20a%20keyboard&page=0&size=12');
    expect(box()).toHaveValue('Cat on a keyboard');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(options()).toHaveLength(0);
  });

  it('Enter without a highlight searches the typed text; Escape closes the list and keeps the text', async () => {
    serve();
    await renderGallery();
    type('cat');
    await waitFor(() => expect(options()).toHaveLength(4));
    key('Escape');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(options()).toHaveLength(0);
    expect(box()).toHaveValue('cat');
    expect(count()).toBeEmptyDOMElement();

    // ArrowDown opens it again.
    key('ArrowDown');
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    key('ArrowUp');
    key('ArrowDown');
    key('Escape');
    key('Enter');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Search results for "cat"');
    expect(calls()).toContain('/api/gifs/dtos/search?q=cat&page=0&size=12');
  });

  it('a click picks a suggestion; leaving the box closes the list', async () => {
    serve();
    await renderGallery();
    type('cat');
    await waitFor(() => expect(options()).toHaveLength(4));
    fireEvent.blur(box());
    expect(options()).toHaveLength(0);
    fireEvent.focus(box());
    expect(options()).toHaveLength(4);

    fireEvent.mouseEnter(options()[2]!);
    expect(options()[2]).toHaveAttribute('aria-selected', 'true');
    fireEvent.mouseDown(options()[2]!);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Search results for "catastrophe"');
    expect(calls()).toContain('/api/gifs/dtos/search?q=catastrophe&page=0&size=12');
  });

  it('asks nothing for the term the page opened with until it is edited', async () => {
    serve();
    await renderGallery('/gifs?q=cats');
    await screen.findByRole('link', { name: 'Found by cats' });
    fireEvent.focus(box());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(suggestionCalls()).toEqual([]);
    expect(box()).toHaveAttribute('aria-expanded', 'false');

    type('cats!');
    await waitFor(() => expect(suggestionCalls()).toEqual(['/api/search/suggestions?q=cats!']));
  });

  it.each([
    ['a server error', () => jsonResponse({ error: 'boom', code: 'internal' }, 500)],
    ['a server without suggestions', () => jsonResponse({ error: 'Not found', code: 'not_found' }, 404)],
    ['an answer of the wrong shape', () => jsonResponse({ results: ['cats'] })],
  ])('%s gives no suggestions, no toast and no error line', async (_case, answer) => {
    serve(answer);
    const { toasts } = await renderGallery();
    await screen.findByRole('link', { name: 'Gif 1' });
    type('cat');
    await waitFor(() => expect(suggestionCalls()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(options()).toHaveLength(0);
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(toasts.getState().toasts).toEqual([]);
    expect(screen.queryByRole('alert')).toBeNull();
    // Searching still works.
    key('Enter');
    expect(await screen.findByRole('link', { name: 'Found by cat' })).toBeInTheDocument();
  });

  it('a request for a term typed past is cancelled', async () => {
    const signals = new Map<string, AbortSignal>();
    fetchMock.mockImplementation((input, init) => {
      const url = new URL(urlOf(input), 'http://gifshelf.test');
      if (url.pathname !== '/api/search/suggestions') return Promise.resolve(jsonResponse(makePage([])));
      const q = url.searchParams.get('q') ?? '';
      signals.set(q, init!.signal!);
      // "ca" never answers on its own; "cat" answers at once.
      if (q === 'cat') return Promise.resolve(jsonResponse([{ text: 'cat', kind: 'tag' }]));
      return new Promise<Response>((_resolve, reject) =>
        init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    });
    await renderGallery();
    type('ca');
    await waitFor(() => expect(signals.has('ca')).toBe(true));
    type('cat');
    await waitFor(() => expect(options().map((option) => option.getAttribute('aria-label'))).toEqual(['cat, tag']));
    expect(signals.get('ca')!.aborted).toBe(true);
    expect(count()).toHaveTextContent('1 suggestion');
  });
});
