import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { toMB } from '@/lib/format';
import type { BatchItem } from '../upload-batch';
import { TITLE_MAX } from '../upload-rules';
import { UploadProgress } from './upload-progress';

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

type BatchRowProps = {
  item: BatchItem;
  editable: boolean;
  sendable: boolean;
  onTitle: (title: string) => void;
  onRetry: () => void;
  onRemove: () => void;
};

/** One file of a batch: its thumbnail, title, progress and result, Retry and Remove. */
export function BatchRow({ item, editable, sendable, onTitle, onRetry, onRemove }: BatchRowProps) {
  const titleId = useId();
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
        {active && <UploadProgress fraction={item.progress} label={`Upload progress of ${item.file.name}`} />}
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
