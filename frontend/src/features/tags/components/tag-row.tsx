import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import type { TagDto } from '@/api/generated/TagDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useDeleteTag } from '../api/delete-tag';
import { useUpdateTag } from '../api/update-tag';
import type { InlineEditTrigger } from '../inline-edit';
import { PencilIcon, TrashIcon } from './icons';
import { TagNameEditor } from './tag-name-editor';

export const deleteTagConfirm = (name: string) =>
  `Delete Tag "${name}"? The GIFs keep existing; they lose this tag.`;
export const tagRenamedMessage = (from: string, to: string) => `Tag "${from}" renamed to "${to}"`;
export const tagDeletedMessage = (name: string) => `Tag "${name}" deleted`;

/** One tag in manage mode (admins): the link, an inline rename and a delete button. */
export function TagRow({ tag }: { tag: TagDto }) {
  const toast = useToast();
  const update = useUpdateTag();
  const remove = useDeleteTag();
  const busy = update.isPending || remove.isPending;
  const { editing, setEditing, renameRef, onClose } = useInlineRename(busy);

  const onRename = (name: string) => {
    update.mutate(
      { id: tag.id, name },
      {
        onSuccess: (renamed) => toast.success(tagRenamedMessage(tag.name, renamed.name)),
        onError: (error) => toast.error(errorMessage(error, 'Failed to update tag')),
      },
    );
  };

  const onDelete = () => {
    if (!window.confirm(deleteTagConfirm(tag.name))) return;
    remove.mutate(tag.id, {
      onSuccess: () => toast.success(tagDeletedMessage(tag.name)),
      onError: (error) => toast.error(errorMessage(error, 'Failed to delete tag')),
    });
  };

  return (
    <li className={busy ? 'tag-row tag-row--busy' : 'tag-row'} aria-busy={busy || undefined}>
      {editing ? (
        <div className="tag-row__edit">
          <TagNameEditor name={tag.name} onRename={onRename} onClose={onClose} />
          <span className="tag-row__hint" aria-hidden="true">
            Enter saves · Esc cancels
          </span>
        </div>
      ) : (
        <Link to={paths.tag(tag.name)} className="tag-row__link">
          <span className="tag-row__name">{tag.name}</span>{' '}
          <span className={tag.count === 0 ? 'tag-count tag-count--zero' : 'tag-count'}>({tag.count})</span>
        </Link>
      )}
      <div className="tag-row__actions">
        <button
          ref={renameRef}
          type="button"
          className="btn btn--ghost btn--small"
          aria-label={`Rename ${tag.name}`}
          aria-pressed={editing}
          disabled={busy}
          onMouseDown={(event) => {
            // Clicking Rename while editing must not blur-save first and then reopen.
            if (editing) event.preventDefault();
          }}
          onClick={() => setEditing((open) => !open)}
        >
          <PencilIcon />
          <span className="tag-row__action-text">Rename</span>
        </button>
        <button
          type="button"
          className="btn btn--small tags-danger-btn"
          aria-label={`Delete Tag ${tag.name}`}
          disabled={busy}
          onClick={onDelete}
        >
          <TrashIcon />
          <span className="tag-row__action-text">Delete Tag</span>
        </button>
      </div>
    </li>
  );
}

/**
 * Whether the inline rename is open. After Enter or Escape, focus goes back to the Rename button (a
 * blur keeps it where it went), once the button is enabled again (it is disabled while the rename is
 * saved).
 */
function useInlineRename(busy: boolean) {
  const [editing, setEditing] = useState(false);
  const [refocus, setRefocus] = useState(false);
  const renameRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!editing && refocus && !busy) {
      renameRef.current?.focus();
      setRefocus(false);
    }
  }, [editing, refocus, busy]);

  const onClose = (trigger: InlineEditTrigger) => {
    setEditing(false);
    setRefocus(trigger !== 'blur');
  };

  return { editing, setEditing, renameRef, onClose };
}
