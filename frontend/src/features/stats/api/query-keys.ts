/** What a detail modal shows (spec §2 "Detail modal"): the GIFs of a size range, a tag or a content type, or the users of an activity level. */
export type DetailKind = 'size' | 'tag' | 'activity' | 'content-type';

export type DetailTarget = {
  kind: DetailKind;
  /** The size range label, tag name, activity level or content type, as the server names it. */
  value: string;
};

export const statsKeys = {
  all: ['stats'] as const,
  overview: () => [...statsKeys.all, 'overview'] as const,
  detailed: () => [...statsKeys.all, 'detailed'] as const,
  details: () => [...statsKeys.all, 'detail'] as const,
  detail: (target: DetailTarget) => [...statsKeys.details(), target.kind, target.value] as const,
};
