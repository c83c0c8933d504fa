import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TagDto } from '@/api/generated/TagDto';
import { ApiError, apiRequest } from '../api-client';
import { tagKeys } from './query-keys';

/** POST /api/tags?name= → 201 with the new tag (409 when it exists already). */
export const createTag = (name: string) =>
  apiRequest<TagDto>(`/api/tags?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    defaultError: 'Failed to create tag',
  });

/** Creates the tag unless it exists already (a 409 counts as success); returns the created tag or null. */
export async function ensureTag(name: string): Promise<TagDto | null> {
  try {
    return await createTag(name);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return null;
    throw error;
  }
}

export function useEnsureTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ensureTag,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tagKeys.all }),
  });
}
