import { useState } from 'react';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { collectionShareUrl } from '@/lib/collections/query-keys';
import { useShareCollection } from '../api/share-collection';

/**
 * The collection's public link: who may edit it turns the link on and off; anyone else sees the
 * link when there is one.
 */
export function CollectionSharing({ collection }: { collection: CollectionDto }) {
  const toast = useToast();
  const share = useShareCollection();

  const onShare = (enabled: boolean) =>
    share.mutate(
      { id: collection.id, enabled },
      {
        onSuccess: () => toast.success(enabled ? 'Public link created' : 'Public link turned off'),
        onError: (error) => toast.error(errorMessage(error, 'Failed to change sharing')),
      },
    );

  if (!collection.canEdit) {
    return (
      collection.shareId && (
        <section className="panel collection-share" aria-label="Sharing">
          <CopyLink url={collectionShareUrl(collection.shareId)} />
        </section>
      )
    );
  }
  return (
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
