import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';

/** PUT /api/collections/{id}/share {enabled} → the collection with its share id (or none). */
export const shareCollection = ({ id, enabled }: { id: number; enabled: boolean }) =>
  apiRequest<CollectionDto>(`/api/collections/${id}/share`, {
    method: 'PUT',
    body: { enabled },
    defaultError: 'Failed to change sharing',
  });

export function useShareCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shareCollection,
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionKeys.detail(collection.id), collection);
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list() });
    },
  });
}
