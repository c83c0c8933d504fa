import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';

/** DELETE /api/collections/{id} → 204 (its GIFs stay). */
export const deleteCollection = (id: number) =>
  apiRequest<void>(`/api/collections/${id}`, { method: 'DELETE', defaultError: 'Failed to delete collection' });

export function useDeleteCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCollection,
    onSuccess: (_nothing, id) => {
      queryClient.removeQueries({ queryKey: collectionKeys.detail(id) });
      queryClient.removeQueries({ queryKey: collectionKeys.gifs(id) });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list() });
    },
  });
}
