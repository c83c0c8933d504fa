import { useState } from 'react';
import { Modal } from '@/components/modal/modal';
import { formatDimensions, formatKB } from '@/lib/format';

export type Rendition = {
  label: string;
  src: string;
  /** What its tile in the list shows, when not `src` itself (a smaller file of the same picture). */
  preview?: string;
  size: number;
  width: number;
};

/** A larger view of one rendition, with its size and a natural/fixed size toggle. */
export function RenditionModal({
  rendition,
  title,
  onClose,
}: {
  rendition: Rendition;
  title: string;
  onClose: () => void;
}) {
  const [natural, setNatural] = useState(false);
  return (
    <Modal title={`${rendition.label}: ${title}`} onClose={onClose}>
      <div className={natural ? 'image-frame image-frame--natural' : 'image-frame image-frame--modal'}>
        <img src={rendition.src} alt={`${rendition.label} of ${title}`} className="image-frame__img" />
      </div>
      <div className="modal-info">
        <p className="modal-info__line">
          <span>{formatKB(rendition.size)}</span>
          <span aria-hidden="true">·</span>
          <span>{formatDimensions(rendition.width)}</span>
        </p>
        <button type="button" className="btn btn--secondary btn--small" onClick={() => setNatural((n) => !n)}>
          {natural ? 'Show Fixed Size' : 'Show Natural Size'}
        </button>
      </div>
    </Modal>
  );
}
