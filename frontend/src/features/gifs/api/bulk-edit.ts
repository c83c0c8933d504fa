import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkRequest } from '@/api/generated/BulkRequest';
import type { BulkResponse } from '@/api/generated/BulkResponse';
import { apiRequest } from '@/lib/api-client';
import { collectionKeys } from '@/lib/collections/query-keys';
import { GIFS_QUERY_ROOT } from '@/lib/query-roots';
import { tagKeys } from '@/lib/tags/query-keys';

export type BulkAction = Partial<Omit<BulkRequest, 'ids'>> & { ids: number[] };

/** POST /api/gifs/bulk → one result per id ("ok", "forbidden", "not_found"); each action all or nothing. */
export const bulkEdit = ({ ids, addTags = [], removeTags = [], collectionId = null, delete: remove = false }: BulkAction) =>
  apiRequest<BulkResponse>('/api/gifs/bulk', {
    method: 'POST',
    body: { ids, addTags, removeTags, collectionId, delete: remove } satisfies BulkRequest,
    defaultError: 'Failed to apply the action',
  });

export function useBulkEdit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkEdit,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: GIFS_QUERY_ROOT });
      void queryClient.invalidateQueries({ queryKey: tagKeys.all });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.all });
    },
  });
}
