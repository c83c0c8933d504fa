import { Suspense, lazy, useState, type FormEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export type FieldProps = {
  term: string;
  setTerm: (term: string) => void;
  /** Searches for a term. */
  run: (term: string) => void;
  /** The field had focus before this one replaced it. */
  focusOnMount: boolean;
};

/** The search field without suggestions. */
function PlainField({ term, setTerm, run }: FieldProps) {
  return <SearchField term={term} onTermChange={setTerm} onClear={() => run('')} />;
}

/**
 * The suggestions are a chunk of their own, asked for as the box first renders: until it is there
 * (a moment after the gallery's first paint) the box is a plain search field, and what is typed
 * meanwhile stays. Should the chunk fail to load, the box stays plain.
 */
const SuggestingField = lazy(() =>
  import(/* webpackChunkName: "search-suggestions" */ './search-suggestions').then(
    (m) => ({ default: m.SuggestingField }),
    () => ({ default: PlainField }),
  ),
);

type SearchBoxProps = {
  /** The term the page shows results for (from `?q=`). */
  initial: string;
  onSearch: (term: string) => void;
};

/**
 * The gallery's search (spec §2): a clear button, a Search button, Enter submits. From the second
 * character typed it proposes suggestions (`SuggestingField`).
 */
export function SearchBox({ initial, onSearch }: SearchBoxProps) {
  const [term, setTerm] = useState(initial);
  // Whether the field has focus: the suggesting field takes it over when it replaces the plain one.
  const [focused, setFocused] = useState(false);

  const run = (text: string) => {
    setTerm(text);
    onSearch(text);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run(term);
  };

  return (
    <form
      className="search-box"
      role="search"
      onSubmit={submit}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
    >
      <Suspense fallback={<PlainField term={term} setTerm={setTerm} run={run} focusOnMount={false} />}>
        <SuggestingField term={term} setTerm={setTerm} run={run} focusOnMount={focused} />
      </Suspense>
      <button type="submit" className="btn btn--primary">
        Search
      </button>
    </form>
  );
}

type SearchFieldProps = {
  term: string;
  onTermChange: (term: string) => void;
  onClear: () => void;
  /** What the suggesting field adds to the input (the combobox's attributes and keys). */
  input?: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
  /** The suggestions' list and live region. */
  children?: ReactNode;
};

/** The search input with its icon and clear button, as the spec shows it. */
export function SearchField({ term, onTermChange, onClear, input, children }: SearchFieldProps) {
  return (
    <div className="search-box__field">
      <span className="search-box__icon" aria-hidden="true">
        ⌕
      </span>
      <input
        type="search"
        className="search-box__input"
        aria-label="Search GIFs"
        placeholder="Search GIFs by title, description, or tags..."
        {...input}
        value={term}
        onChange={(event) => onTermChange(event.target.value)}
      />
      {term && (
        <button type="button" className="search-box__clear" aria-label="Clear search" onClick={onClear}>
          ×
        </button>
      )}
      {children}
    </div>
  );
}
