import type { FormEvent } from 'react';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useCreateCollection } from '@/lib/collections/create-collection';
import { useCollections } from '@/lib/collections/get-collections';
import { COLLECTION_NAME_MAX } from '@/lib/limits';

export type PopupProps = {
  id: string;
  /** Picks a collection (closes the menu). */
  pick: (collection: CollectionDto) => void;
  /** "New collection…" was chosen: the name form shows instead. */
  creating: boolean;
  setCreating: (creating: boolean) => void;
  name: string;
  setName: (name: string) => void;
};

/**
 * The open "Add to collection" menu: the collections the caller may change, and "New collection…".
 * Loaded with the first opening (`add-to-collection-menu.tsx`); its state lives in the menu, so it
 * survives closing and opening again.
 */
export function AddToCollectionPopup({ id, pick, creating, setCreating, name, setName }: PopupProps) {
  const collections = useCollections();
  const create = useCreateCollection();
  const toast = useToast();
  const editable = (collections.data ?? []).filter((c) => c.canEdit);

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
    <div id={id} className="collection-menu__popup" role="menu" aria-label="Collections">
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
            maxLength={COLLECTION_NAME_MAX}
            value={name}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the field the user just asked for by "New collection…"
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
  );
}
