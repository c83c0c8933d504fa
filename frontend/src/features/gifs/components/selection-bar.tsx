import { useState, type FormEvent } from 'react';
import { AddToCollectionMenu } from '@/components/add-to-collection/add-to-collection-menu';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useBulkEdit, type BulkAction } from '../api/bulk-edit';
import { bulkSummary, parseTagInput } from '../selection';

export const MSG_BULK_DELETE_CONFIRM = (n: number) =>
  `Delete ${n} ${n === 1 ? 'GIF' : 'GIFs'}? Only your own are deleted; this cannot be undone.`;

type TagMode = 'add' | 'remove';

type Props = {
  selected: number[];
  onSelectAll: () => void;
  onClear: () => void;
  onDone: () => void;
  /** After an action that changed the GIFs on screen (a delete). */
  onApplied: () => void;
};

/** Runs one bulk action on `selected`; a toast sums up what was done and what was not. */
function useBulkRun(selected: number[]) {
  const bulk = useBulkEdit();
  const toast = useToast();
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
  return { run, busy: bulk.isPending };
}

/** The actions of the gallery's "Select" mode: one request per action, a toast that sums it up. */
export function SelectionBar({ selected, onSelectAll, onClear, onDone, onApplied }: Props) {
  const { run, busy } = useBulkRun(selected);
  const [tagMode, setTagMode] = useState<TagMode | null>(null);
  const [tags, setTags] = useState('');
  const none = selected.length === 0;

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
        {(['add', 'remove'] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            className="btn btn--secondary btn--small"
            aria-pressed={tagMode === mode}
            disabled={none || busy}
            onClick={() => setTagMode(tagMode === mode ? null : mode)}
          >
            {mode === 'add' ? 'Add tags' : 'Remove tags'}
          </button>
        ))}
        <AddToCollectionMenu
          busy={busy}
          disabled={none}
          onPick={(collection) => run({ collectionId: collection.id }, `Added to ${collection.name}:`)}
        />
        <button type="button" className="btn btn--danger btn--small" disabled={none || busy} onClick={onDelete}>
          Delete
        </button>
        <button type="button" className="btn btn--primary btn--small" onClick={onDone}>
          Done
        </button>
      </div>
      {tagMode && <BulkTagForm mode={tagMode} tags={tags} setTags={setTags} busy={busy} onSubmit={onTags} />}
    </div>
  );
}

type BulkTagFormProps = {
  mode: TagMode;
  tags: string;
  setTags: (tags: string) => void;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
};

/** The tags to add to or remove from the selected GIFs, comma-separated; focused when it opens. */
function BulkTagForm({ mode, tags, setTags, busy, onSubmit }: BulkTagFormProps) {
  return (
    <form className="selection-bar__tags" onSubmit={onSubmit}>
      <input
        className="field__input"
        aria-label={mode === 'add' ? 'Tags to add' : 'Tags to remove'}
        placeholder="Tags, separated by commas"
        value={tags}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the form opens when the user asks to add or remove tags
        autoFocus
        onChange={(event) => setTags(event.target.value)}
      />
      <button type="submit" className="btn btn--primary btn--small" disabled={busy || !tags.trim()}>
        {mode === 'add' ? 'Add to selected' : 'Remove from selected'}
      </button>
    </form>
  );
}
