import { describe, expect, it } from 'vitest';
import { DETAIL_COLUMNS, detailTableRows, detailTitle } from './detail-columns';

const gif = { id: 7, title: 'Dancing cat', sizeMB: 0.4213, views: 12, contentType: 'image/gif' };

describe('detail modal columns and cells', () => {
  it('has the column set of each kind', () => {
    expect(DETAIL_COLUMNS).toEqual({
      size: ['GIF ID', 'Title', 'Size (MB)'],
      tag: ['GIF ID', 'Title', 'Views'],
      activity: ['User ID', 'Username', 'GIF Count'],
      'content-type': ['GIF ID', 'Title', 'Content Type', 'Size (MB)'],
    });
  });

  it('titles the modal with the range, name or type', () => {
    expect(detailTitle({ kind: 'size', value: '0-100KB' })).toBe('Detailed Data: 0-100KB');
    expect(detailTitle({ kind: 'tag', value: 'funny' })).toBe('Detailed Data: funny');
    expect(detailTitle({ kind: 'content-type', value: 'image/gif' })).toBe('Detailed Data: image/gif');
  });

  it('maps GIF rows per kind, linking titles to the GIF', () => {
    expect(detailTableRows({ kind: 'size', rows: [gif] })).toEqual([
      { key: 7, cells: [{ text: '7' }, { text: 'Dancing cat', gifId: 7 }, { text: '0.42' }] },
    ]);
    expect(detailTableRows({ kind: 'tag', rows: [gif] })).toEqual([
      { key: 7, cells: [{ text: '7' }, { text: 'Dancing cat', gifId: 7 }, { text: '12' }] },
    ]);
    expect(detailTableRows({ kind: 'content-type', rows: [gif] })).toEqual([
      { key: 7, cells: [{ text: '7' }, { text: 'Dancing cat', gifId: 7 }, { text: 'image/gif' }, { text: '0.42' }] },
    ]);
  });

  it('maps user rows for an activity level', () => {
    expect(detailTableRows({ kind: 'activity', rows: [{ id: 3, username: 'bob', gifCount: 5 }] })).toEqual([
      { key: 3, cells: [{ text: '3' }, { text: 'bob' }, { text: '5' }] },
    ]);
  });

  it('has as many cells as columns', () => {
    for (const kind of ['size', 'tag', 'content-type'] as const) {
      const [row] = detailTableRows({ kind, rows: [gif] });
      expect(row?.cells).toHaveLength(DETAIL_COLUMNS[kind].length);
    }
  });
});
