import { useCallback, useEffect, useRef, useState } from 'react';
import type { GifDto } from '@/api/generated/GifDto';
import { useToast } from '@/components/toast/toast-provider';
import { gifMedia } from '../api/query-keys';
import { probeImage, probeVideo, type MediaFacts } from './media';
import { checkSourceFile, sourceKind, titleFromName, type MakerSource } from './source';
import { MAKER_TEXTS } from './texts';
import type { Recording } from './use-recorder';

/** The source an "Edit a copy" starts from: the GIF's MP4 rendition when it has one, else the GIF. */
function gifSource(gif: GifDto): { kind: MakerSource['kind']; url: string; known: MediaFacts | null } {
  const mp4 = gif.renditions.find((r) => r.kind === 'mp4');
  if (mp4) {
    const known = mp4.durationMs ? { duration: mp4.durationMs / 1000, width: mp4.width, height: mp4.height } : null;
    return { kind: 'video', url: mp4.url, known };
  }
  const original = gif.renditions.find((r) => r.kind === 'original');
  const known = original?.durationMs
    ? { duration: original.durationMs / 1000, width: gif.contentWidth, height: gif.contentHeight }
    : null;
  return { kind: 'image', url: gifMedia.content(gif.id), known };
}

/**
 * The maker's source: a chosen file (checked, with the upload's toasts), a recording, or a GIF of
 * the library ("Edit a copy"). Its running time and size are read before it is offered; the
 * object URL of a file or recording is let go when the source changes or the page closes.
 */
export function useMakerSource(maxBytes: number) {
  const toast = useToast();
  const [source, setSource] = useState<MakerSource | null>(null);
  const [reading, setReading] = useState(false);
  const ownedUrl = useRef<string | null>(null);
  const attempt = useRef(0);

  const release = () => {
    if (ownedUrl.current) URL.revokeObjectURL(ownedUrl.current);
    ownedUrl.current = null;
  };
  useEffect(() => release, []);

  const load = useCallback(
    async (next: Omit<MakerSource, keyof MediaFacts>, read: () => Promise<MediaFacts>, owned: boolean) => {
      const mine = ++attempt.current;
      setReading(true);
      try {
        const facts = await read();
        if (mine !== attempt.current) return;
        if (!(facts.duration > 0) || !facts.width) throw new Error(MAKER_TEXTS.unreadableSource);
        if (owned) {
          release();
          ownedUrl.current = next.url;
        }
        setSource({ ...next, ...facts });
      } catch {
        if (owned) URL.revokeObjectURL(next.url);
        if (mine === attempt.current) toast.error(MAKER_TEXTS.unreadableSource, { title: MAKER_TEXTS.failedTitle });
      } finally {
        if (mine === attempt.current) setReading(false);
      }
    },
    [toast],
  );

  const fromFile = (file: File) => {
    const problem = checkSourceFile(file, maxBytes);
    if (problem) {
      toast.error(problem.message, { title: problem.title });
      return;
    }
    const kind = sourceKind(file) ?? 'video';
    const url = URL.createObjectURL(file);
    const read = () => (kind === 'video' ? probeVideo(url) : probeImage(url, file));
    void load({ kind, url, file, gifId: null, title: titleFromName(file.name) }, read, true);
  };

  const fromRecording = (recording: Recording) => {
    const url = URL.createObjectURL(recording.file);
    const title = recording.kind === 'screen' ? MAKER_TEXTS.screenRecording : MAKER_TEXTS.cameraRecording;
    const source = { kind: 'video' as const, url, file: recording.file, gifId: null, title };
    void load(source, () => probeVideo(url, recording.duration), true);
  };

  const fromGif = useCallback(
    (gif: GifDto) => {
      const { kind, url, known } = gifSource(gif);
      const read = () =>
        known ? Promise.resolve(known) : kind === 'video' ? probeVideo(url) : probeImage(url, null);
      void load({ kind, url, file: null, gifId: gif.id, title: gif.title }, read, false);
    },
    [load],
  );

  const clear = () => {
    attempt.current += 1;
    release();
    setSource(null);
    setReading(false);
  };

  return { source, reading, fromFile, fromRecording, fromGif, clear };
}
