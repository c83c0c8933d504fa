import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createTag } from '@/lib/tags/create-tag';
import { applyTagCreated } from '../tags-cache';

/**
 * POST /api/tags?name= → 201 with the new tag (any signed-in user; 409 when it exists, 400 when
 * blank). The fetcher is the shared one of `lib/tags`; on success the tag is appended to the list.
 */
export function useCreateTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTag,
    onSuccess: (tag) => applyTagCreated(queryClient, tag),
  });
}
