import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FromUrlRequest } from '@/api/generated/FromUrlRequest';
import type { GifDto } from '@/api/generated/GifDto';
import { apiRequest } from '@/lib/api-client';
import { tagKeys } from '@/lib/tags/query-keys';
import { applyGifUploaded } from '../gif-list-cache';

/** POST /api/gifs/from-url → 201 with the new GIF: the server fetches the image from the link. */
export const uploadFromUrl = (request: FromUrlRequest) =>
  apiRequest<GifDto>('/api/gifs/from-url', {
    method: 'POST',
    body: request,
    defaultError: 'Failed to upload gif',
  });

export function useUploadFromUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadFromUrl,
    onSuccess: async () => {
      await applyGifUploaded(queryClient);
      await queryClient.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
}
