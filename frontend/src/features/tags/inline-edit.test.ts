import { describe, expect, it } from 'vitest';
import { keyTrigger, resolveInlineEdit } from './inline-edit';

describe('inline edit', () => {
  it('maps Enter to save and Escape to cancel; other keys just edit', () => {
    expect(keyTrigger('Enter')).toBe('enter');
    expect(keyTrigger('Escape')).toBe('escape');
    expect(keyTrigger('a')).toBeNull();
    expect(keyTrigger('Tab')).toBeNull();
  });

  it('Enter and blur save a trimmed, changed, non-blank name', () => {
    expect(resolveInlineEdit('enter', 'cats', '  kittens ')).toEqual({ kind: 'rename', name: 'kittens' });
    expect(resolveInlineEdit('blur', 'cats', 'kittens')).toEqual({ kind: 'rename', name: 'kittens' });
  });

  it('Escape cancels even with a changed name', () => {
    expect(resolveInlineEdit('escape', 'cats', 'kittens')).toEqual({ kind: 'close' });
  });

  it('an unchanged or blank name just closes', () => {
    for (const trigger of ['enter', 'blur'] as const) {
      expect(resolveInlineEdit(trigger, 'cats', 'cats')).toEqual({ kind: 'close' });
      expect(resolveInlineEdit(trigger, 'cats', '  cats  ')).toEqual({ kind: 'close' });
      expect(resolveInlineEdit(trigger, 'cats', '   ')).toEqual({ kind: 'close' });
      expect(resolveInlineEdit(trigger, 'cats', '')).toEqual({ kind: 'close' });
    }
  });
});
