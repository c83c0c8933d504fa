import type { HTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useRemoveFromCollection } from '../api/remove-from-collection';
import { useCollectionOrder } from '../hooks/use-collection-order';

/** The collection's GIFs in order; who may edit it reorders (buttons, drag and drop) and removes. */
export function CollectionGifs({ collection }: { collection: CollectionDto }) {
  const { list, order, dragged, announcement, canReorder, reordering, move, dragProps } =
    useCollectionOrder(collection);
  const removeGif = useRemoveFromCollection();
  const toast = useToast();

  const onRemove = (gif: GifDto) =>
    removeGif.mutate(
      { id: collection.id, gifId: gif.id },
      {
        onSuccess: () => toast.success(`Removed "${gif.title}" from the collection`),
        onError: (error) => toast.error(errorMessage(error, 'Failed to remove from collection')),
      },
    );

  if (list.isPending) {
    return (
      <p className="state-line" role="status">
        Loading GIFs...
      </p>
    );
  }
  if (list.isError && order.length === 0) {
    return (
      <p className="form-message form-message--error" role="alert">
        Error: {errorMessage(list.error, 'Failed to fetch the collection’s GIFs')}
      </p>
    );
  }
  if (order.length === 0) {
    return (
      <p className="gallery__empty" role="status">
        No GIFs in this collection yet. Use “Add to collection” on a GIF, or select several in a gallery.
      </p>
    );
  }

  return (
    <>
      {canReorder && (
        <p className="collection-gifs__hint">Drag GIFs to reorder them, or use the arrow buttons.</p>
      )}
      <ol className="collection-gifs" aria-label="GIFs in this collection">
        {order.map((gif, index) => (
          <CollectionGif
            key={gif.id}
            gif={gif}
            dragging={dragged === index}
            dragProps={dragProps(index)}
            actions={
              collection.canEdit && (
                <GifActions
                  gif={gif}
                  reorder={canReorder ? { first: index === 0, last: index === order.length - 1, busy: reordering } : null}
                  removing={removeGif.isPending}
                  onMove={(by) => move(index, index + by)}
                  onRemove={() => onRemove(gif)}
                />
              )
            }
          />
        ))}
      </ol>
      <span className="visually-hidden" aria-live="polite">
        {announcement}
      </span>
      {list.hasNextPage && (
        <LoadMore loading={list.isFetchingNextPage} onLoad={() => void list.fetchNextPage()} />
      )}
    </>
  );
}

function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  return (
    <div className="gallery__more">
      <button type="button" className="btn btn--secondary btn--large" onClick={onLoad} disabled={loading}>
        {loading ? 'Loading...' : 'Load More'}
      </button>
    </div>
  );
}

type CollectionGifProps = {
  gif: GifDto;
  dragging: boolean;
  dragProps: HTMLAttributes<HTMLLIElement>;
  actions: ReactNode;
};

function CollectionGif({ gif, dragging, dragProps, actions }: CollectionGifProps) {
  return (
    <li
      className={dragging ? 'collection-gif collection-gif--dragging' : 'collection-gif'}
      data-testid="collection-gif"
      {...dragProps}
    >
      <div className="collection-gif__media">
        <img src={`/api/gifs/thumbnail/${gif.id}`} alt={gif.title} loading="lazy" decoding="async" draggable={false} />
      </div>
      <div className="collection-gif__body">
        <Link to={paths.gif(gif.id)} className="collection-gif__title">
          {gif.title}
        </Link>
        <span className="collection-gif__meta">{gif.uploadedBy}</span>
      </div>
      {actions}
    </li>
  );
}

type GifActionsProps = {
  gif: GifDto;
  /** Where the GIF stands, when the order can change. */
  reorder: { first: boolean; last: boolean; busy: boolean } | null;
  removing: boolean;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
};

function GifActions({ gif, reorder, removing, onMove, onRemove }: GifActionsProps) {
  return (
    <div className="collection-gif__actions">
      {reorder && (
        <>
          <button
            type="button"
            className="btn btn--ghost btn--small"
            aria-label={`Move ${gif.title} up`}
            disabled={reorder.first || reorder.busy}
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="btn btn--ghost btn--small"
            aria-label={`Move ${gif.title} down`}
            disabled={reorder.last || reorder.busy}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
        </>
      )}
      <button
        type="button"
        className="btn btn--ghost btn--small"
        aria-label={`Remove ${gif.title} from the collection`}
        disabled={removing}
        onClick={onRemove}
      >
        Remove
      </button>
    </div>
  );
}
