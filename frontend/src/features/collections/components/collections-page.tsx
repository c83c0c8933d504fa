import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useCreateCollection } from '@/lib/collections/create-collection';
import { useCollections } from '@/lib/collections/get-collections';
import { gifCountLabel } from '../order';
import { CollectionForm } from './collection-form';
import './collections.css';

/** /collections — every team collection and your private ones, and "New collection". */
export function CollectionsPage() {
  const collections = useCollections();
  const create = useCreateCollection();
  const toast = useToast();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  return (
    <section className="collections" aria-labelledby="collections-title">
      <div className="collections__head">
        <h1 id="collections-title" className="page-title">
          Collections
        </h1>
        {!creating && (
          <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
            New collection
          </button>
        )}
      </div>

      {creating && (
        <CollectionForm
          initial={{ name: '', description: '', visibility: 'team' }}
          submitLabel="Create collection"
          busy={create.isPending}
          onCancel={() => setCreating(false)}
          onSubmit={(fields) =>
            create.mutate(fields, {
              onSuccess: (collection) => {
                toast.success(`Collection "${collection.name}" created`);
                setCreating(false);
                void navigate(paths.collection(collection.id));
              },
              onError: (error) => toast.error(errorMessage(error, 'Failed to create collection')),
            })
          }
        />
      )}

      {collections.isPending ? (
        <p className="state-line" role="status">
          Loading collections...
        </p>
      ) : collections.isError ? (
        <p className="form-message form-message--error" role="alert">
          Error: {errorMessage(collections.error, 'Failed to fetch collections')}
        </p>
      ) : collections.data.length === 0 ? (
        <p className="gallery__empty" role="status">
          No collections yet. Start one and gather the GIFs your team reaches for.
        </p>
      ) : (
        <div className="collection-grid">
          {collections.data.map((collection) => (
            <CollectionCard key={collection.id} collection={collection} />
          ))}
        </div>
      )}
    </section>
  );
}

function CollectionCard({ collection }: { collection: CollectionDto }) {
  return (
    <article className="collection-card" data-testid="collection-card">
      <div className="collection-card__cover" aria-hidden="true">
        {collection.cover.length === 0 ? (
          <span className="collection-card__empty">No GIFs yet</span>
        ) : (
          collection.cover.map((gifId) => (
            <img key={gifId} src={`/api/gifs/thumbnail/${gifId}`} alt="" loading="lazy" decoding="async" />
          ))
        )}
      </div>
      <div className="collection-card__body">
        <h2 className="collection-card__title">
          <Link to={paths.collection(collection.id)} className="collection-card__link stretched-link">
            {collection.name}
          </Link>
        </h2>
        <p className="collection-card__meta">
          <span>{gifCountLabel(collection.gifCount)}</span>
          <span aria-hidden="true">·</span>
          <span>{collection.owner}</span>
          {collection.visibility === 'private' && <span className="badge">Private</span>}
          {collection.shareId && <span className="badge badge--shared">Shared</span>}
        </p>
      </div>
    </article>
  );
}
