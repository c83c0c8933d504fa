import { describe, expect, it } from 'vitest';
import { galleryEmptyMessage, galleryFilter, galleryTitle, viewsLabel } from './gallery';
import { gifPermissions } from './permissions';

describe('gallery filter, title and empty message', () => {
  it('picks the filter from the route, trimming the search term', () => {
    expect(galleryFilter({})).toEqual({ kind: 'all' });
    expect(galleryFilter({ q: '   ' })).toEqual({ kind: 'all' });
    expect(galleryFilter({ q: '  cats ' })).toEqual({ kind: 'search', term: 'cats' });
    expect(galleryFilter({ tagName: 'fun' })).toEqual({ kind: 'tag', tag: 'fun' });
    expect(galleryFilter({ username: 'bob' })).toEqual({ kind: 'user', username: 'bob' });
  });

  it.each([
    [{ kind: 'search', term: 'cats' }, 'Search results for "cats"', 'No GIFs found. Try different search terms.'],
    [{ kind: 'tag', tag: 'fun' }, 'GIFs tagged with "fun"', 'Try a different tag.'],
    [{ kind: 'user', username: 'bob' }, 'GIFs by bob', 'No GIFs uploaded yet.'],
    [{ kind: 'all' }, 'All GIFs', 'No GIFs uploaded yet.'],
  ] as const)('%o → %s / %s', (filter, title, empty) => {
    expect(galleryTitle(filter)).toBe(title);
    expect(galleryEmptyMessage(filter)).toBe(empty);
  });

  it('labels views', () => expect(viewsLabel(7)).toBe('7 views'));
});

describe('detail permissions', () => {
  const gif = { uploadedBy: 'alice' };
  it('owner edits and deletes', () =>
    expect(gifPermissions(gif, 'alice', false)).toEqual({ canEdit: true, canDelete: true }));
  it('admin edits only', () =>
    expect(gifPermissions(gif, 'root', true)).toEqual({ canEdit: true, canDelete: false }));
  it('others do neither', () =>
    expect(gifPermissions(gif, 'bob', false)).toEqual({ canEdit: false, canDelete: false }));
  it('an owner who is admin does both', () =>
    expect(gifPermissions(gif, 'alice', true)).toEqual({ canEdit: true, canDelete: true }));
});
