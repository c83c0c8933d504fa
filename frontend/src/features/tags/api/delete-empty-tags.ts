import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeletedTagsResponse } from '@/api/generated/DeletedTagsResponse';
import { apiRequest } from '@/lib/api-client';
import { applyEmptyTagsDeleted } from '../tags-cache';

/** DELETE /api/tags/empty → the ids of the deleted tags, those with 0 GIFs (admin only). */
export const deleteEmptyTags = () =>
  apiRequest<DeletedTagsResponse>('/api/tags/empty', {
    method: 'DELETE',
    defaultError: 'Failed to delete empty tags',
  });

export function useDeleteEmptyTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmptyTags,
    onSuccess: ({ deletedIds }) => applyEmptyTagsDeleted(queryClient, deletedIds),
  });
}
