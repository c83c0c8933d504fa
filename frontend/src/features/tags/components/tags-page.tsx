import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '@/app/paths';
import type { TagDto } from '@/api/generated/TagDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useIsAdmin } from '@/lib/session';
import { useTags } from '@/lib/tags/get-tags';
import { useDeleteEmptyTags } from '../api/delete-empty-tags';
import { sortTags } from '../tag-order';
import { TAGS_MODE_LABELS, tagsMode, type TagsMode } from '../tags-mode';
import { CreateTagForm } from './create-tag-form';
import { CloudIcon, TrashIcon } from './icons';
import { TagRow } from './tag-row';
import './tags.css';

export const DELETE_EMPTY_CONFIRM = 'Are you sure you want to delete all tags with 0 GIFs?';
export const emptyTagsDeletedMessage = (n: number) =>
  n === 0 ? 'There were no empty tags to delete' : `Deleted ${n} empty ${n === 1 ? 'tag' : 'tags'}`;

/** /tags: browse every tag ("Browse by Tags"); admins switch to managing them ("Manage Tags", spec §2). */
export function TagsPage() {
  const isAdmin = useIsAdmin();
  const tags = useTags();
  const sorted = useMemo(() => sortTags(tags.data ?? []), [tags.data]);
  const [searchParams, setSearchParams] = useSearchParams();
  const mode = tagsMode(isAdmin, searchParams.get('mode'));
  const managing = mode === 'manage';
  const title = TAGS_MODE_LABELS[mode];

  return (
    <section className="tags-page" aria-labelledby="tags-title">
      <div className="tags-page__head">
        <h1 id="tags-title" className="page-title tags-page__title">
          {title}
        </h1>
        {isAdmin && <ModeSwitch mode={mode} onChange={(next) => setSearchParams({ mode: next })} />}
        <Link to={paths.tagCloud} className="btn btn--secondary btn--small">
          <CloudIcon />
          Tag Cloud
        </Link>
      </div>

      <CreateTagForm />

      <section className="tags-panel" aria-labelledby="tags-list-title">
        <div className="tags-panel__head">
          <h2 id="tags-list-title" className="tags-panel__title">
            All tags
            {tags.isSuccess && <span className="tags-panel__total"> {sorted.length}</span>}
          </h2>
          {managing && <DeleteEmptyTagsButton />}
        </div>
        {tags.isPending ? (
          <p className="state-line" role="status">
            Loading tags...
          </p>
        ) : tags.isError ? (
          <p className="form-message form-message--error" role="alert">
            Error: {errorMessage(tags.error, 'Failed to fetch tags')}
          </p>
        ) : sorted.length === 0 ? (
          <p className="state-line" role="status">
            No tags found.
          </p>
        ) : managing ? (
          <ul className="tag-rows" aria-label="Tags">
            {sorted.map((tag) => (
              <TagRow key={tag.id} tag={tag} />
            ))}
          </ul>
        ) : (
          <TagGrid tags={sorted} />
        )}
      </section>
    </section>
  );
}

/** The admin's switch between browsing and managing: two toggle buttons, the current one pressed. */
function ModeSwitch({ mode, onChange }: { mode: TagsMode; onChange: (mode: TagsMode) => void }) {
  return (
    <div className="mode-switch" role="group" aria-label="Tags page mode">
      {(['browse', 'manage'] as const).map((option) => (
        <button
          key={option}
          type="button"
          className={option === mode ? 'mode-switch__option mode-switch__option--on' : 'mode-switch__option'}
          aria-pressed={option === mode}
          onClick={() => onChange(option)}
        >
          {TAGS_MODE_LABELS[option]}
        </button>
      ))}
    </div>
  );
}

/** Browse mode: every tag as "{name} ({count})", linking to its gallery. */
function TagGrid({ tags }: { tags: TagDto[] }) {
  return (
    <ul className="tag-grid" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag.id}>
          <Link to={paths.tag(tag.name)} className="tag-entry">
            <span className="tag-entry__name">{tag.name}</span>{' '}
            <span className={tag.count === 0 ? 'tag-count tag-count--zero' : 'tag-count'}>
              ({tag.count})
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function DeleteEmptyTagsButton() {
  const toast = useToast();
  const deleteEmpty = useDeleteEmptyTags();
  const onClick = () => {
    if (!window.confirm(DELETE_EMPTY_CONFIRM)) return;
    deleteEmpty.mutate(undefined, {
      onSuccess: ({ deletedIds }) => toast.success(emptyTagsDeletedMessage(deletedIds.length)),
      onError: (error) => toast.error(errorMessage(error, 'Failed to delete empty tags')),
    });
  };
  return (
    <button
      type="button"
      className="btn btn--small tags-danger-btn"
      disabled={deleteEmpty.isPending}
      onClick={onClick}
    >
      <TrashIcon />
      Delete Empty Tags
    </button>
  );
}
