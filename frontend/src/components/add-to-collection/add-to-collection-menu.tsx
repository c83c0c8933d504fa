import { Suspense, lazy, useEffect, useId, useRef, useState } from 'react';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useAddGifToCollection } from '@/lib/collections/add-gif';
import './add-to-collection.css';

/** The open menu is a chunk of its own, loaded when a menu is first hovered, focused or opened:
 * every gallery card has the button, few visits open it. */
const loadPopup = () => import(/* webpackChunkName: "add-to-collection" */ './add-to-collection-popup');
const AddToCollectionPopup = lazy(() => loadPopup().then((m) => ({ default: m.AddToCollectionPopup })));

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

  return (
    <div className={className ? `collection-menu ${className}` : 'collection-menu'} ref={root}>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={busy || disabled}
        onPointerEnter={() => void loadPopup()}
        onFocus={() => void loadPopup()}
        onClick={() => setOpen((o) => !o)}
      >
        {busy ? 'Adding...' : label}
      </button>
      {open && (
        <Suspense
          fallback={
            <div id={menuId} className="collection-menu__popup" role="menu" aria-label="Collections">
              <p className="collection-menu__note" role="status">
                Loading collections...
              </p>
            </div>
          }
        >
          <AddToCollectionPopup
            id={menuId}
            pick={pick}
            creating={creating}
            setCreating={setCreating}
            name={name}
            setName={setName}
          />
        </Suspense>
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
