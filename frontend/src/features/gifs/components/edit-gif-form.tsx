import { useState, type FormEvent } from 'react';
import type { GifDto } from '@/api/generated/GifDto';
import type { Rating } from '@/api/generated/Rating';
import type { UpdateGifRequest } from '@/api/generated/UpdateGifRequest';
import { FormMessage } from '@/components/form/form-message';
import { TextAreaField } from '@/components/form/text-area-field';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useUpdateGif } from '../api/update-gif';
import { CAPTION_TEXT_MAX, DESCRIPTION_MAX, MSG_NO_TITLE, TITLE_MAX } from '../upload-rules';
import { RatingField } from './rating-field';
import { TagEditor } from './tag-editor';

export const MSG_GIF_UPDATED = 'GIF updated successfully';

type EditFields = Pick<UpdateGifRequest, 'title' | 'description' | 'tags'> & { captionText: string; rating: Rating };

/**
 * The PUT body of an edit, trimmed. The text in the GIF goes only when it was changed: a text sent
 * is kept over later reads of the GIF's frames, and an edit of the title alone must not freeze a
 * text not read yet (or clear one read meanwhile).
 */
export function updateRequest(gif: GifDto, fields: EditFields): UpdateGifRequest {
  const { title, description, tags, rating } = fields;
  const body = { title: title.trim(), description: description.trim(), tags, rating };
  const text = fields.captionText.trim();
  return text === (gif.captionText ?? '').trim() ? body : { ...body, captionText: text };
}

/** "Text in this GIF" with its count of characters. */
function TextInGifField({ value, onValueChange }: { value: string; onValueChange: (value: string) => void }) {
  return (
    <TextAreaField
      label="Text in this GIF"
      name="captionText"
      rows={3}
      maxLength={CAPTION_TEXT_MAX}
      value={value}
      onValueChange={onValueChange}
      help={`${value.length}/${CAPTION_TEXT_MAX}`}
    />
  );
}

/**
 * "Edit GIF": title, description, the text in the GIF, rating and tags; Update GIF saves, Cancel goes
 * back to the detail.
 */
export function EditGifForm({ gif, onDone }: { gif: GifDto; onDone: () => void }) {
  const toast = useToast();
  const update = useUpdateGif();
  const [title, setTitle] = useState(gif.title);
  const [description, setDescription] = useState(gif.description);
  const [captionText, setCaptionText] = useState(gif.captionText ?? '');
  const [tags, setTags] = useState<string[]>(() => gif.tags.map((tag) => tag.name));
  const [rating, setRating] = useState<Rating>(gif.rating);
  const [titleError, setTitleError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    if (!title.trim()) {
      setTitleError(MSG_NO_TITLE);
      return;
    }
    update.mutate(
      { id: gif.id, body: updateRequest(gif, { title, description, captionText, tags, rating }) },
      {
        onSuccess: () => {
          toast.success(MSG_GIF_UPDATED);
          onDone();
        },
      },
    );
  };

  return (
    <section className="panel edit-gif" aria-labelledby="edit-gif-title">
      <h1 id="edit-gif-title" className="page-title">
        Edit GIF
      </h1>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Title *"
          name="title"
          required
          maxLength={TITLE_MAX}
          value={title}
          onValueChange={(value) => {
            setTitle(value);
            setTitleError(null);
          }}
          error={titleError}
          help={`${title.length}/${TITLE_MAX}`}
        />
        <TextAreaField
          label="Description"
          name="description"
          rows={4}
          maxLength={DESCRIPTION_MAX}
          value={description}
          onValueChange={setDescription}
          help={`${description.length}/${DESCRIPTION_MAX}`}
        />
        <TextInGifField value={captionText} onValueChange={setCaptionText} />
        <RatingField value={rating} onChange={setRating} disabled={update.isPending} />
        <TagEditor tags={tags} setTags={setTags} quickAddLabel="Available tags" disabled={update.isPending} />
        {update.isError && (
          <FormMessage kind="error">{errorMessage(update.error, 'Failed to update GIF')}</FormMessage>
        )}
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={update.isPending}>
            Update GIF
          </button>
          <button type="button" className="btn btn--secondary" onClick={onDone} disabled={update.isPending}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
