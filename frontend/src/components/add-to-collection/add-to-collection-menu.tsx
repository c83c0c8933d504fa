import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useAddGifToCollection } from '@/lib/collections/add-gif';
import { useCreateCollection } from '@/lib/collections/create-collection';
import { useCollections } from '@/lib/collections/get-collections';
import './add-to-collection.css';

type MenuProps = {
  /** Called with the collection picked (or just created). */
  onPick: (collection: CollectionDto) => void;
  busy?: boolean;
  disabled?: boolean;
  label?: string;
  className?: string;
};

/**
 * "Add to collection": a menu of the collections the caller may change, and "New collection…"
 * (a name, then it is created as a team collection and picked).
 */
export function AddToCollectionMenu({
  onPick,
  busy = false,
  disabled = false,
  label = 'Add to collection',
  className,
}: MenuProps) {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const collections = useCollections(open);
  const create = useCreateCollection();
  const toast = useToast();
  const editable = (collections.data ?? []).filter((c) => c.canEdit);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const pick = (collection: CollectionDto) => {
    setOpen(false);
    setCreating(false);
    onPick(collection);
  };

  const onCreate = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    create.mutate(
      { name: name.trim(), description: '', visibility: 'team' },
      {
        onSuccess: (collection) => {
          setName('');
          pick(collection);
        },
        onError: (error) => toast.error(errorMessage(error, 'Failed to create collection')),
      },
    );
  };

  return (
    <div className={className ? `collection-menu ${className}` : 'collection-menu'} ref={root}>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={busy || disabled}
        onClick={() => setOpen((o) => !o)}
      >
        {busy ? 'Adding...' : label}
      </button>
      {open && (
        <div id={menuId} className="collection-menu__popup" role="menu" aria-label="Collections">
          {collections.isPending ? (
            <p className="collection-menu__note" role="status">
              Loading collections...
            </p>
          ) : collections.isError ? (
            <p className="collection-menu__note form-message--error" role="alert">
              {errorMessage(collections.error, 'Failed to fetch collections')}
            </p>
          ) : editable.length === 0 ? (
            <p className="collection-menu__note">No collections of yours yet.</p>
          ) : (
            editable.map((collection) => (
              <button
                key={collection.id}
                type="button"
                role="menuitem"
                className="collection-menu__item"
                onClick={() => pick(collection)}
              >
                <span className="collection-menu__name">{collection.name}</span>
                <span className="collection-menu__count">{collection.gifCount}</span>
              </button>
            ))
          )}
          {creating ? (
            <form className="collection-menu__new" onSubmit={onCreate}>
              <input
                className="field__input"
                aria-label="New collection name"
                placeholder="Collection name"
                maxLength={80}
                value={name}
                autoFocus
                onChange={(event) => setName(event.target.value)}
              />
              <button type="submit" className="btn btn--primary btn--small" disabled={create.isPending || !name.trim()}>
                Create
              </button>
            </form>
          ) : (
            <button
              type="button"
              role="menuitem"
              className="collection-menu__item collection-menu__item--new"
              onClick={() => setCreating(true)}
            >
              New collection…
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** The menu for one GIF: picking a collection adds the GIF to it, with a toast. */
export function AddGifToCollection({ gifId, className }: { gifId: number; className?: string }) {
  const add = useAddGifToCollection();
  const toast = useToast();
  return (
    <AddToCollectionMenu
      className={className}
      busy={add.isPending}
      onPick={(collection) =>
        add.mutate(
          { collectionId: collection.id, gifId },
          {
            onSuccess: () => toast.success(`Added to ${collection.name}`),
            onError: (error) => toast.error(errorMessage(error, 'Failed to add to collection')),
          },
        )
      }
    />
  );
}
