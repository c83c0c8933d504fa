import { useId, useState, type FormEvent } from 'react';
import type { Visibility } from '@/api/generated/Visibility';
import { TextAreaField } from '@/components/form/text-area-field';
import { COLLECTION_NAME_MAX, DESCRIPTION_MAX } from '@/lib/limits';

export type CollectionFields = { name: string; description: string; visibility: Visibility };

/** The name rule of the server, said before asking it. */
export function nameError(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Please enter a name for the collection.';
  if ([...trimmed].length > COLLECTION_NAME_MAX) {
    return `Collection names must be at most ${COLLECTION_NAME_MAX} characters`;
  }
  return null;
}

type Props = {
  initial: CollectionFields;
  submitLabel: string;
  busy: boolean;
  /** False for an admin editing someone else's collection: only its owner changes who sees it. */
  visibilityEditable?: boolean;
  onSubmit: (fields: CollectionFields) => void;
  onCancel: () => void;
};

/** Name, description and visibility of a collection. */
export function CollectionForm({ initial, submitLabel, busy, visibilityEditable = true, onSubmit, onCancel }: Props) {
  const [fields, setFields] = useState(initial);
  const [touched, setTouched] = useState(false);
  const id = useId();
  const error = touched ? nameError(fields.name) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameError(fields.name)) return;
    onSubmit({ ...fields, name: fields.name.trim(), description: fields.description.trim() });
  };

  return (
    <form className="panel collection-form" onSubmit={submit} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          Name
        </label>
        <input
          id={`${id}-name`}
          className="field__input"
          value={fields.name}
          maxLength={COLLECTION_NAME_MAX}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-name-error` : undefined}
          onChange={(event) => setFields({ ...fields, name: event.target.value })}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the form opens when the user asks to create or edit one
          autoFocus
        />
        {error && (
          <p id={`${id}-name-error`} className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <TextAreaField
        label="Description"
        rows={3}
        maxLength={DESCRIPTION_MAX}
        value={fields.description}
        onValueChange={(description) => setFields({ ...fields, description })}
      />
      <fieldset className="collection-form__visibility" disabled={!visibilityEditable}>
        <legend className="field__label">Who sees it</legend>
        <label className="collection-form__choice">
          <input
            type="radio"
            name={`${id}-visibility`}
            checked={fields.visibility === 'team'}
            onChange={() => setFields({ ...fields, visibility: 'team' })}
          />
          Team — everyone signed in
        </label>
        <label className="collection-form__choice">
          <input
            type="radio"
            name={`${id}-visibility`}
            checked={fields.visibility === 'private'}
            onChange={() => setFields({ ...fields, visibility: 'private' })}
          />
          Private — only me
        </label>
      </fieldset>
      <div className="collection-form__actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Saving...' : submitLabel}
        </button>
      </div>
    </form>
  );
}
