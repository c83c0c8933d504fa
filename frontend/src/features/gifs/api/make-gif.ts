import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GifUploadData } from '@/api/generated/GifUploadData';
import type { MakeStartedDto } from '@/api/generated/MakeStartedDto';
import type { MakeStatusDto } from '@/api/generated/MakeStatusDto';
import { apiRequest, apiUpload } from '@/lib/api-client';
import type { MakeRecipe } from '../maker/recipe';


export type MakeGifInput = {
  /** The video, GIF or WebP; null when `recipe.gifId` names the source. */
  file: File | null;
  data: GifUploadData;
  recipe: MakeRecipe;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

export const MSG_MAKE_FAILED = 'Failed to make GIF';

/** The multipart body: `file` (when there is one), `gifData` and `recipe` (JSON each). */
export function makeFormData(file: File | null, data: GifUploadData, recipe: MakeRecipe): FormData {
  const form = new FormData();
  if (file) form.append('file', file, file.name);
  form.append('gifData', new Blob([JSON.stringify(data)], { type: 'application/json' }));
  form.append('recipe', new Blob([JSON.stringify(recipe)], { type: 'application/json' }));
  return form;
}

/** POST /api/make (multipart, with upload progress) → 202 `{jobId}`. */
export const startMake = ({ file, data, recipe, onProgress, signal }: MakeGifInput) =>
  apiUpload<MakeStartedDto>('/api/make', makeFormData(file, data, recipe), {
    defaultError: MSG_MAKE_FAILED,
    ...(onProgress ? { onProgress } : {}),
    ...(signal ? { signal } : {}),
  });

/** How often a job's state is asked for while it runs. */
export const MAKE_POLL_MS = 1000;

const makeJobPath = (jobId: number) => `/api/make/${encodeURIComponent(String(jobId))}`;

export const makeJobQueryOptions = (jobId: number) =>
  queryOptions({
    queryKey: ['make', 'job', String(jobId)] as const,
    queryFn: ({ signal }) => apiRequest<MakeStatusDto>(makeJobPath(jobId), { defaultError: MSG_MAKE_FAILED, signal }),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'done' || state === 'failed' ? false : MAKE_POLL_MS;
    },
    retry: 2,
    gcTime: 0,
  });

/** GET /api/make/{jobId}, asked again every second until the job is done or has failed. */
export const useMakeJob = (jobId: number | null) =>
  useQuery({ ...makeJobQueryOptions(jobId ?? 0), enabled: jobId !== null });
