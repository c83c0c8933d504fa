import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { TextAreaField } from '@/components/form/text-area-field';
import { useToast } from '@/components/toast/toast-provider';
import { ApiError } from '@/lib/api-client';
import { toMB } from '@/lib/format';
import { usePublicConfig } from '@/lib/public-config';
import { useUploadGif } from '../api/upload-gif';
import {
  ACCEPT_ATTRIBUTE,
  DEFAULT_MAX_UPLOAD_BYTES,
  DESCRIPTION_MAX,
  FILE_SELECTED_TOAST_MS,
  MSG_DUPLICATE,
  MSG_UPLOADED,
  likelyDuplicatesMessage,
  MSG_UPLOAD_FAILED_TITLE,
  TITLE_MAX,
  UPLOAD_SUCCESS_TOAST_MS,
  checkFile,
  fileSelectedMessage,
  uploadErrorMessage,
  uploadProblem,
} from '../upload-rules';
import { BatchUpload } from './batch-upload';
import { FromLinkForm } from './from-link-form';
import { TagEditor } from './tag-editor';
import { useFileDrop } from '../use-file-drop';
import './gifs.css';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

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
  const inputId = useId();
  const navigate = useNavigate();
  const toast = useToast();
  const config = usePublicConfig();
  const upload = useUploadGif();
  const maxBytes = config.data?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;

  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [progress, setProgress] = useState(0);
  const [formError, setFormError] = useState<string | null>(null);
  /** The GIF of the library the last upload was byte for byte. */
  const [duplicateOf, setDuplicateOf] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const preview = usePreviewUrl(file);

  useEffect(() => () => abort.current?.abort(), []);

  const choose = (files: FileList | null | undefined) => {
    if (files && files.length > 1) {
      onMany(Array.from(files));
      return;
    }
    const chosen = files?.[0];
    if (!chosen) return;
    const problem = checkFile(chosen, maxBytes);
    if (problem) {
      toast.error(problem.message, { title: problem.title });
      return;
    }
    setFile(chosen);
    setFormError(null);
    setDuplicateOf(null);
    toast.info(fileSelectedMessage(chosen.name, chosen.size), { duration: FILE_SELECTED_TOAST_MS });
  };

  const drop = useFileDrop((files) => {
    if (!upload.isPending) choose(files);
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    const problem = uploadProblem(file, title);
    setFormError(problem);
    setDuplicateOf(null);
    if (problem || !file) return;
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    upload.mutate(
      {
        file,
        data: { title: title.trim(), description: description.trim(), tags },
        onProgress: (fraction) => setProgress(fraction),
        signal: controller.signal,
      },
      {
        onSuccess: (uploaded) => {
          toast.success(MSG_UPLOADED, { duration: UPLOAD_SUCCESS_TOAST_MS });
          const alike = likelyDuplicatesMessage(uploaded.likelyDuplicates);
          if (alike) toast.info(alike, { title: 'Possible duplicate' });
          navigate(paths.gifs);
        },
        onError: (error) => {
          if (isAbort(error)) return;
          if (error instanceof ApiError && error.code === 'duplicate' && error.existingId !== null) {
            setDuplicateOf(error.existingId);
            toast.error(`${MSG_DUPLICATE} (GIF #${error.existingId}).`, { title: MSG_UPLOAD_FAILED_TITLE });
            return;
          }
          toast.error(uploadErrorMessage(error), { title: MSG_UPLOAD_FAILED_TITLE });
        },
      },
    );
  };

  const missing = uploadProblem(file, title);
  const percent = Math.round(progress * 100);

  return (
    <form className="upload__layout" onSubmit={onSubmit} noValidate>
        <div
          className={[
            'panel',
            'dropzone',
            drop.dragging ? 'dropzone--active' : '',
            file ? 'dropzone--filled' : '',
          ]
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
            disabled={upload.isPending}
          />
          <label htmlFor={inputId} className="btn btn--secondary dropzone__button">
            {file ? 'Choose another file' : 'Choose a file'}
          </label>
          <p className="dropzone__hint">Maximum file size: 10MB</p>
          <p className="dropzone__hint">Choose or drop several files to upload them together.</p>
        </div>

        <div className="panel form upload__form">
          <TextField
            label="Title *"
            name="title"
            required
            maxLength={TITLE_MAX}
            value={title}
            onValueChange={(value) => {
              setTitle(value);
              setFormError(null);
            }}
            disabled={upload.isPending}
            help={`${title.length}/${TITLE_MAX}`}
          />
          <TextAreaField
            label="Description"
            name="description"
            rows={4}
            maxLength={DESCRIPTION_MAX}
            value={description}
            disabled={upload.isPending}
            onValueChange={setDescription}
            help={`${description.length}/${DESCRIPTION_MAX}`}
          />
          <TagEditor tags={tags} setTags={setTags} quickAddLabel="Suggested tags" disabled={upload.isPending} />

          {upload.isPending && (
            <div className="upload-progress">
              <div
                className="upload-progress__track"
                role="progressbar"
                aria-label="Upload progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
              >
                <div className="upload-progress__bar" style={{ width: `${percent}%` }} />
              </div>
              <span className="upload-progress__value">{percent}%</span>
            </div>
          )}
          {formError && <FormMessage kind="error">{formError}</FormMessage>}
          {duplicateOf !== null && (
            <FormMessage kind="error">
              {MSG_DUPLICATE}: <Link to={paths.gif(duplicateOf)}>open it</Link>.
            </FormMessage>
          )}

          <div className="form__actions">
            <button
              type="submit"
              className="btn btn--primary btn--large"
              disabled={upload.isPending || missing !== null}
            >
              Upload GIF
            </button>
          </div>
          {!upload.isPending && missing && !formError && <p className="field__help">{missing}</p>}
        </div>
    </form>
  );
}
