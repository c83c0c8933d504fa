import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { FakeXhr } from '@/test/fake-xhr';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { UploadPage } from './upload-page';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation((input) => {
    const url = urlOf(input);
    if (url === '/api/config')
      return Promise.resolve(jsonResponse({ googleClientId: null, maxUploadBytes: 10 * 1024 * 1024, version: '1' }));
    if (url === '/api/tags') return Promise.resolve(jsonResponse([]));
    return Promise.resolve(jsonResponse({ error: 'not found' }, 404));
  });
  vi.stubGlobal('fetch', fetchMock);
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

const gif = (name: string) => new File(['GIF89a'], name, { type: 'image/gif' });
const row = (name: string) => screen.getByRole('listitem', { name });
const titleSent = async (xhr: FakeXhr) =>
  (JSON.parse(await ((xhr.body as FormData).get('gifData') as Blob).text()) as { title: string }).title;

it('several files become rows sent two at a time, each with its result, then one summary toast', async () => {
  const { toasts } = renderWithProviders(<UploadPage />);
  fireEvent.change(screen.getByLabelText('Choose a file'), {
    target: { files: [gif('dancing_cat.gif'), gif('happy-dog.gif'), gif('notes.gif'), gif('again.gif')] },
  });
  expect(screen.getAllByTestId('batch-row')).toHaveLength(4);
  expect(screen.getByText('4 files chosen. Drop more here, or')).toBeInTheDocument();
  expect(screen.getByLabelText('Title for dancing_cat.gif')).toHaveValue('dancing cat');
  fireEvent.change(screen.getByLabelText('Title for happy-dog.gif'), { target: { value: 'A very happy dog' } });
  fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Together' } });

  fireEvent.click(screen.getByRole('button', { name: 'Upload 4 GIFs' }));
  await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
  expect(screen.getAllByRole('progressbar')).toHaveLength(4);
  expect(within(row('dancing_cat.gif')).getByTestId('batch-result')).toHaveTextContent('Uploading');
  expect(within(row('notes.gif')).getByTestId('batch-result')).toHaveTextContent('Waiting');
  expect(screen.getByRole('button', { name: 'Start over' })).toBeDisabled();
  const [cat, dog] = FakeXhr.instances;
  expect(await titleSent(cat!)).toBe('dancing cat');
  expect(await titleSent(dog!)).toBe('A very happy dog');

  act(() => cat!.progress(30, 100));
  expect(screen.getByRole('progressbar', { name: 'Upload progress of dancing_cat.gif' })).toHaveAttribute(
    'aria-valuenow',
    '30',
  );
  act(() => cat!.respond(201, { ...makeGif(21), likelyDuplicates: [] }));
  await waitFor(() => expect(FakeXhr.instances).toHaveLength(3));
  expect(within(row('dancing_cat.gif')).getByRole('link', { name: 'View GIF' })).toHaveAttribute('href', '/gifs/21');

  act(() => dog!.respond(201, { ...makeGif(22), likelyDuplicates: [] }));
  await waitFor(() => expect(FakeXhr.instances).toHaveLength(4));
  const [, , notes, again] = FakeXhr.instances;
  act(() => notes!.respond(400, { error: 'The file is not a supported image.', code: 'unsupported_type' }));
  act(() => again!.respond(409, { error: 'Already there', code: 'duplicate', existingId: 7 }));

  await waitFor(() =>
    expect(toasts.getState().toasts.at(-1)).toMatchObject({
      type: 'warning',
      message: '2 of 4 GIFs uploaded. See the list for the others.',
    }),
  );
  expect(within(row('notes.gif')).getByTestId('batch-result')).toHaveTextContent(
    'RefusedThe file is not a supported image.',
  );
  expect(within(row('notes.gif')).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  expect(within(row('again.gif')).getByTestId('batch-result')).toHaveTextContent('DuplicateThis GIF is already in the library');
  expect(within(row('again.gif')).getByRole('link', { name: 'View the GIF you already have' })).toHaveAttribute(
    'href',
    '/gifs/7',
  );
  expect(screen.queryAllByRole('progressbar')).toHaveLength(0);
  expect(toasts.getState().toasts.filter((toast) => toast.message.includes('GIFs uploaded'))).toHaveLength(1);

  fireEvent.click(screen.getByRole('button', { name: 'Remove notes.gif' }));
  expect(screen.getAllByTestId('batch-row')).toHaveLength(3);
  fireEvent.click(screen.getByRole('button', { name: 'Start over' }));
  expect(screen.getByRole('button', { name: 'Upload GIF' })).toBeInTheDocument();
});
