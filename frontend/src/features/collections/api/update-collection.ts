import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import type { CollectionRequest } from '@/api/generated/CollectionRequest';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';

/** PUT /api/collections/{id} → the edited collection (`sharing` null leaves sharing as it is). */
export const updateCollection = ({ id, ...body }: CollectionRequest & { id: number }) =>
  apiRequest<CollectionDto>(`/api/collections/${id}`, {
    method: 'PUT',
    body,
    defaultError: 'Failed to save collection',
  });

export function useUpdateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCollection,
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionKeys.detail(collection.id), collection);
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list() });
    },
  });
}
