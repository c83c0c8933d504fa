import { GIF_SORTS, type GifFilter, type GifSort } from './api/query-keys';

/** The gallery's filter from the route: favourites, a tag, a user, a search term (trimmed) or nothing. */
export function galleryFilter(params: {
  favourites?: boolean;
  tagName?: string | undefined;
  username?: string | undefined;
  q?: string | null | undefined;
}): GifFilter {
  if (params.favourites) return { kind: 'favourites' };
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
    case 'favourites':
      return 'Favourites';
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
    case 'favourites':
      return 'No favourites yet.';
  }
}

/** The sort select's options, in the order shown. */
export const SORT_LABELS: Record<GifSort, string> = {
  newest: 'Newest',
  oldest: 'Oldest',
  views: 'Most viewed',
  favourites: 'Most favourited',
  title: 'Title A–Z',
};

/** `?sort=` as a sort; anything unknown (or nothing) is the default, newest. */
export function parseSort(raw: string | null | undefined): GifSort {
  return GIF_SORTS.find((sort) => sort === raw) ?? 'newest';
}

/** The search params with `sort` set; the default order leaves the URL clean. */
export function withSort(params: URLSearchParams, sort: GifSort): URLSearchParams {
  const next = new URLSearchParams(params);
  if (sort === 'newest') next.delete('sort');
  else next.set('sort', sort);
  return next;
}

export const favouriteLabel = (on: boolean) => (on ? 'Remove from favourites' : 'Add to favourites');

export const favouritesLabel = (n: number) => `${n} ${n === 1 ? 'favourite' : 'favourites'}`;

/** What "Random" picks from on the current page: its tag, its uploader, its search, or everything. */
export type RandomScope = { tag?: string; user?: string; q?: string };

export function randomScope(pathname: string, search: string): RandomScope {
  const segment = (prefix: string) => {
    if (!pathname.startsWith(prefix)) return undefined;
    const rest = pathname.slice(prefix.length);
    if (!rest || rest.includes('/')) return undefined;
    try {
      return decodeURIComponent(rest);
    } catch {
      return undefined;
    }
  };
  const tag = segment('/tags/');
  if (tag !== undefined && tag !== 'cloud') return { tag };
  const user = segment('/user/');
  if (user !== undefined) return { user };
  if (pathname === '/gifs') {
    const q = new URLSearchParams(search).get('q')?.trim();
    if (q) return { q };
  }
  return {};
}

export const viewsLabel = (n: number) => `${n} views`;

/** How often chat apps posted the GIF (Tenor's registershare, slash commands). */
export const sharesLabel = (n: number) => (n === 1 ? '1 share' : `${n} shares`);
