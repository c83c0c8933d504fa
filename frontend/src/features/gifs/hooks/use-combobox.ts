import { useState, type KeyboardEvent } from 'react';

/**
 * The keyboard and open state of an ARIA combobox over `options` (the tag input, the search box):
 * ArrowDown and ArrowUp move the highlight (wrapping; ArrowDown also reopens a closed list), Enter
 * calls `onEnter` with the highlighted option (none when nothing is highlighted or the list is
 * closed), Escape closes the list. Typing (`reset`) reopens it and clears the highlight.
 */
export function useCombobox<T>(options: readonly T[], onEnter: (picked: T | undefined) => void) {
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState(false);

  const open = !dismissed && options.length > 0;
  // Options can change under the highlight (an answer arrives): one past the end highlights nothing.
  const highlighted = open && active >= 0 && active < options.length ? active : -1;

  const close = () => {
    setDismissed(true);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Keys that finish an input method's composition (Enter picking a candidate) are not ours.
    if (event.nativeEvent.isComposing) return;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setDismissed(false);
        if (options.length > 0) setActive((i) => (i + 1) % options.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (options.length > 0) setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
        break;
      case 'Enter':
        event.preventDefault();
        onEnter(highlighted >= 0 ? options[highlighted] : undefined);
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          close();
        }
        break;
      default:
        break;
    }
  };

  return {
    open,
    /** The highlighted option's index, -1 for none. */
    active: highlighted,
    setActive,
    onKeyDown,
    /** The text changed: the list opens again with nothing highlighted. */
    reset: () => {
      setActive(-1);
      setDismissed(false);
    },
    close,
    onBlur: close,
    onFocus: () => setDismissed(false),
  };
}

/** The id of option `index` of the listbox `listId` (for `aria-activedescendant`). */
export const optionId = (listId: string, index: number) => `${listId}-${index}`;
