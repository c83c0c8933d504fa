import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { applyTagDeleted } from '../tags-cache';

/** DELETE /api/tags/{id} → 204 (admin only). The GIFs keep existing; they lose the tag. */
export const deleteTag = (id: number) =>
  apiRequest<void>(`/api/tags/${id}`, { method: 'DELETE', defaultError: 'Failed to delete tag' });

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTag,
    onSuccess: (_nothing, id) => applyTagDeleted(queryClient, id),
  });
}
