import { useId, type Dispatch, type SetStateAction } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useTags } from '@/lib/tags/get-tags';
import { useTagCombobox } from '../hooks/use-tag-combobox';
import { addTagTo, availableTags } from '../tag-rules';

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
  const knownNames = (known.data ?? []).map((tag) => tag.name);
  const combo = useTagCombobox(knownNames, tags, setTags);
  const { input, open, active, error } = combo;

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
            onChange={(event) => combo.onChange(event.target.value)}
            onKeyDown={combo.onKeyDown}
            onBlur={combo.onBlur}
            onFocus={combo.onFocus}
          />
          <TagSuggestions listId={listId} combo={combo} />
        </div>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => void combo.add(input)}
          disabled={disabled || combo.creating || !input.trim()}
        >
          Add
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}

      <SelectedTags tags={tags} setTags={setTags} disabled={disabled} />
      <QuickAddTags
        id={`${id}-quick`}
        label={quickAddLabel}
        names={availableTags(knownNames, tags)}
        setTags={setTags}
        disabled={disabled}
      />
      {known.isError && <p className="field__help">{errorMessage(known.error, 'Failed to fetch tags')}</p>}
    </div>
  );
}

type Combo = ReturnType<typeof useTagCombobox>;

/** The combobox's listbox: hidden when closed; an option is picked on mousedown. */
function TagSuggestions({ listId, combo }: { listId: string; combo: Combo }) {
  const { open, suggestions, active } = combo;
  return (
    <ul id={listId} role="listbox" aria-label="Tag suggestions" className="tag-editor__suggestions" hidden={!open}>
      {open &&
        suggestions.map((name, index) => (
          <li
            key={name}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'tag-editor__option tag-editor__option--active' : 'tag-editor__option'}
            // mousedown, not click: the input's blur would close the list first.
            onMouseDown={(event) => {
              event.preventDefault();
              void combo.add(name);
            }}
            onMouseEnter={() => combo.setActive(index)}
          >
            {name}
          </li>
        ))}
    </ul>
  );
}

type TagListProps = {
  setTags: Dispatch<SetStateAction<string[]>>;
  disabled: boolean;
};

/** The chosen tags as chips; a click removes one. */
function SelectedTags({ tags, setTags, disabled }: TagListProps & { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
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
  );
}

type QuickAddProps = TagListProps & {
  /** The heading's element id. */
  id: string;
  label: string;
  names: string[];
};

/** Known tags not chosen yet, one button each, under a heading. */
function QuickAddTags({ id, label, names, setTags, disabled }: QuickAddProps) {
  if (names.length === 0) return null;
  return (
    <div className="tag-editor__quick">
      <p className="tag-editor__quick-label" id={id}>
        {label}
      </p>
      <ul className="tag-list" aria-labelledby={id}>
        {names.map((name) => (
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
  );
}
