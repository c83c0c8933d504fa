import type { GifDto } from '@/api/generated/GifDto';

export type GifPermissions = { canEdit: boolean; canDelete: boolean };

/** Spec §6: the owner edits and deletes; an admin edits any GIF but deletes none of others'. */
export function gifPermissions(
  gif: Pick<GifDto, 'uploadedBy'>,
  username: string | null,
  isAdmin: boolean,
): GifPermissions {
  const isOwner = username !== null && username === gif.uploadedBy;
  return { canEdit: isOwner || isAdmin, canDelete: isOwner };
}
