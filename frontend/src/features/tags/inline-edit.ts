/**
 * The inline rename of the Tags page (spec §2, §5): Enter saves, Escape cancels, blur saves; a
 * rename applies only if the trimmed name is non-blank and differs from the current one,
 * otherwise the editor just closes.
 */

export type InlineEditTrigger = 'enter' | 'escape' | 'blur';

export type InlineEditOutcome = { kind: 'rename'; name: string } | { kind: 'close' };

/** The trigger a key press stands for, or null for keys that just edit the text. */
export function keyTrigger(key: string): InlineEditTrigger | null {
  if (key === 'Enter') return 'enter';
  if (key === 'Escape' || key === 'Esc') return 'escape';
  return null;
}

/** What ending the edit with `trigger` does: rename to the trimmed draft, or just close. */
export function resolveInlineEdit(
  trigger: InlineEditTrigger,
  current: string,
  draft: string,
): InlineEditOutcome {
  if (trigger === 'escape') return { kind: 'close' };
  const name = draft.trim();
  if (!name || name === current) return { kind: 'close' };
  return { kind: 'rename', name };
}
