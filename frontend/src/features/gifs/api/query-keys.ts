import { GIFS_QUERY_ROOT } from '@/lib/query-roots';

/** Which GIFs a gallery shows (spec §2): all, a search, one tag, one uploader, or your favourites. */
export type GifFilter =
  | { kind: 'all' }
  | { kind: 'search'; term: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'user'; username: string }
  | { kind: 'favourites' };

/** The orders of every list (`?sort=`); `newest` is the server's default. */
export const GIF_SORTS = ['newest', 'oldest', 'views', 'favourites', 'title'] as const;
export type GifSort = (typeof GIF_SORTS)[number];

export const gifKeys = {
  all: GIFS_QUERY_ROOT,
  lists: () => [...gifKeys.all, 'list'] as const,
  list: (filter: GifFilter, sort: GifSort = 'newest') => [...gifKeys.lists(), filter, sort] as const,
  details: () => [...gifKeys.all, 'detail'] as const,
  detail: (id: number) => [...gifKeys.details(), id] as const,
  suggestions: (q: string) => [...gifKeys.all, 'suggestions', q] as const,
};

/** Screens ask for 12 GIFs a page (spec §9). */
export const GIF_PAGE_SIZE = 12;

export type PageRequest = { page: number; size?: number; sort?: GifSort };

export const pageQuery = ({ page, size = GIF_PAGE_SIZE, sort }: PageRequest) =>
  `page=${encodeURIComponent(String(page))}&size=${encodeURIComponent(String(size))}` +
  (sort && sort !== 'newest' ? `&sort=${encodeURIComponent(sort)}` : '');

/** Public media URLs, used directly in <img src>. */
export const gifMedia = {
  content: (id: number) => `/api/gifs/content/${id}`,
  thumbnail: (id: number) => `/api/gifs/thumbnail/${id}`,
  staticThumbnail: (id: number) => `/api/gifs/static-thumbnail/${id}`,
};

/** The public share page of a GIF, on this site's origin. */
export const shareUrl = (shareId: string, origin: string = window.location.origin) =>
  `${origin}/s/${shareId}`;
