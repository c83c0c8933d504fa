import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TagDto } from '@/api/generated/TagDto';
import { apiRequest } from '@/lib/api-client';
import { applyTagUpdated } from '../tags-cache';

/** PUT /api/tags/{id}?name= → the renamed tag (admin only; blank or unchanged 400, taken 409). */
export const updateTag = ({ id, name }: { id: number; name: string }) =>
  apiRequest<TagDto>(`/api/tags/${id}?name=${encodeURIComponent(name)}`, {
    method: 'PUT',
    defaultError: 'Failed to update tag',
  });

export function useUpdateTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTag,
    onSuccess: (tag) => applyTagUpdated(queryClient, tag),
  });
}
