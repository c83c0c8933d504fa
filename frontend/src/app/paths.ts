/** Every route of the app (spec §2). Links and redirects use these, never literal strings. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  /** An invitation link (the register screen with the invitation). */
  join: (token: string) => `/join/${encodeURIComponent(token)}`,
  /** The route pattern of `join`. */
  joinPattern: '/join/:token',
  /** The route pattern of a password reset link an administrator made. */
  resetPattern: '/reset/:token',
  gifs: '/gifs',
  gif: (id: number | string) => `/gifs/${encodeURIComponent(String(id))}`,
  tags: '/tags',
  tagCloud: '/tags/cloud',
  tag: (name: string) => `/tags/${encodeURIComponent(name)}`,
  user: (username: string) => `/user/${encodeURIComponent(username)}`,
  collections: '/collections',
  collection: (id: number | string) => `/collections/${encodeURIComponent(String(id))}`,
  favourites: '/favourites',
  upload: '/upload',
  /** The GIF maker; `makeFrom(id)`: "Edit a copy" of a GIF. */
  make: '/make',
  makeFrom: (gifId: number | string) => `/make?gif=${encodeURIComponent(String(gifId))}`,
  settings: '/settings',
  statistics: '/statistics',
  duplicates: '/admin/duplicates',
  members: '/admin/members',
  audit: '/admin/audit',
  moderation: '/admin/moderation',
} as const;
