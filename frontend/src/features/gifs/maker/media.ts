import { imageDuration } from './source';

export type MediaFacts = { duration: number; width: number; height: number };

const once = (target: EventTarget, event: string) =>
  new Promise<void>((resolve) => target.addEventListener(event, () => resolve(), { once: true }));

function failed(target: EventTarget, what: string) {
  return new Promise<never>((_, reject) =>
    target.addEventListener('error', () => reject(new Error(`The browser cannot read this ${what}.`)), { once: true }),
  );
}

/**
 * The running time and size of a video. `known` (a recording's counted time) wins: Chrome's WebM
 * recordings have no duration in their container, so `video.duration` is Infinity; for a file that
 * has none, the video is sought to its end, after which the browser knows it.
 */
export async function probeVideo(url: string, known: number | null = null): Promise<MediaFacts> {
  const video = document.createElement('video');
  video.preload = 'metadata';
  video.muted = true;
  const error = failed(video, 'video');
  video.src = url;
  await Promise.race([once(video, 'loadedmetadata'), error]);
  let duration = known ?? video.duration;
  if (!Number.isFinite(duration) || duration <= 0) {
    const changed = once(video, 'durationchange');
    video.currentTime = 1e9;
    await Promise.race([changed, once(video, 'seeked'), error]);
    duration = Number.isFinite(video.duration) ? video.duration : video.currentTime;
  }
  const facts = { duration, width: video.videoWidth, height: video.videoHeight };
  video.removeAttribute('src');
  video.load();
  return facts;
}

/**
 * The bytes of an image source: the chosen file's own, or the library's file (the app's CSP lets
 * `fetch` reach only its own origin, not `blob:` URLs).
 */
async function bytesOf(url: string, file: Blob | null): Promise<Uint8Array> {
  const buffer: ArrayBuffer = file ? await file.arrayBuffer() : await (await fetch(url, { credentials: 'same-origin' })).arrayBuffer();
  return new Uint8Array(buffer);
}

/** The running time (from its bytes) and size of a GIF or animated WebP shown from `url`. */
export async function probeImage(url: string, file: Blob | null): Promise<MediaFacts> {
  const image = new Image();
  const loaded = Promise.race([once(image, 'load'), failed(image, 'image')]);
  image.src = url;
  const [bytes] = await Promise.all([bytesOf(url, file), loaded]);
  return { duration: imageDuration(bytes), width: image.naturalWidth, height: image.naturalHeight };
}

/**
 * Pictures of `count` moments of a video, evenly spread over `duration`: a hidden `<video>` is
 * sought to each and drawn onto a canvas (JPEG data URLs, `height` px high).
 */
export async function filmstrip(url: string, duration: number, count: number, height = 48): Promise<string[]> {
  const video = document.createElement('video');
  video.preload = 'auto';
  video.muted = true;
  const error = failed(video, 'video');
  video.src = url;
  await Promise.race([once(video, 'loadeddata'), error]);
  const canvas = document.createElement('canvas');
  canvas.height = height;
  canvas.width = Math.max(1, Math.round((height * video.videoWidth) / Math.max(1, video.videoHeight)));
  const context = canvas.getContext('2d');
  if (!context) return [];
  const frames: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const seeked = once(video, 'seeked');
    video.currentTime = ((i + 0.5) * duration) / count;
    await Promise.race([seeked, error]);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    frames.push(canvas.toDataURL('image/jpeg', 0.6));
  }
  video.removeAttribute('src');
  video.load();
  return frames;
}

/**
 * Pictures of `count` frames of a GIF or animated WebP, evenly spread over its frames, decoded
 * with the browser's `ImageDecoder` (none where the browser has no `ImageDecoder`).
 */
export async function imageFilmstrip(url: string, file: Blob | null, count: number, height = 48): Promise<string[]> {
  if (typeof ImageDecoder === 'undefined') return [];
  const bytes = await bytesOf(url, file);
  const type = String.fromCharCode(...bytes.subarray(0, 3)) === 'GIF' ? 'image/gif' : 'image/webp';
  if (!(await ImageDecoder.isTypeSupported(type))) return [];
  const decoder = new ImageDecoder({ data: bytes, type });
  try {
    await decoder.tracks.ready;
    const frames = decoder.tracks.selectedTrack?.frameCount ?? 0;
    if (frames === 0) return [];
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d');
    if (!context) return [];
    const pictures: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const { image } = await decoder.decode({ frameIndex: Math.min(frames - 1, Math.floor(((i + 0.5) * frames) / count)) });
      canvas.height = height;
      canvas.width = Math.max(1, Math.round((height * image.displayWidth) / Math.max(1, image.displayHeight)));
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      image.close();
      pictures.push(canvas.toDataURL('image/jpeg', 0.6));
    }
    return pictures;
  } finally {
    decoder.close();
  }
}
