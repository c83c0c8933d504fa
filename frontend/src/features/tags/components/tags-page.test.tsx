import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TagDto } from '@/api/generated/TagDto';
import { login, logout } from '@/lib/session';
import { answering, clickAndSettle, urlOf } from '@/test/fetch';
import { jsonResponse } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { DELETE_EMPTY_CONFIRM, TagsPage } from './tags-page';

const fetchMock = vi.fn<typeof fetch>();
const requests = () =>
  fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${urlOf(input)}`);
const tag = (id: number, name: string, count: number): TagDto => ({ id, name, count });

let serverTags: TagDto[] = [];

/** A tiny fake of the tag endpoints. */
function fakeServer(overrides: Partial<Record<string, () => Response>> = {}) {
  fetchMock.mockImplementation(answering((input, init) => {
    const key = `${init?.method ?? 'GET'} ${urlOf(input)}`;
    const override = overrides[key];
    if (override) return override();
    if (key === 'GET /api/tags') return jsonResponse(serverTags);
    const create = /^POST \/api\/tags\?name=(.*)$/.exec(key);
    if (create) return jsonResponse(tag(99, decodeURIComponent(create[1] ?? ''), 0), 201);
    const update = /^PUT \/api\/tags\/(\d+)\?name=(.*)$/.exec(key);
    if (update) {
      const found = serverTags.find((t) => t.id === Number(update[1]));
      return jsonResponse({ ...found, name: decodeURIComponent(update[2] ?? '') });
    }
    if (key === 'DELETE /api/tags/empty') return jsonResponse({ deletedIds: serverTags.filter((t) => t.count === 0).map((t) => t.id) });
    if (/^DELETE \/api\/tags\/\d+$/.test(key)) return new Response(null, { status: 204 });
    return jsonResponse({ error: 'unexpected' }, 500);
  }));
}

const signIn = (admin: boolean) =>
  login(tokenFor(admin ? 'root' : 'alice', 3600, admin ? 'ROLE_USER,ROLE_ADMIN' : 'ROLE_USER'));

const renderPage = () => renderWithProviders(<TagsPage />, { route: '/tags', path: '/tags' });
const entries = () =>
  within(screen.getByRole('list', { name: 'Tags' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  serverTags = [tag(1, 'zebra', 2), tag(2, 'cats', 5), tag(3, 'apple', 2), tag(4, 'empty', 0)];
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('tags page (browse)', () => {
  it('shows "Loading tags...", then "{name} ({count})" links by count desc then name', async () => {
    signIn(false);
    fakeServer();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Browse by Tags' })).toBeInTheDocument();
    expect(screen.getByText('Loading tags...')).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Tags' });
    expect(entries()).toEqual(['cats (5)', 'apple (2)', 'zebra (2)', 'empty (0)']);
    expect(screen.getByRole('link', { name: 'cats (5)' })).toHaveAttribute('href', '/tags/cats');
  });

  it('links encode the tag name', async () => {
    signIn(false);
    serverTags = [tag(1, 'funny cats/dogs', 1)];
    fakeServer();
    renderPage();
    expect(await screen.findByRole('link', { name: 'funny cats/dogs (1)' })).toHaveAttribute(
      'href',
      '/tags/funny%20cats%2Fdogs',
    );
  });

  it('has no manage controls for a plain user', async () => {
    signIn(false);
    fakeServer();
    renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    expect(screen.queryByRole('heading', { name: 'Manage Tags' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Empty Tags' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Rename/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete Tag/ })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Create a New Tag' })).toBeInTheDocument();
  });

  it('shows "No tags found." and "Error: {message}"', async () => {
    signIn(false);
    serverTags = [];
    fakeServer();
    renderPage();
    expect(await screen.findByText('No tags found.')).toBeInTheDocument();
    cleanup();
    fakeServer({ 'GET /api/tags': () => jsonResponse({}, 404) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Failed to fetch tags');
  });

  it('creates a trimmed tag and appends it to the list; a blank name sends nothing', async () => {
    signIn(false);
    fakeServer();
    const { toasts } = renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    const input = screen.getByRole('textbox', { name: 'Tag name' });
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Tag' }));
    expect(screen.getByText('Please enter a tag name.')).toBeInTheDocument();
    expect(requests()).toEqual(['GET /api/tags']);

    fireEvent.change(input, { target: { value: '  wow ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Tag' }));
    expect(await screen.findByRole('link', { name: 'wow (0)' })).toHaveAttribute('href', '/tags/wow');
    expect(requests()).toEqual(['GET /api/tags', 'POST /api/tags?name=wow']);
    expect(entries().at(-1)).toBe('wow (0)');
    expect(input).toHaveValue('');
    expect(toasts.getState().toasts.map((t) => t.message)).toContain('Tag "wow" created');
  });

  it('shows the server error of a create (409)', async () => {
    signIn(false);
    fakeServer({
      'POST /api/tags?name=cats': () => jsonResponse({ error: 'The tag "cats" already exists', code: 'conflict' }, 409),
    });
    renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Tag name' }), { target: { value: 'cats' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Tag' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The tag "cats" already exists');
    expect(entries()).toHaveLength(4);
  });
});

describe('tags page (manage, admins)', () => {
  it('shows "Manage Tags", rename and delete per tag, and "Delete Empty Tags"', async () => {
    signIn(true);
    fakeServer();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Tags' })).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Tags' });
    expect(screen.getAllByRole('button', { name: /^Rename / })).toHaveLength(4);
    expect(screen.getAllByRole('button', { name: /^Delete Tag / })).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Delete Empty Tags' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Create a New Tag' })).toBeInTheDocument();
  });

  it('Enter renames (trimmed) and the entry is replaced in place', async () => {
    signIn(true);
    fakeServer();
    const { toasts } = renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    fireEvent.click(screen.getByRole('button', { name: 'Rename cats' }));
    const input = screen.getByRole('textbox', { name: 'New name for cats' });
    expect(input).toHaveFocus();
    fireEvent.change(input, { target: { value: ' kittens ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(await screen.findByRole('link', { name: 'kittens (5)' })).toBeInTheDocument();
    expect(requests()).toEqual(['GET /api/tags', 'PUT /api/tags/2?name=kittens']);
    expect(entries()[0]).toBe('kittens (5)');
    expect(toasts.getState().toasts.map((t) => t.message)).toContain('Tag "cats" renamed to "kittens"');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Rename kittens' })).toHaveFocus());
  });

  it('blur saves; Escape cancels; unchanged or blank names call nothing', async () => {
    signIn(true);
    fakeServer();
    renderPage();
    await screen.findByRole('list', { name: 'Tags' });

    fireEvent.click(screen.getByRole('button', { name: 'Rename apple' }));
    let input = screen.getByRole('textbox', { name: 'New name for apple' });
    fireEvent.change(input, { target: { value: 'pear' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: /^New name for/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'apple (2)' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Rename apple' }));
    input = screen.getByRole('textbox', { name: 'New name for apple' });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Rename apple' }));
    input = screen.getByRole('textbox', { name: 'New name for apple' });
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.blur(input);
    expect(screen.queryByRole('textbox', { name: /^New name for/ })).toBeNull();
    expect(requests()).toEqual(['GET /api/tags']);

    fireEvent.click(screen.getByRole('button', { name: 'Rename apple' }));
    input = screen.getByRole('textbox', { name: 'New name for apple' });
    fireEvent.change(input, { target: { value: 'pear' } });
    fireEvent.blur(input);
    expect(await screen.findByRole('link', { name: 'pear (2)' })).toBeInTheDocument();
    expect(requests()).toEqual(['GET /api/tags', 'PUT /api/tags/3?name=pear']);
  });

  it('a failed rename shows the server error and keeps the old name', async () => {
    signIn(true);
    fakeServer({ 'PUT /api/tags/2?name=apple': () => jsonResponse({ error: 'The tag "apple" already exists' }, 409) });
    const { toasts } = renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    fireEvent.click(screen.getByRole('button', { name: 'Rename cats' }));
    const input = screen.getByRole('textbox', { name: 'New name for cats' });
    fireEvent.change(input, { target: { value: 'apple' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() =>
      expect(toasts.getState().toasts.map((t) => t.message)).toContain('The tag "apple" already exists'),
    );
    expect(screen.getByRole('link', { name: 'cats (5)' })).toBeInTheDocument();
  });

  it('delete asks "Delete Tag ..." and removes the tag; cancelling keeps it', async () => {
    signIn(true);
    fakeServer();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { toasts } = renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Tag zebra' }));
    expect(confirm).toHaveBeenLastCalledWith('Delete Tag "zebra"? The GIFs keep existing; they lose this tag.');
    expect(requests()).toEqual(['GET /api/tags']);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Tag zebra' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'zebra (2)' })).toBeNull());
    expect(requests()).toEqual(['GET /api/tags', 'DELETE /api/tags/1']);
    expect(entries()).toEqual(['cats (5)', 'apple (2)', 'empty (0)']);
    expect(toasts.getState().toasts.map((t) => t.message)).toContain('Tag "zebra" deleted');
  });

  it('"Delete Empty Tags" confirms and removes every id in deletedIds', async () => {
    signIn(true);
    serverTags = [...serverTags, tag(5, 'void', 0)];
    fakeServer();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { toasts } = renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Empty Tags' }));
    expect(confirm).toHaveBeenCalledWith(DELETE_EMPTY_CONFIRM);
    expect(DELETE_EMPTY_CONFIRM).toBe('Are you sure you want to delete all tags with 0 GIFs?');
    await waitFor(() => expect(entries()).toEqual(['cats (5)', 'apple (2)', 'zebra (2)']));
    expect(requests()).toEqual(['GET /api/tags', 'DELETE /api/tags/empty']);
    expect(toasts.getState().toasts.map((t) => t.message)).toContain('Deleted 2 empty tags');
  });

  it('a failed delete shows "Failed to delete tag" by default', async () => {
    signIn(true);
    fakeServer({ 'DELETE /api/tags/1': () => new Response('', { status: 404 }) });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { toasts } = renderPage();
    await screen.findByRole('list', { name: 'Tags' });
    await clickAndSettle(screen.getByRole('button', { name: 'Delete Tag zebra' }));
    await waitFor(() => expect(toasts.getState().toasts.map((t) => t.message)).toContain('Failed to delete tag'));
    expect(screen.getByRole('link', { name: 'zebra (2)' })).toBeInTheDocument();
  });
});
