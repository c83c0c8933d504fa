import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { FakeXhr } from '@/test/fake-xhr';
import { answering } from '@/test/fetch';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { UploadPage } from './upload-page';

const fetchMock = vi.fn<typeof fetch>();
const MB = 1024 * 1024;

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(answering((input) => {
    const url = urlOf(input);
    if (url === '/api/config') return jsonResponse({ googleClientId: null, maxUploadBytes: 10 * MB, version: '1' });
    if (url === '/api/tags')
      return jsonResponse(Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `tag${i + 1}`, count: 12 - i })));
    return jsonResponse({ error: 'not found' }, 404);
  }));
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

function bigFile(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const fileInput = () => screen.getByLabelText<HTMLInputElement>('Choose a file');
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });

describe('upload page', () => {
  it('starts with a disabled Upload GIF button and the hints', async () => {
    renderWithProviders(<UploadPage />);
    expect(screen.getByText('Maximum file size: 10MB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload GIF' })).toBeDisabled();
    expect(screen.getByText('Please select a file to upload.')).toBeInTheDocument();
    expect(screen.getByLabelText('Title *')).toHaveAttribute('maxLength', '100');
    expect(screen.getByLabelText('Description')).toHaveAttribute('maxLength', '500');
    // Up to 10 suggested tags.
    await screen.findByText('Suggested tags');
    expect(screen.getAllByRole('button', { name: /^Add tag / })).toHaveLength(10);
  });

  it('rejects a wrong type with "Invalid File Type"', () => {
    const { toasts } = renderWithProviders(<UploadPage />);
    choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(toasts.getState().toasts[0]).toMatchObject({
      type: 'error',
      title: 'Invalid File Type',
      message: 'Please select a valid image file (GIF, PNG, JPEG, or WebP).',
    });
    expect(screen.getByText('Please select a file to upload.')).toBeInTheDocument();
  });

  it('rejects a file over the limit with "File Too Large" and its size in MB', () => {
    const { toasts } = renderWithProviders(<UploadPage />);
    choose(bigFile('huge.gif', 'image/gif', 11.5 * MB));
    expect(toasts.getState().toasts[0]).toMatchObject({
      type: 'error',
      title: 'File Too Large',
      message: 'File size exceeds 10MB limit. Your file is 11.50MB.',
    });
  });

  it('accepts a valid file with a 3 s info toast, then uploads with progress and goes to /gifs', async () => {
    const { toasts } = renderWithProviders(<UploadPage />, { route: '/upload' });
    choose(bigFile('cat.gif', 'image/gif', 1.5 * MB));
    expect(toasts.getState().toasts[0]).toMatchObject({
      type: 'info',
      message: 'File selected: cat.gif (1.50MB)',
      duration: 3000,
    });
    expect(screen.getByText('Please enter a title for your GIF.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Title *'), { target: { value: '  My cat ' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Meow' } });
    await screen.findByText('Suggested tags');
    fireEvent.click(screen.getByRole('button', { name: 'Add tag tag2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add tag tag1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove tag tag2' }));
    expect(screen.getByLabelText('Rating')).toHaveValue('');
    const submit = screen.getByRole('button', { name: 'Upload GIF' });
    expect(submit).toBeEnabled();
    fireEvent.click(submit);

    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    const xhr = FakeXhr.last();
    expect(xhr.url).toBe('/api/gifs');
    const form = xhr.body as FormData;
    expect((form.get('file') as File).name).toBe('cat.gif');
    const gifData = form.get('gifData') as Blob;
    expect(gifData.type).toBe('application/json');
    expect(JSON.parse(await gifData.text())).toEqual({ title: 'My cat', description: 'Meow', tags: ['tag1'] });

    expect(screen.getByRole('button', { name: 'Upload GIF' })).toBeDisabled();
    act(() => xhr.progress(40, 100));
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '40');
    act(() => xhr.progress(100, 100));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    act(() => xhr.respond(201, { ...makeGif(9), likelyDuplicates: [{ id: 3, title: 'Old cat' }] }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/gifs'));
    expect(toasts.getState().toasts.slice(-2)).toMatchObject([
      { type: 'success', message: 'GIF uploaded successfully!', duration: 4000 },
      { type: 'info', message: 'Stored. It looks like "Old cat", already in the library.' },
    ]);
  });

  it.each([
    [413, { error: 'The file is larger than the 10 MB limit.', code: 'too_large' }, 'File size exceeds server limit. Please choose a smaller file.'],
    [400, { error: 'The file is not an image.', code: 'invalid_image' }, 'Invalid file format or corrupted file. Please try a different file.'],
    [409, { error: 'Something else went wrong', code: 'conflict' }, 'Something else went wrong'],
  ])('maps a %i to an "Upload Failed" toast', async (status, body, message) => {
    const { toasts } = renderWithProviders(<UploadPage />);
    choose(new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }));
    fireEvent.change(screen.getByLabelText('Title *'), { target: { value: 'Cat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload GIF' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    act(() => FakeXhr.last().respond(status, body));
    await waitFor(() =>
      expect(toasts.getState().toasts.at(-1)).toMatchObject({ type: 'error', title: 'Upload Failed', message }),
    );
    expect(screen.getByRole('button', { name: 'Upload GIF' })).toBeEnabled();
  });

  it('accepts a dropped file', () => {
    const { toasts } = renderWithProviders(<UploadPage />);
    const file = new File(['x'], 'drop.webp', { type: 'image/webp' });
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [file] } });
    expect(toasts.getState().toasts[0]?.message).toBe('File selected: drop.webp (0.00MB)');
  });
});
