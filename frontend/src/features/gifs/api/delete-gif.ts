import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { tagKeys } from '@/lib/tags/query-keys';
import { applyGifDeleted } from '../gif-list-cache';

/** DELETE /api/gifs/{id} → 204 (owner only; others get 403). */
export const deleteGif = (id: number) =>
  apiRequest<void>(`/api/gifs/${id}`, { method: 'DELETE', defaultError: 'Failed to delete gif' });

export function useDeleteGif() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGif,
    onSuccess: (_nothing, id) => {
      applyGifDeleted(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
}
