import { toMB } from '@/lib/format';

/**
 * What the maker works from. `video` plays in a `<video>` (a file, a recording, or a GIF's MP4
 * rendition); `image` is a GIF or animated WebP shown in an `<img>`. `file` is sent as the `file`
 * part; an "Edit a copy" source sends `gifId` instead and has no file.
 */
export type MakerSource = {
  kind: 'video' | 'image';
  /** What the player shows (an object URL, or the GIF's rendition or content URL). */
  url: string;
  /** Seconds: counted while recording, read from the file otherwise. */
  duration: number;
  width: number;
  height: number;
  file: File | null;
  gifId: number | null;
  /** The title offered (the file's name, the recording's kind, the GIF's title). */
  title: string;
};

/** The default source size limit of the server (`GIFSHELF_MAX_VIDEO_MB`). */
export const DEFAULT_MAX_VIDEO_BYTES = 200 * 1024 * 1024;

const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime', 'video/x-matroska', 'video/matroska'];
const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'webm', 'mov', 'mkv'];
const IMAGE_TYPES = ['image/gif', 'image/webp'];
const IMAGE_EXTENSIONS = ['gif', 'webp'];

/** For the file picker's filter. */
export const SOURCE_ACCEPT = [...VIDEO_TYPES, ...IMAGE_TYPES, ...[...VIDEO_EXTENSIONS, ...IMAGE_EXTENSIONS].map((e) => `.${e}`)].join(',');

const extensionOf = (name: string) => (name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '');

/**
 * Whether the file plays in a `<video>` or shows in an `<img>`, by its type or else its name
 * (only to choose the player: the server sniffs the bytes); `null` for anything else.
 */
export function sourceKind(file: Pick<File, 'name' | 'type'>): 'video' | 'image' | null {
  const type = file.type.toLowerCase();
  const extension = extensionOf(file.name);
  if (IMAGE_TYPES.includes(type) || IMAGE_EXTENSIONS.includes(extension)) return 'image';
  if (VIDEO_TYPES.includes(type) || VIDEO_EXTENSIONS.includes(extension)) return 'video';
  return null;
}

export const MSG_SOURCE_TYPE_TITLE = 'Invalid File Type';
export const MSG_SOURCE_TYPE = 'Please choose a video (MP4, WebM, MOV or MKV), a GIF or an animated WebP file.';
export const MSG_SOURCE_TOO_LARGE_TITLE = 'File Too Large';
export const sourceTooLargeMessage = (bytes: number, maxBytes: number) =>
  `The file is ${toMB(bytes)}MB; a source may be up to ${Math.round(maxBytes / (1024 * 1024))}MB.`;

/** Why a chosen file cannot be a source, or null. */
export function checkSourceFile(file: Pick<File, 'name' | 'type' | 'size'>, maxBytes: number) {
  if (!sourceKind(file)) return { title: MSG_SOURCE_TYPE_TITLE, message: MSG_SOURCE_TYPE };
  if (file.size > maxBytes) return { title: MSG_SOURCE_TOO_LARGE_TITLE, message: sourceTooLargeMessage(file.size, maxBytes) };
  return null;
}

/** A file's name without its extension, as the title offered. */
export const titleFromName = (name: string) => name.replace(/\.[^.]+$/, '').slice(0, 100);

/**
 * The running time of a GIF in seconds: the sum of its frames' delays (Graphic Control Extension,
 * in hundredths; browsers play 0 and 1 as 10). `null` when the bytes are not a GIF.
 */
export function gifDuration(bytes: Uint8Array): number | null {
  const ascii = String.fromCharCode(...bytes.subarray(0, 6));
  if (ascii !== 'GIF87a' && ascii !== 'GIF89a') return null;
  let at = 13;
  const flags = bytes[10] ?? 0;
  if (flags & 0x80) at += 3 * (1 << ((flags & 7) + 1));
  let hundredths = 0;
  let frames = 0;
  let delay = 0;
  const skipBlocks = () => {
    while (at < bytes.length && bytes[at] !== 0) at += (bytes[at] ?? 0) + 1;
    at += 1;
  };
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x21) {
      if (bytes[at + 1] === 0xf9) delay = (bytes[at + 4] ?? 0) | ((bytes[at + 5] ?? 0) << 8);
      at += 2;
      skipBlocks();
    } else if (block === 0x2c) {
      const local = bytes[at + 9] ?? 0;
      at += 10;
      if (local & 0x80) at += 3 * (1 << ((local & 7) + 1));
      at += 1;
      skipBlocks();
      hundredths += delay <= 1 ? 10 : delay;
      frames += 1;
      delay = 0;
    } else break;
  }
  return frames > 0 ? hundredths / 100 : null;
}

/** The running time of an animated WebP (the sum of its ANMF frames' durations); `null` if still or not WebP. */
export function webpDuration(bytes: Uint8Array): number | null {
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WEBP') return null;
  let at = 12;
  let ms = 0;
  let frames = 0;
  while (at + 8 <= bytes.length) {
    const size = (bytes[at + 4] ?? 0) | ((bytes[at + 5] ?? 0) << 8) | ((bytes[at + 6] ?? 0) << 16) | ((bytes[at + 7] ?? 0) << 24);
    if (tag(at) === 'ANMF') {
      const d = at + 8 + 12;
      ms += (bytes[d] ?? 0) | ((bytes[d + 1] ?? 0) << 8) | ((bytes[d + 2] ?? 0) << 16);
      frames += 1;
    }
    at += 8 + size + (size & 1);
  }
  return frames > 0 ? ms / 1000 : null;
}

/** The running time of an animated image's bytes, GIF or WebP (1 s when unreadable). */
export const imageDuration = (bytes: Uint8Array) => gifDuration(bytes) ?? webpDuration(bytes) ?? 1;
