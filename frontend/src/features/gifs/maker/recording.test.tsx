import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { MakePage } from './make-page';
import { probeVideo } from './media';

vi.mock('./media', () => ({
  probeVideo: vi.fn((_url: string, known: number | null) => Promise.resolve({ duration: known ?? 1, width: 640, height: 480 })),
  probeImage: vi.fn(),
  filmstrip: vi.fn(() => Promise.resolve([])),
  imageFilmstrip: vi.fn(() => Promise.resolve([])),
}));

/** A camera or screen: its track can be stopped, or end by itself (the browser's "Stop sharing"). */
class FakeTrack extends EventTarget {
  stopped = false;
  stop() {
    this.stopped = true;
  }
}

function fakeStream() {
  const track = new FakeTrack();
  return { track, stream: { getTracks: () => [track], getVideoTracks: () => [track] } as unknown as MediaStream };
}

/** MediaRecorder as far as the maker uses it: a chunk on stop, then `onstop`. */
class FakeRecorder {
  static last: FakeRecorder | null = null;
  static isTypeSupported = (type: string) => type === 'video/webm;codecs=vp9';
  state: 'inactive' | 'recording' = 'inactive';
  mimeType: string;
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(
    readonly stream: MediaStream,
    options?: { mimeType?: string },
  ) {
    this.mimeType = options?.mimeType ?? '';
    FakeRecorder.last = this;
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['webm bytes'], { type: 'video/webm' }) });
    this.onstop?.();
  }
}

let camera: ReturnType<typeof fakeStream>;
const getUserMedia = vi.fn<(constraints: MediaStreamConstraints) => Promise<MediaStream>>();
const getDisplayMedia = vi.fn<(constraints: DisplayMediaStreamOptions) => Promise<MediaStream>>();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  camera = fakeStream();
  FakeRecorder.last = null;
  vi.mocked(probeVideo).mockClear();
  getUserMedia.mockReset().mockResolvedValue(camera.stream);
  getDisplayMedia.mockReset().mockResolvedValue(camera.stream);
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia, getDisplayMedia }, configurable: true });
  vi.stubGlobal(
    'fetch',
    vi.fn(answering((input) => (urlOf(input) === '/api/config' ? jsonResponse({ maxUploadBytes: 10485760 }) : jsonResponse([])))),
  );
  URL.createObjectURL = vi.fn(() => 'blob:recording');
  URL.revokeObjectURL = vi.fn();
  HTMLMediaElement.prototype.pause = vi.fn();
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const tick = (ms: number) => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

async function startCamera() {
  renderWithProviders(<MakePage />, { route: '/make' });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Record camera' }));
    await Promise.resolve();
  });
}

describe('maker: recording', () => {
  it('counts down 3-2-1, records until Stop, and uses the time it counted', async () => {
    await startCamera();
    expect(getUserMedia).toHaveBeenCalledWith({ video: true, audio: false });
    expect(screen.getByText('Recording starts in 3…')).toBeInTheDocument();
    tick(1000);
    expect(screen.getByText('Recording starts in 2…')).toBeInTheDocument();
    tick(1000);
    expect(screen.getByText('Recording starts in 1…')).toBeInTheDocument();
    expect(FakeRecorder.last).toBeNull();
    tick(1000);
    expect(FakeRecorder.last?.state).toBe('recording');
    expect(FakeRecorder.last?.mimeType).toBe('video/webm;codecs=vp9');
    tick(4200);
    expect(screen.getByText('Recording: 4 s of 30 s')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
      await Promise.resolve();
    });
    expect(camera.track.stopped).toBe(true);
    expect(vi.mocked(probeVideo).mock.calls[0]?.[1]).toBeCloseTo(4.2, 1);
    expect(await screen.findByLabelText('Title *')).toHaveValue('Camera recording');
    expect(screen.getByTestId('trim-end')).toHaveTextContent('4.20 s');
  });

  it('stops by itself after 30 seconds', async () => {
    await startCamera();
    tick(3000);
    await act(async () => {
      vi.advanceTimersByTime(31_000);
      await Promise.resolve();
    });
    expect(FakeRecorder.last?.state).toBe('inactive');
    expect(vi.mocked(probeVideo).mock.calls[0]?.[1]).toBe(30);
    expect(await screen.findByTestId('trim-end')).toHaveTextContent('10.00 s');
  });

  it('stops when the shared screen ends', async () => {
    renderWithProviders(<MakePage />, { route: '/make' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Record screen' }));
      await Promise.resolve();
    });
    expect(getDisplayMedia).toHaveBeenCalled();
    tick(3000);
    tick(2000);
    await act(async () => {
      camera.track.dispatchEvent(new Event('ended'));
      await Promise.resolve();
    });
    expect(await screen.findByLabelText('Title *')).toHaveValue('Screen recording');
  });

  it('Cancel during the countdown records nothing and lets the camera go', async () => {
    await startCamera();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(camera.track.stopped).toBe(true);
    tick(5000);
    expect(FakeRecorder.last).toBeNull();
    expect(screen.getByRole('button', { name: 'Record camera' })).toBeInTheDocument();
  });

  it('a refused camera says why in a toast', async () => {
    getUserMedia.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
    const { toasts } = renderWithProviders(<MakePage />, { route: '/make' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Record camera' }));
      await Promise.resolve();
    });
    expect(toasts.getState().toasts.at(-1)).toMatchObject({
      type: 'error',
      title: 'Recording failed',
      message: 'Recording was not allowed. Allow the camera or the screen in the browser and try again.',
    });
    expect(screen.getByRole('button', { name: 'Record camera' })).toBeInTheDocument();
  });
});
