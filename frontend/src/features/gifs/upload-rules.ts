import { ApiError } from '@/lib/api-client';
import { toMB } from '@/lib/format';
import { CAPTION_TEXT_MAX, DEFAULT_MAX_UPLOAD_BYTES, DESCRIPTION_MAX, TITLE_MAX } from '@/lib/limits';

export { CAPTION_TEXT_MAX, DEFAULT_MAX_UPLOAD_BYTES, DESCRIPTION_MAX, TITLE_MAX };
export const FILE_SELECTED_TOAST_MS = 3000;
export const UPLOAD_SUCCESS_TOAST_MS = 4000;

export const MSG_INVALID_TYPE_TITLE = 'Invalid File Type';
export const MSG_INVALID_TYPE = 'Please select a valid image file (GIF, PNG, JPEG, or WebP).';
export const MSG_TOO_LARGE_TITLE = 'File Too Large';
export const tooLargeMessage = (bytes: number) =>
  `File size exceeds 10MB limit. Your file is ${toMB(bytes)}MB.`;
export const fileSelectedMessage = (name: string, bytes: number) =>
  `File selected: ${name} (${toMB(bytes)}MB)`;
export const MSG_NO_FILE = 'Please select a file to upload.';
export const MSG_NO_TITLE = 'Please enter a title for your GIF.';
export const MSG_UPLOADED = 'GIF uploaded successfully!';
export const MSG_UPLOAD_FAILED_TITLE = 'Upload Failed';
export const MSG_SERVER_LIMIT = 'File size exceeds server limit. Please choose a smaller file.';
export const MSG_INVALID_FORMAT = 'Invalid file format or corrupted file. Please try a different file.';
export const MSG_UPLOAD_FAILED = 'Failed to upload GIF. Please try again.';

const ACCEPTED_TYPES = ['image/gif', 'image/png', 'image/jpeg', 'image/jpg', 'image/webp'];
const ACCEPTED_EXTENSIONS = ['gif', 'png', 'jpeg', 'jpg', 'webp'];
/** For the file picker's filter. */
export const ACCEPT_ATTRIBUTE = [...ACCEPTED_TYPES, ...ACCEPTED_EXTENSIONS.map((e) => `.${e}`)].join(',');

export function isAcceptedImage(file: Pick<File, 'name' | 'type'>): boolean {
  if (ACCEPTED_TYPES.includes(file.type.toLowerCase())) return true;
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return file.name.includes('.') && ACCEPTED_EXTENSIONS.includes(extension);
}

export type FileProblem = { title: string; message: string };

/** Why a chosen file cannot be uploaded, or null when it can. */
export function checkFile(
  file: Pick<File, 'name' | 'type' | 'size'>,
  maxBytes: number = DEFAULT_MAX_UPLOAD_BYTES,
): FileProblem | null {
  if (!isAcceptedImage(file)) return { title: MSG_INVALID_TYPE_TITLE, message: MSG_INVALID_TYPE };
  if (file.size > maxBytes) return { title: MSG_TOO_LARGE_TITLE, message: tooLargeMessage(file.size) };
  return null;
}

/** What is missing before an upload can start (spec §5), or null. */
export function uploadProblem(file: File | null, title: string): string | null {
  if (!file) return MSG_NO_FILE;
  if (!title.trim()) return MSG_NO_TITLE;
  return null;
}

/**
 * The "Upload Failed" toast message (spec §8), chosen by the answer's HTTP status and error code,
 * never by its text: over the upload limit (413, code `too_large`) → server limit; a refused file
 * (400: `unsupported_type`, `invalid_image`, `image_too_large`, `image_too_complex`, a malformed
 * upload) → invalid file, except a form field's 400 (`validation`), which keeps the server's own
 * sentence; anything else (no answer, 5xx, 401) → the error's message, or the generic sentence.
 */
export function uploadErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413 || error.code === 'too_large') return MSG_SERVER_LIMIT;
    if (error.status === 400 && error.code !== 'validation') return MSG_INVALID_FORMAT;
  }
  return (error instanceof Error && error.message) || MSG_UPLOAD_FAILED;
}

/** The answer to a byte-identical upload (409 `duplicate`). */
export const MSG_DUPLICATE = 'This GIF is already in the library';

/** The toast naming the GIFs an upload looks like; `null` when it looks like none. */
export function likelyDuplicatesMessage(alike: ReadonlyArray<{ id: number; title: string }>): string | null {
  if (alike.length === 0) return null;
  const names = alike.map((gif) => `"${gif.title}"`).join(', ');
  return `Stored. It looks like ${names}, already in the library.`;
}
