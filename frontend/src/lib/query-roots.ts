/**
 * The top-level react-query keys that more than one feature touches. A feature owns the keys
 * under its root (e.g. `features/gifs/api/query-keys.ts`); others only invalidate by the root.
 */

/** Every GIF list and detail lives under this root (tag changes refresh them). */
export const GIFS_QUERY_ROOT = ['gifs'] as const;
