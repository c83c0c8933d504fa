/** Collections: every list, card and page of GIFs lives under this root. */
export const collectionKeys = {
  all: ['collections'] as const,
  list: () => [...collectionKeys.all, 'list'] as const,
  detail: (id: number) => [...collectionKeys.all, 'detail', id] as const,
  gifs: (id: number) => [...collectionKeys.all, 'gifs', id] as const,
};

/** The public page of a shared collection, on this site's origin. */
export const collectionShareUrl = (shareId: string, origin: string = window.location.origin) =>
  `${origin}/c/${shareId}`;
