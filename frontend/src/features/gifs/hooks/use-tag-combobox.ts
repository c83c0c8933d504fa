import { useState, type Dispatch, type SetStateAction } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useEnsureTag } from '@/lib/tags/create-tag';
import { addTagTo, normalizeTag, suggestTags } from '../tag-rules';
import { useCombobox } from './use-combobox';

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
  const [error, setError] = useState<string | null>(null);

  const suggestions = suggestTags(input, knownNames, tags);
  // Enter adds the highlighted suggestion, else the typed name.
  const combo = useCombobox(suggestions, (picked) => void add(picked ?? input));

  const add = async (name: string) => {
    const tag = normalizeTag(name);
    setInput('');
    combo.reset();
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
    combo.reset();
    setError(null);
  };

  return {
    input,
    suggestions,
    open: combo.open,
    active: combo.active,
    setActive: combo.setActive,
    error,
    creating: ensureTag.isPending,
    add,
    onChange,
    onKeyDown: combo.onKeyDown,
    onBlur: combo.onBlur,
    onFocus: combo.onFocus,
  };
}
