import { useState, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useEnsureTag } from '@/lib/tags/create-tag';
import { addTagTo, normalizeTag, suggestTags } from '../tag-rules';

type ComboKeys = {
  suggestions: string[];
  open: boolean;
  active: number;
  input: string;
  setActive: Dispatch<SetStateAction<number>>;
  setDismissed: (dismissed: boolean) => void;
  add: (name: string) => Promise<void>;
};

/** The combobox's keys: arrows move (wrapping), Enter picks the active option or the typed name, Escape closes. */
function onComboKey(event: KeyboardEvent<HTMLInputElement>, combo: ComboKeys) {
  const { suggestions, open, active, setActive } = combo;
  switch (event.key) {
    case 'ArrowDown':
      event.preventDefault();
      combo.setDismissed(false);
      if (suggestions.length > 0) setActive((i) => (i + 1) % suggestions.length);
      break;
    case 'ArrowUp':
      event.preventDefault();
      if (suggestions.length > 0) setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
      break;
    case 'Enter': {
      event.preventDefault();
      const picked = open && active >= 0 ? suggestions[active] : undefined;
      void combo.add(picked ?? combo.input);
      break;
    }
    case 'Escape':
      if (open) {
        event.preventDefault();
        event.stopPropagation();
        combo.setDismissed(true);
        setActive(-1);
      }
      break;
    default:
      break;
  }
}

/**
 * The tag input of `TagEditor`: the typed text, its suggestions (open unless dismissed), the
 * active option, and `add` (normalises, skips duplicates, creates an unknown tag on the server first).
 */
export function useTagCombobox(
  knownNames: string[],
  tags: string[],
  setTags: Dispatch<SetStateAction<string[]>>,
) {
  const ensureTag = useEnsureTag();
  const [input, setInput] = useState('');
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const suggestions = suggestTags(input, knownNames, tags);
  const open = !dismissed && suggestions.length > 0;

  const add = async (name: string) => {
    const tag = normalizeTag(name);
    setInput('');
    setActive(-1);
    setError(null);
    if (!tag || tags.includes(tag)) return;
    if (!knownNames.includes(tag)) {
      try {
        await ensureTag.mutateAsync(tag);
      } catch (problem) {
        setError(errorMessage(problem, 'Failed to create tag'));
        setInput(name);
        return;
      }
    }
    setTags((current) => addTagTo(current, tag));
  };

  const onChange = (value: string) => {
    setInput(value);
    setActive(-1);
    setDismissed(false);
    setError(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) =>
    onComboKey(event, { suggestions, open, active, input, setActive, setDismissed, add });

  return {
    input,
    suggestions,
    open,
    active,
    setActive,
    error,
    creating: ensureTag.isPending,
    add,
    onChange,
    onKeyDown,
    onBlur: () => setDismissed(true),
    onFocus: () => setDismissed(false),
  };
}
