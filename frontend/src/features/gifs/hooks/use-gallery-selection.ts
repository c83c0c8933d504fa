import { useState } from 'react';
import { toggleSelection } from '../selection';
import type { CardSelection } from '../components/gif-card';

/**
 * The gallery's "Select" mode over the cards on screen (`onScreen`, their ids in order): which are
 * picked, and the card click that toggles one (shift-click: the range from the last one clicked).
 */
export function useGallerySelection(onScreen: number[]) {
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [anchor, setAnchor] = useState<number | null>(null);

  return {
    selecting,
    start: () => setSelecting(true),
    stop: () => {
      setSelecting(false);
      setSelected(new Set());
      setAnchor(null);
    },
    /** The picked cards still on screen, in screen order. */
    ids: onScreen.filter((id) => selected.has(id)),
    selectAll: () => setSelected(new Set(onScreen)),
    clear: () => setSelected(new Set()),
    /** What the card of GIF `id`, at `index` on screen, shows and does in "Select" mode. */
    card: (id: number, index: number): CardSelection => ({
      selected: selected.has(id),
      onToggle: (event) => {
        setSelected(toggleSelection(selected, onScreen, index, anchor, event.shiftKey));
        setAnchor(index);
      },
    }),
  };
}

export type GallerySelection = ReturnType<typeof useGallerySelection>;
