import { useEffect, useMemo, useState, type DragEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { ApiError, errorMessage } from '@/lib/api-client';
import { collectionShareUrl } from '@/lib/collections/query-keys';
import { useUsername } from '@/lib/session';
import { useCollection } from '../api/get-collection';
import { useCollectionGifs } from '../api/get-collection-gifs';
import { useDeleteCollection } from '../api/delete-collection';
import { useRemoveFromCollection } from '../api/remove-from-collection';
import { useReorderCollection } from '../api/reorder-collection';
import { useShareCollection } from '../api/share-collection';
import { useUpdateCollection } from '../api/update-collection';
import { gifCountLabel, moveItem } from '../order';
import { CollectionForm } from './collection-form';
import './collections.css';

export const MSG_DELETE_COLLECTION_CONFIRM =
  'Delete this collection? Its GIFs stay in the library.';

const parseId = (raw: string | undefined): number | null => (raw && /^\d+$/.test(raw) ? Number(raw) : null);

/** /collections/:id — its GIFs in order; its owner (or an admin, for a team one) curates it. */
export function CollectionPage() {
  const { id: rawId } = useParams();
  const id = parseId(rawId);
  const collection = useCollection(id ?? 0, id !== null);

  if (id === null || (collection.isError && collection.error instanceof ApiError && collection.error.status === 404)) {
    return (
      <Message>
        <p className="gallery__empty" role="status">
          Collection not found
        </p>
      </Message>
    );
  }
  if (collection.isPending) {
    return (
      <p className="state-line" role="status">
        Loading collection...
      </p>
    );
  }
  if (collection.isError) {
    return (
      <Message>
        <p className="form-message form-message--error" role="alert">
          {errorMessage(collection.error, 'Failed to load collection')}
        </p>
      </Message>
    );
  }
  return <CollectionView collection={collection.data} />;
}

function Message({ children }: { children: ReactNode }) {
  return (
    <div className="detail-message">
      {children}
      <Link to={paths.collections} className="btn btn--secondary">
        Back to Collections
      </Link>
    </div>
  );
}

function CollectionView({ collection }: { collection: CollectionDto }) {
  const navigate = useNavigate();
  const toast = useToast();
  const username = useUsername();
  const [editing, setEditing] = useState(false);
  const update = useUpdateCollection();
  const share = useShareCollection();
  const remove = useDeleteCollection();

  const onDelete = () => {
    if (!window.confirm(MSG_DELETE_COLLECTION_CONFIRM)) return;
    remove.mutate(collection.id, {
      onSuccess: () => {
        toast.success('Collection deleted');
        void navigate(paths.collections);
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to delete collection')),
    });
  };

  const onShare = (enabled: boolean) =>
    share.mutate(
      { id: collection.id, enabled },
      {
        onSuccess: () => toast.success(enabled ? 'Public link created' : 'Public link turned off'),
        onError: (error) => toast.error(errorMessage(error, 'Failed to change sharing')),
      },
    );

  return (
    <article className="collection-page" aria-labelledby="collection-title">
      {editing ? (
        <CollectionForm
          initial={{ name: collection.name, description: collection.description, visibility: collection.visibility }}
          submitLabel="Save"
          busy={update.isPending}
          visibilityEditable={collection.owner === username}
          onCancel={() => setEditing(false)}
          onSubmit={(fields) =>
            update.mutate(
              { id: collection.id, ...fields, sharing: null },
              {
                onSuccess: () => {
                  toast.success('Collection saved');
                  setEditing(false);
                },
                onError: (error) => toast.error(errorMessage(error, 'Failed to save collection')),
              },
            )
          }
        />
      ) : (
        <header className="collection-page__head">
          <div>
            <h1 id="collection-title" className="page-title collection-page__title">
              {collection.name}
            </h1>
            {collection.description && <p className="collection-page__description">{collection.description}</p>}
            <p className="collection-card__meta">
              <span>{gifCountLabel(collection.gifCount)}</span>
              <span aria-hidden="true">·</span>
              <span>by {collection.owner}</span>
              <span className="badge">{collection.visibility === 'private' ? 'Private' : 'Team'}</span>
            </p>
          </div>
          {collection.canEdit && (
            <div className="collection-page__actions">
              <button type="button" className="btn btn--secondary" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" className="btn btn--danger" onClick={onDelete} disabled={remove.isPending}>
                Delete collection
              </button>
            </div>
          )}
        </header>
      )}

      {collection.canEdit ? (
        <section className="panel collection-share" aria-label="Sharing">
          <label className="collection-share__toggle">
            <input
              type="checkbox"
              checked={collection.shareId !== null}
              disabled={share.isPending}
              onChange={(event) => onShare(event.target.checked)}
            />
            Public link — anyone with it can see this collection, no sign-in needed
          </label>
          {collection.shareId && <CopyLink url={collectionShareUrl(collection.shareId)} />}
        </section>
      ) : (
        collection.shareId && (
          <section className="panel collection-share" aria-label="Sharing">
            <CopyLink url={collectionShareUrl(collection.shareId)} />
          </section>
        )
      )}

      <CollectionGifs collection={collection} />

      <footer className="gif-detail__footer">
        <Link to={paths.collections} className="btn btn--secondary">
          Back to Collections
        </Link>
      </footer>
    </article>
  );
}

function CopyLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="collection-share__row">
      <input
        className="field__input collection-share__input"
        aria-label="Public link"
        readOnly
        value={url}
        onFocus={(event) => event.currentTarget.select()}
      />
      <a className="btn btn--secondary" href={url} target="_blank" rel="noreferrer">
        Open
      </a>
      <button type="button" className="btn btn--primary" onClick={() => void onCopy()}>
        {copied ? 'Copied!' : 'Copy'}
      </button>
    </div>
  );
}

function CollectionGifs({ collection }: { collection: CollectionDto }) {
  const list = useCollectionGifs(collection.id);
  const reorder = useReorderCollection();
  const removeGif = useRemoveFromCollection();
  const toast = useToast();
  const loaded = useMemo(() => list.data?.pages.flatMap((p) => p.content) ?? [], [list.data]);
  const [order, setOrder] = useState<GifDto[]>(loaded);
  const [dragged, setDragged] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => setOrder(loaded), [loaded]);

  const canReorder = collection.canEdit && !list.hasNextPage;

  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= order.length) return;
    const next = moveItem(order, from, to);
    const moved = order[from];
    setOrder(next);
    if (moved) setAnnouncement(`${moved.title} moved to position ${to + 1} of ${next.length}`);
    reorder.mutate(
      { id: collection.id, gifIds: next.map((g) => g.id) },
      {
        onError: (error) => {
          setOrder(loaded);
          toast.error(errorMessage(error, 'Failed to save the order'));
        },
      },
    );
  };

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

  const dragProps = (index: number) =>
    canReorder
      ? {
          draggable: true,
          onDragStart: (event: DragEvent) => {
            setDragged(index);
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', String(index));
          },
          onDragOver: (event: DragEvent) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
          },
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            const from = dragged ?? Number(event.dataTransfer.getData('text/plain'));
            setDragged(null);
            if (Number.isInteger(from)) move(from, index);
          },
          onDragEnd: () => setDragged(null),
        }
      : {};

  return (
    <>
      {canReorder && (
        <p className="collection-gifs__hint">Drag GIFs to reorder them, or use the arrow buttons.</p>
      )}
      <ol className="collection-gifs" aria-label="GIFs in this collection">
        {order.map((gif, index) => (
          <li
            key={gif.id}
            className={dragged === index ? 'collection-gif collection-gif--dragging' : 'collection-gif'}
            data-testid="collection-gif"
            {...dragProps(index)}
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
            {collection.canEdit && (
              <div className="collection-gif__actions">
                {canReorder && (
                  <>
                    <button
                      type="button"
                      className="btn btn--ghost btn--small"
                      aria-label={`Move ${gif.title} up`}
                      disabled={index === 0 || reorder.isPending}
                      onClick={() => move(index, index - 1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="btn btn--ghost btn--small"
                      aria-label={`Move ${gif.title} down`}
                      disabled={index === order.length - 1 || reorder.isPending}
                      onClick={() => move(index, index + 1)}
                    >
                      ↓
                    </button>
                  </>
                )}
                <button
                  type="button"
                  className="btn btn--ghost btn--small"
                  aria-label={`Remove ${gif.title} from the collection`}
                  disabled={removeGif.isPending}
                  onClick={() => onRemove(gif)}
                >
                  Remove
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
      <span className="visually-hidden" aria-live="polite">
        {announcement}
      </span>
      {list.hasNextPage && (
        <div className="gallery__more">
          <button
            type="button"
            className="btn btn--secondary btn--large"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
          >
            {list.isFetchingNextPage ? 'Loading...' : 'Load More'}
          </button>
        </div>
      )}
    </>
  );
}
