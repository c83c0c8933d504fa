import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';

/** PUT /api/collections/{id}/order {gifIds} → 204; every GIF of the collection, once. */
export const reorderCollection = ({ id, gifIds }: { id: number; gifIds: number[] }) =>
  apiRequest<void>(`/api/collections/${id}/order`, {
    method: 'PUT',
    body: { gifIds },
    defaultError: 'Failed to save the order',
  });

export function useReorderCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderCollection,
    onSettled: (_nothing, _error, { id }) => {
      void queryClient.invalidateQueries({ queryKey: collectionKeys.gifs(id) });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list() });
    },
  });
}
