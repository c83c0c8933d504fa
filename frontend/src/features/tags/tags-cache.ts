/**
 * The tags state of spec §4, kept in the react-query cache (the list of `useTags`, shared with the
 * tag suggestions of the GIF screens): create appends; delete removes by id; update replaces by
 * id; delete-empty removes every id of the answer's deletedIds. Renames and deletions also mark
 * every GIF list and detail stale (their tag names changed), by the GIF query root.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TagDto } from '@/api/generated/TagDto';
import { GIFS_QUERY_ROOT } from '@/lib/query-roots';
import { tagKeys } from '@/lib/tags/query-keys';

/** Appends the new tag (a tag already listed, e.g. after a refetch, is replaced instead). */
export function appendTag(tags: readonly TagDto[], tag: TagDto): TagDto[] {
  return tags.some((t) => t.id === tag.id) ? replaceTag(tags, tag) : [...tags, tag];
}

export function replaceTag(tags: readonly TagDto[], tag: TagDto): TagDto[] {
  return tags.map((t) => (t.id === tag.id ? tag : t));
}

export function removeTag(tags: readonly TagDto[], id: number): TagDto[] {
  return tags.filter((t) => t.id !== id);
}

export function removeTags(tags: readonly TagDto[], ids: readonly number[]): TagDto[] {
  const gone = new Set(ids);
  return tags.filter((t) => !gone.has(t.id));
}

type Transition = (tags: TagDto[]) => TagDto[];

/** Applies a transition to the cached list; a list that was never loaded stays unloaded. */
function updateList(queryClient: QueryClient, transition: Transition): void {
  queryClient.setQueryData<TagDto[]>(tagKeys.list(), (tags) => (tags ? transition(tags) : tags));
}

function refreshGifs(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: GIFS_QUERY_ROOT });
}

export function applyTagCreated(queryClient: QueryClient, tag: TagDto): void {
  updateList(queryClient, (tags) => appendTag(tags, tag));
}

export function applyTagUpdated(queryClient: QueryClient, tag: TagDto): void {
  updateList(queryClient, (tags) => replaceTag(tags, tag));
  refreshGifs(queryClient);
}

export function applyTagDeleted(queryClient: QueryClient, id: number): void {
  updateList(queryClient, (tags) => removeTag(tags, id));
  refreshGifs(queryClient);
}

export function applyEmptyTagsDeleted(queryClient: QueryClient, deletedIds: readonly number[]): void {
  updateList(queryClient, (tags) => removeTags(tags, deletedIds));
  refreshGifs(queryClient);
}
