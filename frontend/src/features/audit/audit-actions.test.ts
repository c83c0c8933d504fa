import { describe, expect, it } from 'vitest';
import { actionLabel } from './audit-actions';

describe('actionLabel', () => {
  it('says what happened in words, and shows an unknown name as it is', () => {
    expect(actionLabel('user.disabled')).toBe('Disabled a member');
    expect(actionLabel('integration.added')).toBe('Added an integration');
    expect(actionLabel('user.exploded')).toBe('user.exploded');
  });
});
