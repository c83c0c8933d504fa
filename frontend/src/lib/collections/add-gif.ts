import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../api-client';
import { collectionKeys } from './query-keys';

/** PUT /api/collections/{id}/gifs/{gifId} → 204 (at the end; a GIF already there stays). */
export const addGifToCollection = ({ collectionId, gifId }: { collectionId: number; gifId: number }) =>
  apiRequest<void>(`/api/collections/${collectionId}/gifs/${gifId}`, {
    method: 'PUT',
    defaultError: 'Failed to add to collection',
  });

export function useAddGifToCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addGifToCollection,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}
