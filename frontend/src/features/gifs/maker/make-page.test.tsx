import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { FakeXhr } from '@/test/fake-xhr';
import { answering } from '@/test/fetch';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { MakePage } from './make-page';
import { probeImage, probeVideo } from './media';

// The browser's media elements do not play in jsdom: the facts of a source are given here.
vi.mock('./media', () => ({
  probeVideo: vi.fn(() => Promise.resolve({ duration: 4, width: 640, height: 360 })),
  probeImage: vi.fn(() => Promise.resolve({ duration: 2, width: 320, height: 240 })),
  filmstrip: vi.fn(() => Promise.resolve([])),
  imageFilmstrip: vi.fn(() => Promise.resolve([])),
}));

const MB = 1024 * 1024;
const revoke = vi.fn<(url: string) => void>();
const fetchMock = vi.fn<typeof fetch>();
/** What `GET /api/make/9` answers, in turn (the last one again once they run out). */
let jobAnswers: Array<[number, unknown]> = [];

beforeEach(() => {
  jobAnswers = [];
  vi.mocked(probeVideo).mockClear();
  vi.mocked(probeImage).mockClear();
  fetchMock.mockReset();
  fetchMock.mockImplementation(
    answering((input) => {
      const url = urlOf(input);
      if (url === '/api/config') return jsonResponse({ googleClientId: null, maxUploadBytes: 10 * MB, version: '1' });
      if (url === '/api/tags') return jsonResponse([{ id: 1, name: 'cats', count: 3 }]);
      if (url === '/api/make/9') {
        const [status, body] = jobAnswers.length > 1 ? jobAnswers.shift()! : jobAnswers[0]!;
        return jsonResponse(body, status);
      }
      if (url === '/api/gifs/dto/5')
        return jsonResponse(
          makeGif(5, {
            title: 'Dancing cat',
            tags: [{ id: 1, name: 'cats' }],
            renditions: [
              {
                kind: 'mp4',
                url: '/api/gifs/5/files/mp4.mp4',
                contentType: 'video/mp4',
                width: 400,
                height: 300,
                size: 1000,
                frames: 30,
                durationMs: 3000,
                codec: 'h264',
                preferred: true,
              },
            ],
          }),
        );
      return jsonResponse({ error: 'not found' }, 404);
    }),
  );
  vi.stubGlobal('fetch', fetchMock);
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  URL.createObjectURL = vi.fn(() => 'blob:source');
  revoke.mockReset();
  URL.revokeObjectURL = revoke;
  HTMLMediaElement.prototype.pause = vi.fn();
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const choose = (file: File) =>
  fireEvent.change(screen.getByLabelText('Choose a video or GIF'), { target: { files: [file] } });

async function withVideo() {
  const rendered = renderWithProviders(<MakePage />, { route: '/make' });
  choose(new File(['video'], 'demo day.mp4', { type: 'video/mp4' }));
  await screen.findByRole('slider', { name: 'Start' });
  return rendered;
}

/** The parts of the multipart body of the last request. */
async function sentParts() {
  await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
  const xhr = FakeXhr.last();
  const form = xhr.body as FormData;
  const json = async (name: string) => JSON.parse(await (form.get(name) as Blob).text()) as Record<string, unknown>;
  return { xhr, file: form.get('file'), recipe: await json('recipe'), gifData: await json('gifData') };
}

describe('maker: the source', () => {
  it('offers a file, the screen and the camera, and refuses other files', () => {
    const { toasts } = renderWithProviders(<MakePage />, { route: '/make' });
    expect(screen.getByRole('heading', { level: 1, name: 'Make a GIF' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Record screen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Record camera' })).toBeInTheDocument();
    choose(new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(toasts.getState().toasts[0]).toMatchObject({ type: 'error', title: 'Invalid File Type' });
    expect(probeVideo).not.toHaveBeenCalled();
  });

  it('reads a video, then shows the player, the trim and the title from its name', async () => {
    await withVideo();
    expect(probeVideo).toHaveBeenCalledWith('blob:source');
    expect(screen.getByLabelText('Title *')).toHaveValue('demo day');
    expect(screen.getByTestId('trim-start')).toHaveTextContent('0.00 s');
    expect(screen.getByTestId('trim-end')).toHaveTextContent('4.00 s');
    expect(screen.getByTestId('estimate')).toHaveTextContent('About 1.48 MB · 480 × 270 px · 60 frames');
    expect(screen.getByRole('button', { name: 'Make GIF' })).toBeEnabled();
  });

  it('plays a GIF source in an image', async () => {
    renderWithProviders(<MakePage />, { route: '/make' });
    choose(new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }));
    expect(await screen.findByRole('img', { name: 'cat' })).toHaveAttribute('src', 'blob:source');
    expect(probeImage).toHaveBeenCalledWith('blob:source', expect.any(File));
    expect(screen.getByTestId('trim-end')).toHaveTextContent('2.00 s');
  });

  it('"Change source" goes back to the choice and lets the old file go', async () => {
    await withVideo();
    fireEvent.click(screen.getByRole('button', { name: 'Change source' }));
    expect(screen.getByRole('button', { name: 'Record camera' })).toBeInTheDocument();
    expect(revoke).toHaveBeenCalledWith('blob:source');
  });

  it('a file the browser cannot play says so and keeps the choice', async () => {
    vi.mocked(probeVideo).mockRejectedValueOnce(new Error('no'));
    const { toasts } = renderWithProviders(<MakePage />, { route: '/make' });
    choose(new File(['x'], 'odd.mkv', { type: '' }));
    await waitFor(() =>
      expect(toasts.getState().toasts.at(-1)).toMatchObject({
        type: 'error',
        message: 'The browser cannot play this file. Try an MP4 or WebM video, or a GIF.',
      }),
    );
    expect(screen.getByRole('button', { name: 'Record camera' })).toBeInTheDocument();
  });
});

describe('maker: trim, crop and output', () => {
  it('moves the trim handles one frame per arrow key, a second per Page key', async () => {
    await withVideo();
    const start = screen.getByRole('slider', { name: 'Start' });
    fireEvent.keyDown(start, { key: 'ArrowRight' });
    expect(screen.getByTestId('trim-start')).toHaveTextContent('0.07 s');
    fireEvent.keyDown(start, { key: 'PageUp' });
    expect(start).toHaveAttribute('aria-valuetext', '1.07 s');
    const end = screen.getByRole('slider', { name: 'End' });
    fireEvent.keyDown(end, { key: 'ArrowLeft' });
    fireEvent.keyDown(end, { key: 'ArrowDown' });
    expect(screen.getByTestId('trim-end')).toHaveTextContent('3.87 s');
    fireEvent.change(screen.getByLabelText('Frames per second'), { target: { value: '10' } });
    expect(screen.getByTestId('trim-start')).toHaveTextContent('1.10 s');
    expect(screen.getByTestId('trim-end')).toHaveTextContent('3.90 s');
  });

  it('crop presets take the largest centred crop; arrows move it; Clear crop drops it', async () => {
    await withVideo();
    fireEvent.click(screen.getByRole('button', { name: '1:1' }));
    expect(screen.getByTestId('crop-value')).toHaveTextContent('360 × 360 px at 140, 0');
    expect(screen.getByTestId('estimate')).toHaveTextContent('360 × 360 px');
    fireEvent.keyDown(screen.getByRole('group', { name: 'Crop area' }), { key: 'ArrowRight' });
    expect(screen.getByTestId('crop-value')).toHaveTextContent('360 × 360 px at 144, 0');
    fireEvent.click(screen.getByRole('button', { name: '9:16' }));
    expect(screen.getByTestId('crop-value')).toHaveTextContent('203 × 360 px at 218, 0');
    fireEvent.click(screen.getByRole('button', { name: 'Clear crop' }));
    expect(screen.getByTestId('crop-value')).toHaveTextContent('Whole picture');
  });

  it('warns when the estimate passes the upload limit', async () => {
    vi.mocked(probeVideo).mockResolvedValueOnce({ duration: 30, width: 640, height: 360 });
    await withVideo();
    expect(screen.queryByText(/over the upload limit/)).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Width'), { target: { value: '640' } });
    fireEvent.change(screen.getByLabelText('Frames per second'), { target: { value: '25' } });
    fireEvent.change(screen.getByLabelText('Speed'), { target: { value: '0.5' } });
    expect(screen.getByText(/That is over the upload limit of 10.00 MB/)).toBeInTheDocument();
  });

  it('shows the caption over the player and counts its characters', async () => {
    await withVideo();
    fireEvent.change(screen.getByLabelText('Caption'), { target: { value: 'Ship it' } });
    fireEvent.change(screen.getByLabelText('Caption position'), { target: { value: 'top' } });
    const preview = screen.getByTestId('caption-preview');
    expect(preview).toHaveTextContent('Ship it');
    expect(preview).toHaveClass('maker-caption--top', 'maker-caption--m');
    expect(screen.getByText('7/100')).toBeInTheDocument();
  });
});

describe('maker: making the GIF', () => {
  it('sends the file, the data and the recipe, shows progress, then opens the new GIF', async () => {
    jobAnswers = [
      [200, { state: 'running', progress: 0.4 }],
      [200, { state: 'done', progress: 1, gifId: 42 }],
    ];
    const { toasts } = await withVideo();
    fireEvent.keyDown(screen.getByRole('slider', { name: 'Start' }), { key: 'ArrowRight' });
    fireEvent.click(screen.getByRole('button', { name: '1:1' }));
    fireEvent.change(screen.getByLabelText('Direction'), { target: { value: 'boomerang' } });
    fireEvent.change(screen.getByLabelText('Caption'), { target: { value: ' Ship it ' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make GIF' }));

    const { xhr, file, recipe, gifData } = await sentParts();
    expect(xhr.url).toBe('/api/make');
    expect((file as File).name).toBe('demo day.mp4');
    expect(gifData).toEqual({ title: 'demo day', description: 'Demo', tags: [] });
    expect(recipe).toEqual({
      start: 0.067,
      end: 4,
      crop: { x: 140, y: 0, width: 360, height: 360 },
      width: 480,
      fps: 15,
      speed: 1,
      direction: 'boomerang',
      loop: 0,
      caption: { text: 'Ship it', position: 'bottom', size: 'm' },
    });
    expect(screen.getByText('Sending the source...')).toBeInTheDocument();
    // Leaving the page now asks first.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    expect(screen.getByRole('button', { name: 'Make GIF' })).toBeDisabled();
    act(() => xhr.progress(50, 100));
    expect(screen.getByRole('progressbar', { name: 'Progress of the GIF' })).toHaveAttribute('aria-valuenow', '50');

    act(() => xhr.respond(202, { jobId: 9 }));
    expect(await screen.findByText('Making the GIF...')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/gifs/42'), { timeout: 3000 });
    expect(toasts.getState().toasts.at(-1)).toMatchObject({ type: 'success', message: 'GIF made!' });
    // Done: leaving no longer asks.
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });

  it('a failed job shows its error in a toast and gives the form back', async () => {
    jobAnswers = [[200, { state: 'failed', progress: 0.2, error: { error: 'The video has no picture.', code: 'invalid_video' } }]];
    const { toasts } = await withVideo();
    fireEvent.click(screen.getByRole('button', { name: 'Make GIF' }));
    const { xhr } = await sentParts();
    act(() => xhr.respond(202, { jobId: 9 }));
    await waitFor(() =>
      expect(toasts.getState().toasts.at(-1)).toMatchObject({
        type: 'error',
        title: 'Making the GIF failed',
        message: 'The video has no picture.',
      }),
    );
    expect(screen.getByRole('button', { name: 'Make GIF' })).toBeEnabled();
    expect(screen.getByTestId('location')).toHaveTextContent('/make');
  });

  it('a refused request shows the server’s sentence', async () => {
    const { toasts } = await withVideo();
    fireEvent.click(screen.getByRole('button', { name: 'Make GIF' }));
    const { xhr } = await sentParts();
    act(() => xhr.respond(400, { error: 'A clip is at most 60 s of the source.', code: 'validation' }));
    await waitFor(() =>
      expect(toasts.getState().toasts.at(-1)).toMatchObject({
        type: 'error',
        title: 'Making the GIF failed',
        message: 'A clip is at most 60 s of the source.',
      }),
    );
    expect(screen.getByRole('button', { name: 'Make GIF' })).toBeEnabled();
  });

  it('needs a title', async () => {
    await withVideo();
    fireEvent.change(screen.getByLabelText('Title *'), { target: { value: '  ' } });
    expect(screen.getByRole('button', { name: 'Make GIF' })).toBeDisabled();
    expect(screen.getByText('Please enter a title for your GIF.')).toBeInTheDocument();
  });

  it('"Edit a copy" starts from the GIF’s MP4, keeps its tags and sends gifId without a file', async () => {
    renderWithProviders(<MakePage />, { route: '/make?gif=5' });
    expect(await screen.findByText('Editing a copy of "Dancing cat"')).toBeInTheDocument();
    await screen.findByRole('slider', { name: 'Start' });
    expect(probeVideo).not.toHaveBeenCalled(); // the rendition's own duration and size
    expect(screen.getByTestId('trim-end')).toHaveTextContent('3.00 s');
    expect(screen.getByLabelText('Title *')).toHaveValue('Dancing cat');
    expect(screen.queryByRole('button', { name: 'Change source' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Make GIF' }));
    const { file, recipe, gifData } = await sentParts();
    expect(file).toBeNull();
    expect(recipe).toMatchObject({ gifId: 5, start: 0, end: 3 });
    expect(gifData).toMatchObject({ title: 'Dancing cat', tags: ['cats'] });
  });
});
