import type { GifFilter } from './api/query-keys';

/** The gallery's filter from the route: a tag, a user, a search term (trimmed) or nothing. */
export function galleryFilter(params: {
  tagName?: string | undefined;
  username?: string | undefined;
  q?: string | null | undefined;
}): GifFilter {
  if (params.tagName !== undefined) return { kind: 'tag', tag: params.tagName };
  if (params.username !== undefined) return { kind: 'user', username: params.username };
  const term = params.q?.trim() ?? '';
  return term ? { kind: 'search', term } : { kind: 'all' };
}

export function galleryTitle(filter: GifFilter): string {
  switch (filter.kind) {
    case 'search':
      return `Search results for "${filter.term}"`;
    case 'tag':
      return `GIFs tagged with "${filter.tag}"`;
    case 'user':
      return `GIFs by ${filter.username}`;
    case 'all':
      return 'All GIFs';
  }
}

export function galleryEmptyMessage(filter: GifFilter): string {
  switch (filter.kind) {
    case 'search':
      return 'No GIFs found. Try different search terms.';
    case 'tag':
      return 'Try a different tag.';
    case 'user':
    case 'all':
      return 'No GIFs uploaded yet.';
  }
}

export const viewsLabel = (n: number) => `${n} views`;
