import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';

/** DELETE /api/collections/{id}/gifs/{gifId} → 204 (the GIF stays in the library). */
export const removeFromCollection = ({ id, gifId }: { id: number; gifId: number }) =>
  apiRequest<void>(`/api/collections/${id}/gifs/${gifId}`, {
    method: 'DELETE',
    defaultError: 'Failed to remove from collection',
  });

export function useRemoveFromCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFromCollection,
    onSuccess: (_nothing, { id }) => {
      void queryClient.invalidateQueries({ queryKey: collectionKeys.gifs(id) });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list() });
    },
  });
}
