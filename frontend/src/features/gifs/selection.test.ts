import { describe, expect, it } from 'vitest';
import { bulkSummary, parseTagInput, toggleSelection } from './selection';

const ids = [10, 11, 12, 13, 14];

describe('toggleSelection', () => {
  it('toggles one card on a plain click', () => {
    const once = toggleSelection(new Set(), ids, 1, null, false);
    expect([...once]).toEqual([11]);
    expect([...toggleSelection(once, ids, 1, 1, false)]).toEqual([]);
  });

  it('selects the range from the anchor on a shift-click, either way', () => {
    expect([...toggleSelection(new Set([11]), ids, 3, 1, true)].sort()).toEqual([11, 12, 13]);
    expect([...toggleSelection(new Set(), ids, 0, 2, true)].sort()).toEqual([10, 11, 12]);
  });

  it('treats a shift-click without an anchor as a plain click', () => {
    expect([...toggleSelection(new Set(), ids, 4, null, true)]).toEqual([14]);
  });
});

describe('bulkSummary', () => {
  it('reports what was done and what was not', () => {
    expect(bulkSummary('Tagged', [{ id: 1, status: 'ok' }, { id: 2, status: 'ok' }])).toEqual({
      ok: true,
      message: 'Tagged 2 GIFs',
    });
    expect(
      bulkSummary('Deleted', [
        { id: 1, status: 'ok' },
        { id: 2, status: 'forbidden' },
        { id: 3, status: 'not_found' },
      ]),
    ).toEqual({ ok: false, message: 'Deleted 1 GIF; 1 GIF not yours to change; 1 GIF no longer exists' });
  });
});

describe('parseTagInput', () => {
  it('splits on commas and drops blanks', () => {
    expect(parseTagInput(' cats, Funny dogs ,, ')).toEqual(['cats', 'Funny dogs']);
  });
});
