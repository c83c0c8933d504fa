import { useState } from 'react';
import type { SuggestionDto } from '@/api/generated/SuggestionDto';
import { useSearchSuggestions } from '../api/get-search-suggestions';
import { useCombobox } from './use-combobox';

/**
 * The search box's combobox over the term it is given: the suggestions for what was typed here (none
 * for the term the page opened with, until it is edited) and `search`, which closes the list and runs
 * the search. Enter searches for the highlighted suggestion, else for the term.
 */
export function useSearchCombobox(term: string, setTerm: (term: string) => void, run: (term: string) => void) {
  // What suggestions are asked for: only text typed here, not the term read from the URL.
  const [typed, setTyped] = useState('');
  const suggestions = useSearchSuggestions(typed);

  const search = (text: string) => {
    setTyped('');
    combo.close();
    run(text);
  };
  const combo = useCombobox<SuggestionDto>(suggestions, (picked) => search(picked ? picked.text : term));

  const onTermChange = (value: string) => {
    setTerm(value);
    setTyped(value);
    combo.reset();
  };

  return { suggestions, combo, onTermChange, search };
}
