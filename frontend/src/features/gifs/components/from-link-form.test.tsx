import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { UploadPage } from './upload-page';

const fetchMock = vi.fn<typeof fetch>();
let answer: () => Promise<Response>;

beforeEach(() => {
  answer = () => Promise.resolve(jsonResponse(makeGif(31), 201));
  fetchMock.mockReset();
  fetchMock.mockImplementation((input) => {
    const url = urlOf(input);
    if (url === '/api/gifs/from-url') return answer();
    if (url === '/api/config')
      return Promise.resolve(jsonResponse({ googleClientId: null, maxUploadBytes: 10 * 1024 * 1024, version: '1' }));
    if (url === '/api/tags') return Promise.resolve(jsonResponse([{ id: 1, name: 'cats', count: 3 }]));
    return Promise.resolve(jsonResponse({ error: 'not found' }, 404));
  });
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

/** The JSON bodies sent to /api/gifs/from-url (the API client sends JSON as strings). */
const sent = () =>
  fetchMock.mock.calls
    .filter(([input]) => urlOf(input) === '/api/gifs/from-url')
    .map(([, init]) => (typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined));

function openForm() {
  const rendered = renderWithProviders(<UploadPage />, { route: '/upload' });
  fireEvent.click(screen.getByRole('button', { name: 'From a link' }));
  expect(screen.getByRole('button', { name: 'From a link' })).toHaveAttribute('aria-pressed', 'true');
  return rendered;
}

it('names what is missing, then sends the link, title, description and tags and goes to /gifs', async () => {
  const { toasts } = openForm();
  const submit = screen.getByRole('button', { name: 'Upload from link' });
  expect(submit).toBeDisabled();
  expect(screen.getByText('Please paste the link of a GIF or of a page showing one.')).toBeInTheDocument();
  fireEvent.change(screen.getByLabelText('Link *'), { target: { value: 'ftp://example.com/a.gif' } });
  expect(screen.getByText('Links start with http:// or https://.')).toBeInTheDocument();
  fireEvent.change(screen.getByLabelText('Link *'), { target: { value: ' https://example.com/a.gif ' } });
  expect(screen.getByText('Please enter a title for your GIF.')).toBeInTheDocument();
  fireEvent.change(screen.getByLabelText('Title *'), { target: { value: ' Dancing ' } });
  fireEvent.change(screen.getByLabelText('Description'), { target: { value: ' Moves ' } });
  fireEvent.click(await screen.findByRole('button', { name: 'Add tag cats' }));
  expect(submit).toBeEnabled();

  fireEvent.click(submit);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/gifs'));
  expect(sent()).toEqual([{ url: 'https://example.com/a.gif', title: 'Dancing', description: 'Moves', tags: ['cats'] }]);
  expect(toasts.getState().toasts.at(-1)).toMatchObject({ type: 'success', message: 'GIF uploaded successfully!', duration: 4000 });
});

it('shows "Fetching the image…" while the server works, then its refusal in an "Upload Failed" toast', async () => {
  let refuse: (response: Response) => void = () => undefined;
  answer = () => new Promise((resolve) => (refuse = resolve));
  const { toasts } = openForm();
  fireEvent.change(screen.getByLabelText('Link *'), { target: { value: 'https://example.com/page' } });
  fireEvent.change(screen.getByLabelText('Title *'), { target: { value: 'Page' } });
  fireEvent.click(screen.getByRole('button', { name: 'Upload from link' }));
  expect(await screen.findByText('Fetching the image…')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Upload from link' })).toBeDisabled();
  expect(screen.getByLabelText('Link *')).toBeDisabled();

  refuse(jsonResponse({ error: 'The page names no image.', code: 'url_fetch_failed' }, 400));
  await waitFor(() =>
    expect(toasts.getState().toasts.at(-1)).toMatchObject({
      type: 'error',
      title: 'Upload Failed',
      message: 'The page names no image.',
    }),
  );
  expect(screen.queryByText('Fetching the image…')).toBeNull();
  expect(screen.queryByRole('link', { name: 'View the GIF you already have' })).toBeNull();
  expect(screen.getByTestId('location')).toHaveTextContent('/upload');
});

it('links a duplicate to the GIF already in the library', async () => {
  answer = () =>
    Promise.resolve(jsonResponse({ error: 'This GIF is already in the library.', code: 'duplicate', existingId: 12 }, 409));
  const { toasts } = openForm();
  fireEvent.change(screen.getByLabelText('Link *'), { target: { value: 'https://example.com/a.gif' } });
  fireEvent.change(screen.getByLabelText('Title *'), { target: { value: 'Again' } });
  fireEvent.click(screen.getByRole('button', { name: 'Upload from link' }));
  expect(await screen.findByRole('link', { name: 'View the GIF you already have' })).toHaveAttribute('href', '/gifs/12');
  expect(toasts.getState().toasts.at(-1)).toMatchObject({
    type: 'error',
    title: 'Upload Failed',
    message: 'This GIF is already in the library.',
  });
});
