import { useId, useLayoutEffect, useRef } from 'react';
import type { SuggestionDto } from '@/api/generated/SuggestionDto';
import { optionId } from '../hooks/use-combobox';
import { useSearchCombobox } from '../hooks/use-search-combobox';
import { SearchField, type FieldProps } from './search-box';

/** How a search suggestion says where it comes from, discreetly beside its text. */
export const SUGGESTION_KIND_LABELS: Record<SuggestionDto['kind'], string> = {
  tag: 'tag',
  title: 'title',
  caption: 'caption',
  search: 'popular search',
};

/** What screen readers hear when the suggestions open. */
export const suggestionsCountLabel = (n: number) => (n === 1 ? '1 suggestion' : `${n} suggestions`);

/**
 * The search field as an ARIA combobox: from the second character typed it proposes suggestions
 * (arrows move, Enter picks the highlighted one or searches the typed term, Escape closes, a click
 * picks), and a live region says how many there are.
 */
export function SuggestingField({ term, setTerm, run, focusOnMount }: FieldProps) {
  const listId = `${useId()}-suggestions`;
  const { suggestions, combo, onTermChange, search } = useSearchCombobox(term, setTerm, run);
  const inputRef = useRef<HTMLInputElement>(null);
  // Focus is taken over once, the moment it replaces the plain field (never again: a later focus
  // must leave the caret where the user put it). A layout effect, so focus moves in the very commit
  // that swaps the fields: no frame (and no keystroke) finds the box without it.
  const takeFocus = useRef(focusOnMount);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!takeFocus.current || !input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, []);

  return (
    <SearchField
      term={term}
      onTermChange={onTermChange}
      onClear={() => search('')}
      input={{
        ref: inputRef,
        role: 'combobox',
        'aria-autocomplete': 'list',
        'aria-expanded': combo.open,
        'aria-controls': listId,
        'aria-activedescendant': combo.active >= 0 ? optionId(listId, combo.active) : undefined,
        autoComplete: 'off',
        onKeyDown: combo.onKeyDown,
        onBlur: combo.onBlur,
        onFocus: combo.onFocus,
      }}
    >
      {combo.open && (
        <SuggestionList
          listId={listId}
          suggestions={suggestions}
          active={combo.active}
          onHover={combo.setActive}
          onPick={(suggestion) => search(suggestion.text)}
        />
      )}
      <span className="visually-hidden" role="status">
        {combo.open ? suggestionsCountLabel(suggestions.length) : ''}
      </span>
    </SearchField>
  );
}

type SuggestionListProps = {
  listId: string;
  suggestions: SuggestionDto[];
  active: number;
  onHover: (index: number) => void;
  onPick: (suggestion: SuggestionDto) => void;
};

/** The open listbox: each suggestion its text and, quietly, where it comes from. */
function SuggestionList({ listId, suggestions, active, onHover, onPick }: SuggestionListProps) {
  return (
    <ul id={listId} role="listbox" aria-label="Search suggestions" className="search-box__suggestions">
      {suggestions.map((suggestion, index) => (
        <li
          key={`${index}-${suggestion.kind}-${suggestion.text}`}
          id={optionId(listId, index)}
          role="option"
          aria-selected={index === active}
          // Named in full: built from its two spans, a browser's name would depend on their layout.
          aria-label={`${suggestion.text}, ${SUGGESTION_KIND_LABELS[suggestion.kind]}`}
          className={index === active ? 'search-box__option search-box__option--active' : 'search-box__option'}
          // mousedown, not click: the input's blur would close the list first.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(suggestion);
          }}
          onMouseEnter={() => onHover(index)}
        >
          <span className="search-box__option-text">{suggestion.text}</span>
          <span className="search-box__option-kind">{SUGGESTION_KIND_LABELS[suggestion.kind]}</span>
        </li>
      ))}
    </ul>
  );
}
