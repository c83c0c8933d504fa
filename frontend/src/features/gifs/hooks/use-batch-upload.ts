import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useToast } from '@/components/toast/toast-provider';
import { tagKeys } from '@/lib/tags/query-keys';
import { isUploadAborted, uploadGif } from '../api/upload-gif';
import { applyGifUploaded } from '../gif-list-cache';
import { canSend, isRunning, itemsFor, nextToStart, settle, type BatchItem } from '../upload-batch';

type SetItems = Dispatch<SetStateAction<BatchItem[]>>;

/** An update of the rows that changes the one with `key`. */
const changeItem =
  (key: string, change: (item: BatchItem) => BatchItem) =>
  (current: BatchItem[]): BatchItem[] =>
    current.map((item) => (item.key === key ? change(item) : item));

/** An update of the rows that marks those of `keys` with `status`, progress and message reset. */
const markItems =
  (keys: Set<string>, status: 'queued' | 'uploading') =>
  (current: BatchItem[]): BatchItem[] =>
    current.map((item) => (keys.has(item.key) ? { ...item, status, progress: 0, message: null } : item));

/**
 * Starts queued rows while fewer than two run, each with the shared description and tags, and
 * records what becomes of it. Open uploads are cancelled when the page closes.
 */
function useBatchSender(items: BatchItem[], setItems: SetItems, description: string, tags: string[]) {
  const queryClient = useQueryClient();
  const controllers = useRef(new Map<string, AbortController>());

  useEffect(() => {
    const open = controllers.current;
    return () => open.forEach((controller) => controller.abort());
  }, []);

  useEffect(() => {
    // A row already handed to XHR is never sent twice (effects may run again before the state moves on).
    const start = nextToStart(items).filter((item) => !controllers.current.has(item.key));
    if (start.length === 0) return;
    setItems(markItems(new Set(start.map((item) => item.key)), 'uploading'));
    for (const item of start) {
      const controller = new AbortController();
      controllers.current.set(item.key, controller);
      uploadGif({
        file: item.file,
        data: { title: item.title.trim(), description: description.trim(), tags },
        onProgress: (fraction) => setItems(changeItem(item.key, (row) => ({ ...row, progress: fraction }))),
        signal: controller.signal,
      })
        .then((gif) => {
          setItems(changeItem(item.key, (row) => ({ ...row, status: 'done', progress: 1, gifId: gif.id, message: null })));
          void applyGifUploaded(queryClient);
          void queryClient.invalidateQueries({ queryKey: tagKeys.all });
        })
        .catch((error: unknown) => {
          if (isUploadAborted(error)) return;
          setItems(changeItem(item.key, (row) => settle(row, error)));
        })
        .finally(() => controllers.current.delete(item.key));
    }
  }, [items, setItems, description, tags, queryClient]);
}

/** One toast when a batch has finished: how many of the sent rows were uploaded. */
function useBatchSummary(items: BatchItem[]) {
  const toast = useToast();
  const running = isRunning(items);
  const wasRunning = useRef(false);
  useEffect(() => {
    if (running) {
      wasRunning.current = true;
      return;
    }
    if (!wasRunning.current) return;
    wasRunning.current = false;
    const count = (status: BatchItem['status']) => items.filter((item) => item.status === status).length;
    const done = count('done');
    const other = count('duplicate') + count('refused') + count('failed');
    const summary = `${done} of ${done + other} GIFs uploaded.`;
    if (other === 0) toast.success(summary);
    else toast.warning(`${summary} See the list for the others.`);
  }, [running, items, toast]);
}

/**
 * The rows of a batch upload (a file each, refused at once when its type or size is wrong), the
 * description and tags they share, and the actions on them; sending runs two at a time.
 */
export function useBatchUpload(initialFiles: File[], maxBytes: number) {
  const [items, setItems] = useState<BatchItem[]>(() => itemsFor(initialFiles, maxBytes));
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  useBatchSender(items, setItems, description, tags);
  useBatchSummary(items);

  const sendable = items.filter((item) => item.status === 'ready' && canSend(item, maxBytes));
  return {
    items,
    description,
    setDescription,
    tags,
    setTags,
    running: isRunning(items),
    sendable,
    untitled: items.some((item) => item.status === 'ready' && !item.title.trim()),
    add: (files: FileList | null | undefined) => {
      if (!files || files.length === 0) return;
      setItems((current) => [...current, ...itemsFor(Array.from(files), maxBytes)]);
    },
    setTitle: (key: string, title: string) => setItems(changeItem(key, (row) => ({ ...row, title }))),
    queue: (keys: string[]) => setItems(markItems(new Set(keys), 'queued')),
    remove: (key: string) => setItems((current) => current.filter((item) => item.key !== key)),
  };
}
