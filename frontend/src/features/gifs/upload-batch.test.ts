import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { duplicateOf, itemsFor, nextToStart, settle, titleFromFileName, type BatchItem } from './upload-batch';

const file = (name: string, type = 'image/gif') => new File(['x'], name, { type });

describe('upload batch', () => {
  it('titles files from their names', () => {
    expect(titleFromFileName('funny_cat-2.gif')).toBe('funny cat 2');
    expect(titleFromFileName('Dancing Dog.webp')).toBe('Dancing Dog');
    expect(titleFromFileName('.gif')).toBe('.gif');
    expect(titleFromFileName(`${'a'.repeat(150)}.gif`)).toHaveLength(100);
  });

  it('refuses wrong types at once and readies the rest', () => {
    const [cat, notes] = itemsFor([file('cat.gif'), file('notes.txt', 'text/plain')], 10 * 1024 * 1024);
    expect(cat).toMatchObject({ status: 'ready', title: 'cat', message: null });
    expect(notes).toMatchObject({ status: 'refused' });
    expect(notes?.message).toContain('Please select a valid image file');
  });

  it('runs two at a time in order', () => {
    const items = itemsFor([file('a.gif'), file('b.gif'), file('c.gif')], 100).map(
      (item): BatchItem => ({ ...item, status: 'queued' }),
    );
    expect(nextToStart(items).map((i) => i.title)).toEqual(['a', 'b']);
    const oneRunning = items.map((item, i): BatchItem => (i === 0 ? { ...item, status: 'uploading' } : item));
    expect(nextToStart(oneRunning).map((i) => i.title)).toEqual(['b']);
  });

  it('reads duplicates, refusals and failures from the answer', () => {
    const [item] = itemsFor([file('a.gif')], 100) as [BatchItem];
    const duplicate = new ApiError('Already there', 409, null, { error: 'Already there', code: 'duplicate', existingId: 7 });
    expect(duplicateOf(duplicate)).toBe(7);
    expect(settle(item, duplicate)).toMatchObject({ status: 'duplicate', gifId: 7 });
    const refused = new ApiError('Only GIF, PNG, JPEG and WebP images are accepted.', 400, 'unsupported_type');
    expect(settle(item, refused)).toMatchObject({
      status: 'refused',
      message: 'Only GIF, PNG, JPEG and WebP images are accepted.',
    });
    expect(settle(item, new ApiError('Server error - please try again later', 500))).toMatchObject({ status: 'failed' });
    expect(duplicateOf(new ApiError('Conflict', 409, 'conflict', { code: 'conflict' }))).toBeNull();
  });
});
