import { GIFS_QUERY_ROOT } from '@/lib/query-roots';

/** Which GIFs a gallery shows (spec §2): all, a search, one tag, or one uploader. */
export type GifFilter =
  | { kind: 'all' }
  | { kind: 'search'; term: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'user'; username: string };

export const gifKeys = {
  all: GIFS_QUERY_ROOT,
  lists: () => [...gifKeys.all, 'list'] as const,
  list: (filter: GifFilter) => [...gifKeys.lists(), filter] as const,
  details: () => [...gifKeys.all, 'detail'] as const,
  detail: (id: number) => [...gifKeys.details(), id] as const,
};

/** Screens ask for 12 GIFs a page (spec §9). */
export const GIF_PAGE_SIZE = 12;

export type PageRequest = { page: number; size?: number };

export const pageQuery = ({ page, size = GIF_PAGE_SIZE }: PageRequest) =>
  `page=${encodeURIComponent(String(page))}&size=${encodeURIComponent(String(size))}`;

/** Public media URLs, used directly in <img src>. */
export const gifMedia = {
  content: (id: number) => `/api/gifs/content/${id}`,
  thumbnail: (id: number) => `/api/gifs/thumbnail/${id}`,
  staticThumbnail: (id: number) => `/api/gifs/static-thumbnail/${id}`,
};

/** The public share page of a GIF, on this site's origin. */
export const shareUrl = (shareId: string, origin: string = window.location.origin) =>
  `${origin}/s/${shareId}`;
