import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { TagEditor } from './tag-editor';

const fetchMock = vi.fn<typeof fetch>();
const names = ['cat', 'cats', 'bobcat', 'dog', 'catalog', 'scatter', 'c1cat', 'c2cat', 'c3cat', 'c4cat', 'c5cat', 'c6cat'];

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(answering((input, init) => {
    const url = urlOf(input);
    if (url === '/api/tags') return jsonResponse(names.map((name, i) => ({ id: i + 1, name, count: 1 })));
    if (url === '/api/tags?name=exists' && init?.method === 'POST') return jsonResponse({ error: 'exists', code: 'conflict' }, 409);
    if (url === '/api/tags?name=bad' && init?.method === 'POST') return jsonResponse({ error: 'Tag name too long', code: 'validation' }, 400);
    return jsonResponse({ id: 99, name: 'x', count: 0 }, 201);
  }));
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

function Harness() {
  const [tags, setTags] = useState<string[]>([]);
  return (
    <>
      <TagEditor tags={tags} setTags={setTags} quickAddLabel="Available tags" />
      <output data-testid="tags">{tags.join(',')}</output>
    </>
  );
}

it('suggests by substring (exact match excluded, max 8) and is keyboard navigable', async () => {
  renderWithProviders(<Harness />);
  await screen.findByText('Available tags');
  const input = screen.getByRole('combobox', { name: 'Tags' });
  fireEvent.change(input, { target: { value: 'Cat' } });
  const options = screen.getAllByRole('option');
  expect(options).toHaveLength(8);
  expect(options.map((o) => o.textContent)).not.toContain('cat');
  expect(input).toHaveAttribute('aria-expanded', 'true');

  fireEvent.keyDown(input, { key: 'ArrowDown' });
  fireEvent.keyDown(input, { key: 'ArrowDown' });
  expect(input).toHaveAttribute('aria-activedescendant', options[1]?.id);
  expect(options[1]).toHaveAttribute('aria-selected', 'true');
  fireEvent.keyDown(input, { key: 'ArrowUp' });
  fireEvent.keyDown(input, { key: 'Enter' });
  await waitFor(() => expect(screen.getByTestId('tags')).toHaveTextContent('cats'));
  expect(input).toHaveValue('');

  fireEvent.change(input, { target: { value: 'cat' } });
  fireEvent.keyDown(input, { key: 'Escape' });
  expect(screen.queryAllByRole('option')).toHaveLength(0);
  fireEvent.keyDown(input, { key: 'Enter' });
  await waitFor(() => expect(screen.getByTestId('tags')).toHaveTextContent('cats,cat'));
  // Known tags are not created again.
  expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
});

it('trims, lower-cases, ignores duplicates, and creates unknown tags first (409 is fine)', async () => {
  renderWithProviders(<Harness />);
  await screen.findByText('Available tags');
  const input = screen.getByRole('combobox', { name: 'Tags' });
  fireEvent.change(input, { target: { value: '  Brand NEW ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(screen.getByTestId('tags')).toHaveTextContent('brand new'));
  expect(urlOf(fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')?.[0])).toBe('/api/tags?name=brand%20new');

  fireEvent.change(input, { target: { value: 'BRAND new' } });
  fireEvent.keyDown(input, { key: 'Enter' });
  fireEvent.change(input, { target: { value: 'exists' } });
  fireEvent.keyDown(input, { key: 'Enter' });
  await waitFor(() => expect(screen.getByTestId('tags')).toHaveTextContent('brand new,exists'));

  fireEvent.change(input, { target: { value: 'bad' } });
  fireEvent.keyDown(input, { key: 'Enter' });
  expect(await screen.findByRole('alert')).toHaveTextContent('Tag name too long');
  expect(screen.getByTestId('tags')).toHaveTextContent('brand new,exists');

  // Quick-add: at most 10, never the selected ones.
  expect(screen.getAllByRole('button', { name: /^Add tag / })).toHaveLength(10);
  fireEvent.click(screen.getByRole('button', { name: 'Add tag dog' }));
  expect(screen.getByTestId('tags')).toHaveTextContent('brand new,exists,dog');
  expect(screen.queryByRole('button', { name: 'Add tag dog' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Remove tag exists' }));
  expect(screen.getByTestId('tags')).toHaveTextContent(/^brand new,dog$/);
});
