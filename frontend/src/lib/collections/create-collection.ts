import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionDto } from '@/api/generated/CollectionDto';
import type { Visibility } from '@/api/generated/Visibility';
import { apiRequest } from '../api-client';
import { collectionKeys } from './query-keys';

export type NewCollection = { name: string; description: string; visibility: Visibility };

/** POST /api/collections → 201 with the collection. */
export const createCollection = (input: NewCollection) =>
  apiRequest<CollectionDto>('/api/collections', {
    method: 'POST',
    body: { ...input, sharing: null },
    defaultError: 'Failed to create collection',
  });

export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCollection,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}
