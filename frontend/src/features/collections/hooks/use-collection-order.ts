import { useEffect, useMemo, useState, type DragEvent } from 'react';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import type { GifDto } from '@/api/generated/GifDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { useCollectionGifs } from '../api/get-collection-gifs';
import { useReorderCollection } from '../api/reorder-collection';
import { moveItem } from '../order';

/**
 * A collection's GIFs in the order shown: loaded page by page, reordered at once on screen (by the
 * arrow buttons or drag and drop) and saved; a failed save puts the loaded order back.
 */
export function useCollectionOrder(collection: CollectionDto) {
  const list = useCollectionGifs(collection.id);
  const reorder = useReorderCollection();
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

  /** The drag and drop handlers of the item at `index`: none when the order cannot change. */
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

  return { list, order, dragged, announcement, canReorder, reordering: reorder.isPending, move, dragProps };
}
