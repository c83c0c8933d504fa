import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { TextAreaField } from '@/components/form/text-area-field';
import { toMB } from '@/lib/format';
import { usePublicConfig } from '@/lib/public-config';
import { useSingleUpload } from '../hooks/use-single-upload';
import { ACCEPT_ATTRIBUTE, DEFAULT_MAX_UPLOAD_BYTES, DESCRIPTION_MAX, MSG_DUPLICATE, TITLE_MAX } from '../upload-rules';
import { BatchUpload } from './batch-upload';
import { FromLinkForm } from './from-link-form';
import { RatingField } from './rating-field';
import { TagEditor } from './tag-editor';
import { UploadProgress } from './upload-progress';
import { useFileDrop } from '../use-file-drop';
import './gifs.css';

/** A preview URL for the chosen file, revoked when it changes or the page closes. */
function usePreviewUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/**
 * /upload — drag and drop or pick an image, give it a title, description and tags, and send it.
 * Several files at once become a batch (a row each); "From a link" lets the server fetch one.
 */
export function UploadPage() {
  const config = usePublicConfig();
  const maxBytes = config.data?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const [mode, setMode] = useState<'files' | 'link'>('files');
  const [batch, setBatch] = useState<File[] | null>(null);

  return (
    <section className="upload" aria-labelledby="upload-title">
      <h1 id="upload-title" className="page-title">
        Upload a GIF
      </h1>
      <div className="upload__modes" role="group" aria-label="Where the GIF comes from">
        <button
          type="button"
          className={`btn ${mode === 'files' ? 'btn--primary' : 'btn--secondary'}`}
          aria-pressed={mode === 'files'}
          onClick={() => setMode('files')}
        >
          From your files
        </button>
        <button
          type="button"
          className={`btn ${mode === 'link' ? 'btn--primary' : 'btn--secondary'}`}
          aria-pressed={mode === 'link'}
          onClick={() => setMode('link')}
        >
          From a link
        </button>
      </div>
      {mode === 'link' ? (
        <FromLinkForm />
      ) : batch ? (
        <BatchUpload initialFiles={batch} maxBytes={maxBytes} onClear={() => setBatch(null)} />
      ) : (
        <SingleUpload onMany={setBatch} />
      )}
    </section>
  );
}

/** One file: the spec's form, texts and validation. Choosing several files hands them to `onMany`. */
function SingleUpload({ onMany }: { onMany: (files: File[]) => void }) {
  const form = useSingleUpload(onMany);
  const { title, description, pending, formError, missing } = form;
  const drop = useFileDrop((files) => {
    if (!pending) form.choose(files);
  });

  return (
    <form className="upload__layout" onSubmit={form.onSubmit} noValidate>
      <SingleDropzone file={form.file} drop={drop} disabled={pending} />

      <div className="panel form upload__form">
        <TextField
          label="Title *"
          name="title"
          required
          maxLength={TITLE_MAX}
          value={title}
          onValueChange={form.onTitle}
          disabled={pending}
          help={`${title.length}/${TITLE_MAX}`}
        />
        <TextAreaField
          label="Description"
          name="description"
          rows={4}
          maxLength={DESCRIPTION_MAX}
          value={description}
          disabled={pending}
          onValueChange={form.setDescription}
          help={`${description.length}/${DESCRIPTION_MAX}`}
        />
        <RatingField value={form.rating} onChange={form.setRating} disabled={pending} allowDefault />
        <TagEditor tags={form.tags} setTags={form.setTags} quickAddLabel="Suggested tags" disabled={pending} />

        {pending && <UploadProgress fraction={form.progress} label="Upload progress" />}
        {formError && <FormMessage kind="error">{formError}</FormMessage>}
        {form.duplicateOf !== null && (
          <FormMessage kind="error">
            {MSG_DUPLICATE}: <Link to={paths.gif(form.duplicateOf)}>open it</Link>.
          </FormMessage>
        )}

        <div className="form__actions">
          <button type="submit" className="btn btn--primary btn--large" disabled={pending || missing !== null}>
            Upload GIF
          </button>
        </div>
        {!pending && missing && !formError && <p className="field__help">{missing}</p>}
      </div>
    </form>
  );
}

type SingleDropzoneProps = {
  file: File | null;
  drop: ReturnType<typeof useFileDrop>;
  /** While the upload runs: no other file may be picked. */
  disabled: boolean;
};

/** The drop zone of the single-file form: the chosen file's preview and name, or the invitation. */
function SingleDropzone({ file, drop, disabled }: SingleDropzoneProps) {
  const inputId = useId();
  const preview = usePreviewUrl(file);
  return (
    <div
      className={['panel', 'dropzone', drop.dragging ? 'dropzone--active' : '', file ? 'dropzone--filled' : '']
        .filter(Boolean)
        .join(' ')}
      {...drop.zone}
      data-testid="dropzone"
    >
      {file && preview ? (
        <div className="dropzone__preview">
          <img src={preview} alt={`Preview of ${file.name}`} className="dropzone__image" />
        </div>
      ) : (
        <div className="dropzone__empty" aria-hidden="true">
          <span className="dropzone__icon">⬆</span>
        </div>
      )}
      {file ? (
        <p className="dropzone__file">
          <strong>{file.name}</strong> <span>({toMB(file.size)}MB)</span>
        </p>
      ) : (
        <p className="dropzone__text">Drag and drop an image here, or</p>
      )}
      <input
        id={inputId}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        className="visually-hidden dropzone__input"
        {...drop.input}
        disabled={disabled}
      />
      <label htmlFor={inputId} className="btn btn--secondary dropzone__button">
        {file ? 'Choose another file' : 'Choose a file'}
      </label>
      <p className="dropzone__hint">Maximum file size: 10MB</p>
      <p className="dropzone__hint">Choose or drop several files to upload them together.</p>
    </div>
  );
}
