import { useEffect, useRef, useState } from 'react';
import { keyTrigger, resolveInlineEdit, type InlineEditTrigger } from '../inline-edit';

type TagNameEditorProps = {
  name: string;
  /** Called with the new trimmed name when the rename applies (non-blank and changed). */
  onRename: (name: string) => void;
  /** Called once the editor is done, whatever the outcome and trigger. */
  onClose: (trigger: InlineEditTrigger) => void;
};

/** The inline rename input: Enter saves, Escape cancels, blur saves (see `inline-edit.ts`). */
export function TagNameEditor({ name, onRename, onClose }: TagNameEditorProps) {
  const [draft, setDraft] = useState(name);
  const inputRef = useRef<HTMLInputElement>(null);
  // Enter or Escape close the editor, and the input's removal can still fire a blur: end once.
  const ended = useRef(false);

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);

  const end = (trigger: InlineEditTrigger) => {
    if (ended.current) return;
    ended.current = true;
    const outcome = resolveInlineEdit(trigger, name, draft);
    if (outcome.kind === 'rename') onRename(outcome.name);
    onClose(trigger);
  };

  return (
    <input
      ref={inputRef}
      className="field__input tag-row__input"
      aria-label={`New name for ${name}`}
      autoComplete="off"
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onKeyDown={(event) => {
        const trigger = keyTrigger(event.key);
        if (!trigger) return;
        event.preventDefault();
        end(trigger);
      }}
      onBlur={() => end('blur')}
    />
  );
}
