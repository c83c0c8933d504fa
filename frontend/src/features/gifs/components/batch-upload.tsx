import { useId } from 'react';
import { TextAreaField } from '@/components/form/text-area-field';
import { useBatchUpload } from '../hooks/use-batch-upload';
import { MSG_LEAVE_WHILE_UPLOADING, canSend } from '../upload-batch';
import { ACCEPT_ATTRIBUTE, DESCRIPTION_MAX, MSG_NO_TITLE } from '../upload-rules';
import { useFileDrop } from '../use-file-drop';
import { BatchRow } from './batch-row';
import { LeaveGuard } from './leave-guard';
import { TagEditor } from './tag-editor';

type BatchUploadProps = {
  initialFiles: File[];
  maxBytes: number;
  /** Back to the single-file form. */
  onClear: () => void;
};

/** Several files at once: a row each with its own title, shared description and tags, two uploads at a time. */
export function BatchUpload({ initialFiles, maxBytes, onClear }: BatchUploadProps) {
  const batch = useBatchUpload(initialFiles, maxBytes);
  const { items, description, running, sendable } = batch;
  const drop = useFileDrop(batch.add);

  return (
    <div className="upload__layout">
      <LeaveGuard when={running} message={MSG_LEAVE_WHILE_UPLOADING} />
      <div className="batch">
        <BatchDropzone rows={items.length} drop={drop} />
        <ul className="batch__list" aria-label="Files to upload">
          {items.map((item) => (
            <BatchRow
              key={item.key}
              item={item}
              editable={item.status === 'ready' || item.status === 'failed' || item.status === 'refused'}
              sendable={canSend(item, maxBytes)}
              onTitle={(title) => batch.setTitle(item.key, title)}
              onRetry={() => batch.queue([item.key])}
              onRemove={() => batch.remove(item.key)}
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
          onValueChange={batch.setDescription}
          help={`${description.length}/${DESCRIPTION_MAX} · shared by every file`}
        />
        <TagEditor tags={batch.tags} setTags={batch.setTags} quickAddLabel="Suggested tags" disabled={running} />
        <div className="form__actions">
          <button type="button" className="btn btn--secondary" onClick={onClear} disabled={running}>
            Start over
          </button>
          <button
            type="button"
            className="btn btn--primary btn--large"
            disabled={running || sendable.length === 0}
            onClick={() => batch.queue(sendable.map((item) => item.key))}
          >
            {sendable.length === 1 ? 'Upload 1 GIF' : `Upload ${sendable.length} GIFs`}
          </button>
        </div>
        {batch.untitled && <p className="field__help">{MSG_NO_TITLE}</p>}
      </div>
    </div>
  );
}

/** The batch's drop zone: how many files are chosen, and more by drop or picker. */
function BatchDropzone({ rows, drop }: { rows: number; drop: ReturnType<typeof useFileDrop> }) {
  const inputId = useId();
  return (
    <div
      className={['panel', 'dropzone', 'dropzone--compact', drop.dragging ? 'dropzone--active' : '']
        .filter(Boolean)
        .join(' ')}
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
  );
}
