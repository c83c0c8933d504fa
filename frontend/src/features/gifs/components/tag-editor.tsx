import { useId, useState, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useEnsureTag } from '@/lib/tags/create-tag';
import { useTags } from '@/lib/tags/get-tags';
import { addTagTo, availableTags, normalizeTag, suggestTags } from '../tag-rules';

type TagEditorProps = {
  tags: string[];
  setTags: Dispatch<SetStateAction<string[]>>;
  /** Heading of the quick-add buttons ("Available tags" when editing, "Suggested tags" on upload). */
  quickAddLabel: string;
  disabled?: boolean;
};

/**
 * Tags with autocomplete (a combobox: arrows move, Enter picks, Escape closes), an Add button,
 * up to 10 quick-add buttons and the chosen tags as removable chips. Names are trimmed and
 * lower-cased, duplicates ignored; an unknown name is created on the server first.
 */
export function TagEditor({ tags, setTags, quickAddLabel, disabled = false }: TagEditorProps) {
  const id = useId();
  const listId = `${id}-suggestions`;
  const known = useTags();
  const ensureTag = useEnsureTag();
  const [input, setInput] = useState('');
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const knownNames = (known.data ?? []).map((tag) => tag.name);
  const suggestions = suggestTags(input, knownNames, tags);
  const open = !dismissed && suggestions.length > 0;
  const quickAdd = availableTags(knownNames, tags);

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

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setDismissed(false);
        if (suggestions.length > 0) setActive((i) => (i + 1) % suggestions.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (suggestions.length > 0)
          setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
        break;
      case 'Enter': {
        event.preventDefault();
        const picked = open && active >= 0 ? suggestions[active] : undefined;
        void add(picked ?? input);
        break;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          setDismissed(true);
          setActive(-1);
        }
        break;
      default:
        break;
    }
  };

  return (
    <div className="tag-editor">
      <label className="field__label" htmlFor={`${id}-input`}>
        Tags
      </label>
      <div className="tag-editor__row">
        <div className="tag-editor__combo">
          <input
            id={`${id}-input`}
            className="field__input"
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            aria-invalid={error ? true : undefined}
            autoComplete="off"
            placeholder="Type a tag and press Enter"
            value={input}
            disabled={disabled}
            onChange={(event) => {
              setInput(event.target.value);
              setActive(-1);
              setDismissed(false);
              setError(null);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setDismissed(true)}
            onFocus={() => setDismissed(false)}
          />
          <ul
            id={listId}
            role="listbox"
            aria-label="Tag suggestions"
            className="tag-editor__suggestions"
            hidden={!open}
          >
            {open &&
              suggestions.map((name, index) => (
                <li
                  key={name}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  className={
                    index === active
                      ? 'tag-editor__option tag-editor__option--active'
                      : 'tag-editor__option'
                  }
                  // mousedown, not click: the input's blur would close the list first.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    void add(name);
                  }}
                  onMouseEnter={() => setActive(index)}
                >
                  {name}
                </li>
              ))}
          </ul>
        </div>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => void add(input)}
          disabled={disabled || ensureTag.isPending || !input.trim()}
        >
          Add
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}

      {tags.length > 0 && (
        <ul className="tag-list tag-editor__selected" aria-label="Selected tags">
          {tags.map((tag) => (
            <li key={tag}>
              <button
                type="button"
                className="tag-chip"
                aria-label={`Remove tag ${tag}`}
                disabled={disabled}
                onClick={() => setTags((current) => current.filter((t) => t !== tag))}
              >
                {tag}
                <span className="tag-chip__x" aria-hidden="true">
                  ×
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}

      {quickAdd.length > 0 && (
        <div className="tag-editor__quick">
          <p className="tag-editor__quick-label" id={`${id}-quick`}>
            {quickAddLabel}
          </p>
          <ul className="tag-list" aria-labelledby={`${id}-quick`}>
            {quickAdd.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  className="tag-pill tag-pill--button"
                  aria-label={`Add tag ${name}`}
                  disabled={disabled}
                  onClick={() => setTags((current) => addTagTo(current, name))}
                >
                  <span aria-hidden="true">+</span>
                  {name}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {known.isError && (
        <p className="field__help">{errorMessage(known.error, 'Failed to fetch tags')}</p>
      )}
    </div>
  );
}
