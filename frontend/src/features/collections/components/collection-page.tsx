import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useUsername } from '@/lib/session';
import { useCollection } from '../api/get-collection';
import { useDeleteCollection } from '../api/delete-collection';
import { useUpdateCollection } from '../api/update-collection';
import { gifCountLabel } from '../order';
import { CollectionForm, type CollectionFields } from './collection-form';
import { CollectionGifs } from './collection-gifs';
import { CollectionSharing } from './collection-sharing';
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

  const onSave = (fields: CollectionFields) =>
    update.mutate(
      { id: collection.id, ...fields, sharing: null },
      {
        onSuccess: () => {
          toast.success('Collection saved');
          setEditing(false);
        },
        onError: (error) => toast.error(errorMessage(error, 'Failed to save collection')),
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
          onSubmit={onSave}
        />
      ) : (
        <CollectionHeader
          collection={collection}
          deleting={remove.isPending}
          onEdit={() => setEditing(true)}
          onDelete={onDelete}
        />
      )}

      <CollectionSharing collection={collection} />

      <CollectionGifs collection={collection} />

      <footer className="gif-detail__footer">
        <Link to={paths.collections} className="btn btn--secondary">
          Back to Collections
        </Link>
      </footer>
    </article>
  );
}

type CollectionHeaderProps = {
  collection: CollectionDto;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
};

/** Name, description and facts; who may edit the collection also gets Edit and Delete. */
function CollectionHeader({ collection, deleting, onEdit, onDelete }: CollectionHeaderProps) {
  return (
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
          <button type="button" className="btn btn--secondary" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="btn btn--danger" onClick={onDelete} disabled={deleting}>
            Delete collection
          </button>
        </div>
      )}
    </header>
  );
}
