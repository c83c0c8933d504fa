import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadedGifDto } from '@/api/generated/UploadedGifDto';
import type { GifUploadData } from '@/api/generated/GifUploadData';
import { apiUpload } from '@/lib/api-client';
import { tagKeys } from '@/lib/tags/query-keys';
import { applyGifUploaded } from '../gif-list-cache';

export type UploadGifInput = {
  file: File;
  data: GifUploadData;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

/** The multipart body: part `file` (the image) and part `gifData` (JSON of GifUploadData). */
export function uploadFormData(file: File, data: GifUploadData): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('gifData', new Blob([JSON.stringify(data)], { type: 'application/json' }));
  return form;
}

/**
 * POST /api/gifs (multipart) → 201 with the new GIF and the GIFs it looks like; 409 `duplicate`
 * (with `existingId`) for a file already in the library. Progress through XHR upload events.
 */
export const uploadGif = ({ file, data, onProgress, signal }: UploadGifInput) =>
  apiUpload<UploadedGifDto>('/api/gifs', uploadFormData(file, data), {
    defaultError: 'Failed to upload gif',
    ...(onProgress ? { onProgress } : {}),
    ...(signal ? { signal } : {}),
  });

/** The rejection of an upload cancelled through its signal (not a failure to report). */
export const isUploadAborted = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export function useUploadGif() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadGif,
    onSuccess: async () => {
      await applyGifUploaded(queryClient);
      await queryClient.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
}
