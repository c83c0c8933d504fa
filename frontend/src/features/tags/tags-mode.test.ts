import { describe, expect, it } from 'vitest';
import { tagsMode } from './tags-mode';

describe('tagsMode', () => {
  it('lets only admins manage, and lets them browse too', () => {
    expect(tagsMode(false, null)).toBe('browse');
    expect(tagsMode(false, 'manage')).toBe('browse');
    expect(tagsMode(true, null)).toBe('manage');
    expect(tagsMode(true, 'manage')).toBe('manage');
    expect(tagsMode(true, 'browse')).toBe('browse');
    expect(tagsMode(true, 'nonsense')).toBe('manage');
  });
});
