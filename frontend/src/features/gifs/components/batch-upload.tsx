import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { toMB } from '@/lib/format';
import { tagKeys } from '@/lib/tags/query-keys';
import { uploadGif } from '../api/upload-gif';
import { applyGifUploaded } from '../gif-list-cache';
import {
  MSG_LEAVE_WHILE_UPLOADING,
  canSend,
  isRunning,
  itemsFor,
  nextToStart,
  settle,
  type BatchItem,
} from '../upload-batch';
import { ACCEPT_ATTRIBUTE, DESCRIPTION_MAX, MSG_NO_TITLE, TITLE_MAX } from '../upload-rules';
import { TextAreaField } from '@/components/form/text-area-field';
import { useFileDrop } from '../use-file-drop';
import { LeaveGuard } from './leave-guard';
import { TagEditor } from './tag-editor';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

const STATUS_LABEL: Record<BatchItem['status'], string> = {
  ready: 'Ready',
  queued: 'Waiting',
  uploading: 'Uploading',
  done: 'Uploaded',
  duplicate: 'Duplicate',
  refused: 'Refused',
  failed: 'Failed',
};

/** A small preview of a chosen file, its object URL revoked when the row goes. */
function Thumb({ file }: { file: File }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function' || !file.type.startsWith('image/')) return;
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url ? <img className="batch-row__thumb" src={url} alt="" /> : <span className="batch-row__thumb" aria-hidden="true" />;
}

type BatchUploadProps = {
  initialFiles: File[];
  maxBytes: number;
  /** Back to the single-file form. */
  onClear: () => void;
};

/** Several files at once: a row each with its own title, shared description and tags, two uploads at a time. */
export function BatchUpload({ initialFiles, maxBytes, onClear }: BatchUploadProps) {
  const inputId = useId();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<BatchItem[]>(() => itemsFor(initialFiles, maxBytes));
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const running = isRunning(items);
  const wasRunning = useRef(false);

  useEffect(() => {
    const open = controllers.current;
    return () => open.forEach((controller) => controller.abort());
  }, []);

  const update = (key: string, change: (item: BatchItem) => BatchItem) =>
    setItems((current) => current.map((item) => (item.key === key ? change(item) : item)));

  // Start queued rows while fewer than two run.
  useEffect(() => {
    // A row already handed to XHR is never sent twice (effects may run again before the state moves on).
    const start = nextToStart(items).filter((item) => !controllers.current.has(item.key));
    if (start.length === 0) return;
    const keys = new Set(start.map((item) => item.key));
    setItems((current) =>
      current.map((item) =>
        keys.has(item.key) ? { ...item, status: 'uploading', progress: 0, message: null } : item,
      ),
    );
    for (const item of start) {
      const controller = new AbortController();
      controllers.current.set(item.key, controller);
      uploadGif({
        file: item.file,
        data: { title: item.title.trim(), description: description.trim(), tags },
        onProgress: (fraction) => update(item.key, (row) => ({ ...row, progress: fraction })),
        signal: controller.signal,
      })
        .then((gif) => {
          update(item.key, (row) => ({ ...row, status: 'done', progress: 1, gifId: gif.id, message: null }));
          void applyGifUploaded(queryClient);
          void queryClient.invalidateQueries({ queryKey: tagKeys.all });
        })
        .catch((error: unknown) => {
          if (isAbort(error)) return;
          update(item.key, (row) => settle(row, error));
        })
        .finally(() => controllers.current.delete(item.key));
    }
  }, [items, description, tags, queryClient]);

  // One toast when a batch has finished.
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

  const add = (files: FileList | null | undefined) => {
    if (!files || files.length === 0) return;
    setItems((current) => [...current, ...itemsFor(Array.from(files), maxBytes)]);
  };

  const drop = useFileDrop(add);

  const sendable = items.filter((item) => item.status === 'ready' && canSend(item, maxBytes));
  const untitled = items.some((item) => item.status === 'ready' && !item.title.trim());

  const queue = (keys: Set<string>) =>
    setItems((current) =>
      current.map((item) => (keys.has(item.key) ? { ...item, status: 'queued', progress: 0, message: null } : item)),
    );

  const remove = (key: string) => setItems((current) => current.filter((item) => item.key !== key));

  const rows = items.length;
  return (
    <div className="upload__layout">
      <LeaveGuard when={running} message={MSG_LEAVE_WHILE_UPLOADING} />
      <div className="batch">
        <div
          className={['panel', 'dropzone', 'dropzone--compact', drop.dragging ? 'dropzone--active' : ''].filter(Boolean).join(' ')}
          {...drop.zone}
          data-testid="dropzone"
        >
          <p className="dropzone__text">
            {rows} {rows === 1 ? 'file' : 'files'} chosen. Drop more here, or
          </p>
          <input
            id={inputId}
            type="file"
            multiple
            accept={ACCEPT_ATTRIBUTE}
            className="visually-hidden dropzone__input"
            {...drop.input}
          />
          <label htmlFor={inputId} className="btn btn--secondary dropzone__button">
            Add more files
          </label>
          <p className="dropzone__hint">Maximum file size: 10MB each</p>
        </div>
        <ul className="batch__list" aria-label="Files to upload">
          {items.map((item) => (
            <BatchRow
              key={item.key}
              item={item}
              editable={item.status === 'ready' || item.status === 'failed' || item.status === 'refused'}
              sendable={canSend(item, maxBytes)}
              onTitle={(title) => update(item.key, (row) => ({ ...row, title }))}
              onRetry={() => queue(new Set([item.key]))}
              onRemove={() => remove(item.key)}
            />
          ))}
        </ul>
      </div>

      <div className="panel form upload__form">
        <TextAreaField
          label="Description"
          name="description"
          rows={4}
          maxLength={DESCRIPTION_MAX}
          value={description}
          disabled={running}
          onValueChange={setDescription}
          help={`${description.length}/${DESCRIPTION_MAX} · shared by every file`}
        />
        <TagEditor tags={tags} setTags={setTags} quickAddLabel="Suggested tags" disabled={running} />
        <div className="form__actions">
          <button type="button" className="btn btn--secondary" onClick={onClear} disabled={running}>
            Start over
          </button>
          <button
            type="button"
            className="btn btn--primary btn--large"
            disabled={running || sendable.length === 0}
            onClick={() => queue(new Set(sendable.map((item) => item.key)))}
          >
            {sendable.length === 1 ? 'Upload 1 GIF' : `Upload ${sendable.length} GIFs`}
          </button>
        </div>
        {untitled && <p className="field__help">{MSG_NO_TITLE}</p>}
      </div>
    </div>
  );
}

type BatchRowProps = {
  item: BatchItem;
  editable: boolean;
  sendable: boolean;
  onTitle: (title: string) => void;
  onRetry: () => void;
  onRemove: () => void;
};

function BatchRow({ item, editable, sendable, onTitle, onRetry, onRemove }: BatchRowProps) {
  const titleId = useId();
  const percent = Math.round(item.progress * 100);
  const active = item.status === 'uploading' || item.status === 'queued';
  const retryable = (item.status === 'failed' || item.status === 'refused') && sendable;
  return (
    <li className={`panel batch-row batch-row--${item.status}`} data-testid="batch-row" aria-label={item.file.name}>
      <Thumb file={item.file} />
      <div className="batch-row__main">
        <p className="batch-row__file">
          <strong>{item.file.name}</strong> <span>({toMB(item.file.size)}MB)</span>
        </p>
        <label className="visually-hidden" htmlFor={titleId}>
          Title for {item.file.name}
        </label>
        <input
          id={titleId}
          className="field__input"
          value={item.title}
          maxLength={TITLE_MAX}
          disabled={!editable}
          onChange={(event) => onTitle(event.target.value)}
          placeholder="Title *"
        />
        {active && (
          <div className="upload-progress">
            <div
              className="upload-progress__track"
              role="progressbar"
              aria-label={`Upload progress of ${item.file.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
            >
              <div className="upload-progress__bar" style={{ width: `${percent}%` }} />
            </div>
            <span className="upload-progress__value">{percent}%</span>
          </div>
        )}
        <p className="batch-row__result" role="status" data-testid="batch-result">
          <span className={`batch-row__badge batch-row__badge--${item.status}`}>{STATUS_LABEL[item.status]}</span>
          {item.message && <span className="batch-row__message">{item.message}</span>}
          {item.status === 'done' && item.gifId !== null && <Link to={paths.gif(item.gifId)}>View GIF</Link>}
          {item.status === 'duplicate' && item.gifId !== null && (
            <Link to={paths.gif(item.gifId)}>View the GIF you already have</Link>
          )}
        </p>
      </div>
      <div className="batch-row__actions">
        {retryable && (
          <button type="button" className="btn btn--secondary btn--small" onClick={onRetry}>
            Retry
          </button>
        )}
        {!active && item.status !== 'done' && (
          <button
            type="button"
            className="btn btn--ghost btn--small"
            onClick={onRemove}
            aria-label={`Remove ${item.file.name}`}
          >
            ✕
          </button>
        )}
      </div>
    </li>
  );
}
