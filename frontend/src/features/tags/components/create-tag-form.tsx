import { useState, type FormEvent } from 'react';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useCreateTag } from '../api/create-tag';

export const MSG_TAG_NAME_REQUIRED = 'Please enter a tag name.';
export const tagCreatedMessage = (name: string) => `Tag "${name}" created`;

/** "Create a New Tag": a trimmed, non-blank name; the new tag joins the list (spec §2, §5). */
export function CreateTagForm() {
  const toast = useToast();
  const create = useCreateTag();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(MSG_TAG_NAME_REQUIRED);
      return;
    }
    create.mutate(trimmed, {
      onSuccess: (tag) => {
        setName('');
        toast.success(tagCreatedMessage(tag.name));
      },
    });
  };

  return (
    <section className="tags-panel tag-create" aria-labelledby="tag-create-title">
      <h2 id="tag-create-title" className="tags-panel__title">
        Create a New Tag
      </h2>
      <form className="tag-create__form" onSubmit={onSubmit} noValidate>
        <div className="tag-create__field">
          <TextField
            label="Tag name"
            name="name"
            autoComplete="off"
            placeholder="e.g. reactions"
            value={name}
            onValueChange={(value) => {
              setName(value);
              setNameError(null);
              if (create.isError) create.reset();
            }}
            error={nameError}
          />
        </div>
        <button type="submit" className="btn btn--primary tag-create__submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create Tag'}
        </button>
      </form>
      {create.isError && (
        <FormMessage kind="error">{errorMessage(create.error, 'Failed to create tag')}</FormMessage>
      )}
    </section>
  );
}
