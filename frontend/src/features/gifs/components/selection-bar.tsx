import { useState, type FormEvent } from 'react';
import { AddToCollectionMenu } from '@/components/add-to-collection/add-to-collection-menu';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useBulkEdit, type BulkAction } from '../api/bulk-edit';
import { bulkSummary, parseTagInput } from '../selection';

export const MSG_BULK_DELETE_CONFIRM = (n: number) =>
  `Delete ${n} ${n === 1 ? 'GIF' : 'GIFs'}? Only your own are deleted; this cannot be undone.`;

type Props = {
  selected: number[];
  onSelectAll: () => void;
  onClear: () => void;
  onDone: () => void;
  /** After an action that changed the GIFs on screen (a delete). */
  onApplied: () => void;
};

/** The actions of the gallery's "Select" mode: one request per action, a toast that sums it up. */
export function SelectionBar({ selected, onSelectAll, onClear, onDone, onApplied }: Props) {
  const bulk = useBulkEdit();
  const toast = useToast();
  const [tagMode, setTagMode] = useState<'add' | 'remove' | null>(null);
  const [tags, setTags] = useState('');
  const none = selected.length === 0;

  const run = (action: Omit<BulkAction, 'ids'>, done: string, after?: () => void) =>
    bulk.mutate(
      { ids: selected, ...action },
      {
        onSuccess: ({ results }) => {
          const summary = bulkSummary(done, results);
          if (summary.ok) toast.success(summary.message);
          else toast.warning(summary.message);
          after?.();
        },
        onError: (error) => toast.error(errorMessage(error, 'Failed to apply the action')),
      },
    );

  const onTags = (event: FormEvent) => {
    event.preventDefault();
    const names = parseTagInput(tags);
    if (names.length === 0) return;
    const adding = tagMode === 'add';
    run(adding ? { addTags: names } : { removeTags: names }, adding ? 'Tagged' : 'Untagged', () => {
      setTags('');
      setTagMode(null);
    });
  };

  const onDelete = () => {
    if (!window.confirm(MSG_BULK_DELETE_CONFIRM(selected.length))) return;
    run({ delete: true }, 'Deleted', onApplied);
  };

  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected GIFs">
      <div className="selection-bar__row">
        <span className="selection-bar__count" aria-live="polite">
          {selected.length} selected
        </span>
        <button type="button" className="btn btn--ghost btn--small" onClick={onSelectAll}>
          Select all on screen
        </button>
        <button type="button" className="btn btn--ghost btn--small" onClick={onClear} disabled={none}>
          Clear
        </button>
        <span className="selection-bar__spacer" />
        <button
          type="button"
          className="btn btn--secondary btn--small"
          aria-pressed={tagMode === 'add'}
          disabled={none || bulk.isPending}
          onClick={() => setTagMode(tagMode === 'add' ? null : 'add')}
        >
          Add tags
        </button>
        <button
          type="button"
          className="btn btn--secondary btn--small"
          aria-pressed={tagMode === 'remove'}
          disabled={none || bulk.isPending}
          onClick={() => setTagMode(tagMode === 'remove' ? null : 'remove')}
        >
          Remove tags
        </button>
        <AddToCollectionMenu
          busy={bulk.isPending}
          disabled={none}
          onPick={(collection) => run({ collectionId: collection.id }, `Added to ${collection.name}:`)}
        />
        <button type="button" className="btn btn--danger btn--small" disabled={none || bulk.isPending} onClick={onDelete}>
          Delete
        </button>
        <button type="button" className="btn btn--primary btn--small" onClick={onDone}>
          Done
        </button>
      </div>
      {tagMode && (
        <form className="selection-bar__tags" onSubmit={onTags}>
          <input
            className="field__input"
            aria-label={tagMode === 'add' ? 'Tags to add' : 'Tags to remove'}
            placeholder="Tags, separated by commas"
            value={tags}
            autoFocus
            onChange={(event) => setTags(event.target.value)}
          />
          <button type="submit" className="btn btn--primary btn--small" disabled={bulk.isPending || !tags.trim()}>
            {tagMode === 'add' ? 'Add to selected' : 'Remove from selected'}
          </button>
        </form>
      )}
    </div>
  );
}
