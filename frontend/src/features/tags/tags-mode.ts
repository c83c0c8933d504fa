/** The two faces of /tags: everyone browses; admins can switch to managing (`?mode=`). */
export type TagsMode = 'browse' | 'manage';

export const TAGS_MODE_LABELS: Record<TagsMode, string> = {
  browse: 'Browse by Tags',
  manage: 'Manage Tags',
};

/** Admins manage unless the URL asks to browse; everyone else only browses. */
export function tagsMode(isAdmin: boolean, raw: string | null): TagsMode {
  if (!isAdmin) return 'browse';
  return raw === 'browse' ? 'browse' : 'manage';
}
