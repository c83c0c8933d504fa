import { ApiError } from '@/lib/api-client';
import { MSG_DUPLICATE, TITLE_MAX, checkFile, uploadErrorMessage } from './upload-rules';

/** Uploads that run at once when several files are sent. */
export const BATCH_CONCURRENCY = 2;
export const MSG_LEAVE_WHILE_UPLOADING = 'Uploads are still running. Leave this page and cancel them?';

export type BatchStatus = 'ready' | 'queued' | 'uploading' | 'done' | 'duplicate' | 'refused' | 'failed';

/** One file of a batch and what became of it. */
export type BatchItem = {
  key: string;
  file: File;
  title: string;
  status: BatchStatus;
  /** 0 to 1 while uploading. */
  progress: number;
  /** The refusal or failure, a sentence. */
  message: string | null;
  /** The new GIF (done) or the one already in the library (duplicate). */
  gifId: number | null;
};

/** "funny_cat-2.gif" → "funny cat 2": the name without extension, separators as spaces, capped. */
export function titleFromFileName(name: string): string {
  const stem = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
  const words = stem.replace(/[_\-.+]+/g, ' ').replace(/\s+/g, ' ').trim();
  return (words || name).slice(0, TITLE_MAX);
}

let counter = 0;

/** New rows for chosen files: refused at once when the type or size is wrong (spec's messages). */
export function itemsFor(files: File[], maxBytes: number): BatchItem[] {
  return files.map((file) => {
    const problem = checkFile(file, maxBytes);
    counter += 1;
    return {
      key: `${counter}-${file.name}`,
      file,
      title: titleFromFileName(file.name),
      status: problem ? 'refused' : 'ready',
      progress: 0,
      message: problem ? `${problem.title}: ${problem.message}` : null,
      gifId: null,
    };
  });
}

/** The id of the GIF a `409 duplicate` answer names (`existingId`), or null for any other error. */
export function duplicateOf(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const payload = error.payload;
  if (typeof payload !== 'object' || payload === null) return null;
  const record = payload as Record<string, unknown>;
  if (record.code !== 'duplicate') return null;
  return typeof record.existingId === 'number' ? record.existingId : null;
}

/** What an upload error makes of a row: duplicate (with its link), refused (4xx) or failed. */
export function settle(item: BatchItem, error: unknown): BatchItem {
  const existing = duplicateOf(error);
  if (existing !== null) {
    return { ...item, status: 'duplicate', progress: 0, gifId: existing, message: MSG_DUPLICATE };
  }
  const status = error instanceof ApiError ? error.status : null;
  const refused = status !== null && status >= 400 && status < 500;
  const message =
    refused && error instanceof ApiError && error.message ? error.message : uploadErrorMessage(error);
  return { ...item, status: refused ? 'refused' : 'failed', progress: 0, message };
}

/** The queued rows to start now so that at most `BATCH_CONCURRENCY` run, in list order. */
export function nextToStart(items: BatchItem[]): BatchItem[] {
  const running = items.filter((item) => item.status === 'uploading').length;
  const room = Math.max(0, BATCH_CONCURRENCY - running);
  return items.filter((item) => item.status === 'queued').slice(0, room);
}

export const isRunning = (items: BatchItem[]) =>
  items.some((item) => item.status === 'uploading' || item.status === 'queued');

/** Rows that may be (re)sent: never sent, or failed or refused (the title may have been fixed). */
export const canSend = (item: BatchItem, maxBytes: number) =>
  (item.status === 'ready' || item.status === 'failed' || item.status === 'refused') &&
  checkFile(item.file, maxBytes) === null &&
  item.title.trim() !== '';
