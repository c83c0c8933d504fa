import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextAreaField } from '@/components/form/text-area-field';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useUploadFromUrl } from '../api/upload-from-url';
import { duplicateOf } from '../upload-batch';
import {
  DESCRIPTION_MAX,
  MSG_NO_TITLE,
  MSG_UPLOADED,
  MSG_UPLOAD_FAILED,
  MSG_UPLOAD_FAILED_TITLE,
  TITLE_MAX,
  UPLOAD_SUCCESS_TOAST_MS,
} from '../upload-rules';
import { TagEditor } from './tag-editor';

export const MSG_NO_LINK = 'Please paste the link of a GIF or of a page showing one.';
export const MSG_NOT_A_LINK = 'Links start with http:// or https://.';

function linkProblem(url: string): string | null {
  if (!url.trim()) return MSG_NO_LINK;
  if (!/^https?:\/\/\S+$/i.test(url.trim())) return MSG_NOT_A_LINK;
  return null;
}

/** The "From a link" form's fields, what is missing, and `onSubmit` (toasts, /gifs on success). */
function useFromLink() {
  const navigate = useNavigate();
  const toast = useToast();
  const upload = useUploadFromUrl();
  const [url, setUrl] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<number | null>(null);

  const missing = linkProblem(url) ?? (title.trim() ? null : MSG_NO_TITLE);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    setProblem(missing);
    setDuplicate(null);
    if (missing) return;
    upload.mutate(
      { url: url.trim(), title: title.trim(), description: description.trim(), tags },
      {
        onSuccess: () => {
          toast.success(MSG_UPLOADED, { duration: UPLOAD_SUCCESS_TOAST_MS });
          void navigate(paths.gifs);
        },
        onError: (error) => {
          const existing = duplicateOf(error);
          if (existing !== null) setDuplicate(existing);
          toast.error(errorMessage(error, MSG_UPLOAD_FAILED), { title: MSG_UPLOAD_FAILED_TITLE });
        },
      },
    );
  };

  /** A typed field's setter that also clears the shown problem. */
  const clearing = (set: (value: string) => void) => (value: string) => {
    set(value);
    setProblem(null);
  };

  return {
    url,
    title,
    description,
    tags,
    problem,
    duplicate,
    missing,
    setDescription,
    setTags,
    onSubmit,
    onUrl: clearing(setUrl),
    onTitle: clearing(setTitle),
    pending: upload.isPending,
  };
}

/** "From a link": the server fetches the image (or a page's og:image) and stores it like an upload. */
export function FromLinkForm() {
  const form = useFromLink();
  const { title, pending, problem, duplicate, missing } = form;

  return (
    <form className="panel form upload__link" onSubmit={form.onSubmit} noValidate aria-label="From a link">
      <TextField
        label="Link *"
        name="url"
        type="url"
        inputMode="url"
        placeholder="https://media.giphy.com/… or a GIPHY, Tenor or Imgur page"
        value={form.url}
        onValueChange={form.onUrl}
        disabled={pending}
        help="The server fetches the image itself. Pages are accepted when they name their image for link previews."
      />
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
        rows={3}
        maxLength={DESCRIPTION_MAX}
        value={form.description}
        disabled={pending}
        onValueChange={form.setDescription}
      />
      <TagEditor tags={form.tags} setTags={form.setTags} quickAddLabel="Suggested tags" disabled={pending} />
      {problem && <FormMessage kind="error">{problem}</FormMessage>}
      {duplicate !== null && (
        <p className="field__help">
          <Link to={paths.gif(duplicate)}>View the GIF you already have</Link>
        </p>
      )}
      {pending && (
        <p className="state-line" role="status">
          Fetching the image…
        </p>
      )}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary btn--large" disabled={pending || missing !== null}>
          Upload from link
        </button>
      </div>
      {!pending && missing && !problem && <p className="field__help">{missing}</p>}
    </form>
  );
}
