import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { TagDto } from '@/api/generated/TagDto';
import { GIFS_QUERY_ROOT } from '@/lib/query-roots';
import { tagKeys } from '@/lib/tags/query-keys';
import {
  appendTag,
  applyEmptyTagsDeleted,
  applyTagCreated,
  applyTagDeleted,
  applyTagUpdated,
  removeTag,
  removeTags,
  replaceTag,
} from './tags-cache';

const tag = (id: number, name: string, count: number): TagDto => ({ id, name, count });
const seed = () => [tag(1, 'cats', 3), tag(2, 'dogs', 1), tag(3, 'empty', 0), tag(4, 'void', 0)];

function clientWith(tags: TagDto[] | undefined) {
  const client = new QueryClient();
  if (tags) client.setQueryData(tagKeys.list(), tags);
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const list = () => client.getQueryData<TagDto[]>(tagKeys.list());
  return { client, invalidate, list };
}

describe('tag list transitions (pure)', () => {
  it('create appends (a tag already listed is replaced, not doubled)', () => {
    expect(appendTag(seed(), tag(9, 'new', 0)).map((t) => t.id)).toEqual([1, 2, 3, 4, 9]);
    expect(appendTag(seed(), tag(2, 'dogs', 5))).toEqual([tag(1, 'cats', 3), tag(2, 'dogs', 5), tag(3, 'empty', 0), tag(4, 'void', 0)]);
  });

  it('update replaces by id, in place', () => {
    expect(replaceTag(seed(), tag(2, 'puppies', 1)).map((t) => t.name)).toEqual(['cats', 'puppies', 'empty', 'void']);
  });

  it('delete removes by id; delete-empty removes every id of deletedIds', () => {
    expect(removeTag(seed(), 1).map((t) => t.id)).toEqual([2, 3, 4]);
    expect(removeTags(seed(), [3, 4]).map((t) => t.id)).toEqual([1, 2]);
    expect(removeTags(seed(), [])).toEqual(seed());
  });
});

describe('tag cache transitions (react-query)', () => {
  it('create appends to the cached list and leaves the GIF lists alone', () => {
    const { client, invalidate, list } = clientWith(seed());
    applyTagCreated(client, tag(9, 'new', 0));
    expect(list()?.map((t) => t.id)).toEqual([1, 2, 3, 4, 9]);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('update replaces by id and refreshes every GIF query by the gifs root', () => {
    const { client, invalidate, list } = clientWith(seed());
    applyTagUpdated(client, tag(1, 'kittens', 3));
    expect(list()?.[0]).toEqual(tag(1, 'kittens', 3));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: GIFS_QUERY_ROOT });
    expect(GIFS_QUERY_ROOT).toEqual(['gifs']);
  });

  it('delete removes by id and refreshes the GIFs (they lose the tag)', () => {
    const { client, invalidate, list } = clientWith(seed());
    applyTagDeleted(client, 2);
    expect(list()?.map((t) => t.id)).toEqual([1, 3, 4]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: GIFS_QUERY_ROOT });
  });

  it('delete-empty removes all ids in deletedIds', () => {
    const { client, list } = clientWith(seed());
    applyEmptyTagsDeleted(client, [3, 4]);
    expect(list()?.map((t) => t.id)).toEqual([1, 2]);
  });

  it('a list that was never loaded stays unloaded', () => {
    const { client, list } = clientWith(undefined);
    applyTagCreated(client, tag(9, 'new', 0));
    applyTagDeleted(client, 1);
    expect(list()).toBeUndefined();
  });
});
