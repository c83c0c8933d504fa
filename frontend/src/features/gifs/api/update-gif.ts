import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GifDto } from '@/api/generated/GifDto';
import type { UpdateGifRequest } from '@/api/generated/UpdateGifRequest';
import { apiRequest } from '@/lib/api-client';
import { tagKeys } from '@/lib/tags/query-keys';
import { applyGifUpdated } from '../gif-list-cache';

/** PUT /api/gifs/{id} → the updated GIF (owner or admin; others get 403). */
export const updateGif = ({ id, body }: { id: number; body: UpdateGifRequest }) =>
  apiRequest<GifDto>(`/api/gifs/${id}`, {
    method: 'PUT',
    body,
    defaultError: 'Failed to update gif',
  });

export function useUpdateGif() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGif,
    onSuccess: (gif) => {
      applyGifUpdated(queryClient, gif);
      void queryClient.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
}
