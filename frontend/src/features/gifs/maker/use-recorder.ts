import { useCallback, useEffect, useRef, useState } from 'react';

/** A recording stops by itself after this many seconds. */
export const RECORD_LIMIT_SECS = 30;
/** "3, 2, 1" before a recording starts. */
export const COUNTDOWN_SECS = 3;

export type RecordKind = 'screen' | 'camera';

/** A finished recording; `duration` was counted while it ran (Chrome's WebM does not carry one). */
export type Recording = { kind: RecordKind; file: File; duration: number };

export type RecorderState =
  | { phase: 'idle' }
  | { phase: 'countdown'; kind: RecordKind; left: number; stream: MediaStream }
  | { phase: 'recording'; kind: RecordKind; elapsed: number; stream: MediaStream };

type Running = {
  stream: MediaStream;
  recorder: MediaRecorder | null;
  timers: ReturnType<typeof setInterval>[];
  startedAt: number;
  cancelled: boolean;
};

function askForStream(kind: RecordKind): Promise<MediaStream> {
  const devices = navigator.mediaDevices;
  if (kind === 'screen') {
    if (!devices?.getDisplayMedia) return Promise.reject(new Error(MSG_NO_SCREEN_RECORDING));
    return devices.getDisplayMedia({ video: true, audio: false });
  }
  if (!devices?.getUserMedia) return Promise.reject(new Error(MSG_NO_CAMERA));
  return devices.getUserMedia({ video: true, audio: false });
}

export const MSG_NO_SCREEN_RECORDING = 'This browser cannot record the screen.';
export const MSG_NO_CAMERA = 'This browser cannot use a camera.';
export const MSG_NOT_ALLOWED = 'Recording was not allowed. Allow the camera or the screen in the browser and try again.';

/** The sentence for a stream the browser refused (the user said no, or there is no camera). */
function refusal(error: unknown): string {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name === 'NotAllowedError' || name === 'SecurityError') return MSG_NOT_ALLOWED;
  return typeof message === 'string' && message ? message : String(error);
}

/** VP9 WebM where the browser has it, else the browser's own choice. */
function recorderType(): string | undefined {
  const wanted = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm', 'video/mp4'];
  return wanted.find((type) => typeof MediaRecorder.isTypeSupported === 'function' && MediaRecorder.isTypeSupported(type));
}

const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());
const clearTimers = (run: Running) => run.timers.forEach((timer) => clearInterval(timer));

/** Ends a run keeping nothing: timers, recorder and the camera or screen let go. */
function abandon(run: Running) {
  run.cancelled = true;
  clearTimers(run);
  if (run.recorder && run.recorder.state !== 'inactive') run.recorder.stop();
  stopTracks(run.stream);
}

/**
 * Starts `MediaRecorder` on the run's stream: the time so far every 100 ms, a stop at the limit or
 * when the shared screen ends; `finish` gets the chunks.
 */
function beginRecording(
  run: Running,
  kind: RecordKind,
  setState: (state: RecorderState) => void,
  finish: (run: Running, chunks: Blob[], kind: RecordKind, type: string) => void,
) {
  const type = recorderType();
  const recorder = new MediaRecorder(run.stream, type ? { mimeType: type } : undefined);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  recorder.onstop = () => finish(run, chunks, kind, recorder.mimeType || type || 'video/webm');
  run.recorder = recorder;
  run.startedAt = Date.now();
  recorder.start(250);
  setState({ phase: 'recording', kind, elapsed: 0, stream: run.stream });
  const stopAtLimit = () => {
    const elapsed = Math.min(RECORD_LIMIT_SECS, (Date.now() - run.startedAt) / 1000);
    setState({ phase: 'recording', kind, elapsed, stream: run.stream });
    if (elapsed >= RECORD_LIMIT_SECS && recorder.state !== 'inactive') recorder.stop();
  };
  run.timers.push(setInterval(stopAtLimit, 100));
  run.stream.getVideoTracks().forEach((track) =>
    track.addEventListener('ended', () => recorder.state !== 'inactive' && recorder.stop()),
  );
}

/**
 * Records the screen or the camera: asks for the stream, counts down 3-2-1, records with
 * `MediaRecorder` until `stop` or 30 s (or the shared screen ends), counting the time itself.
 * `onDone` gets the file; `onError` the reason a stream was refused.
 */
export function useRecorder(onDone: (recording: Recording) => void, onError: (message: string) => void) {
  const [state, setState] = useState<RecorderState>({ phase: 'idle' });
  const running = useRef<Running | null>(null);
  const callbacks = useRef({ onDone, onError });
  callbacks.current = { onDone, onError };

  const finish = useCallback((run: Running, chunks: Blob[], kind: RecordKind, type: string) => {
    clearTimers(run);
    stopTracks(run.stream);
    running.current = null;
    setState({ phase: 'idle' });
    if (run.cancelled) return;
    const duration = Math.min(RECORD_LIMIT_SECS, (Date.now() - run.startedAt) / 1000);
    const extension = type.includes('mp4') ? 'mp4' : 'webm';
    const file = new File(chunks, `${kind}-recording.${extension}`, { type: type || 'video/webm' });
    callbacks.current.onDone({ kind, file, duration });
  }, []);

  const record = useCallback(
    (run: Running, kind: RecordKind) => beginRecording(run, kind, setState, finish),
    [finish],
  );

  const start = useCallback(
    async (kind: RecordKind) => {
      if (running.current) return;
      let stream: MediaStream;
      try {
        stream = await askForStream(kind);
      } catch (error) {
        callbacks.current.onError(refusal(error));
        return;
      }
      const run: Running = { stream, recorder: null, timers: [], startedAt: 0, cancelled: false };
      running.current = run;
      let left = COUNTDOWN_SECS;
      setState({ phase: 'countdown', kind, left, stream });
      const tick = setInterval(() => {
        left -= 1;
        if (left > 0) {
          setState({ phase: 'countdown', kind, left, stream });
          return;
        }
        clearInterval(tick);
        record(run, kind);
      }, 1000);
      run.timers.push(tick);
    },
    [record],
  );

  /** Stops the recording (keeping it), or cancels the countdown. */
  const stop = useCallback(() => {
    const run = running.current;
    if (!run) return;
    if (run.recorder && run.recorder.state !== 'inactive') {
      run.recorder.stop();
      return;
    }
    abandon(run);
    running.current = null;
    setState({ phase: 'idle' });
  }, []);

  // Leaving the page ends the recording and lets the camera go, keeping nothing.
  useEffect(
    () => () => {
      if (running.current) abandon(running.current);
    },
    [],
  );

  return { state, start, stop };
}
