import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GifUploadData } from '@/api/generated/GifUploadData';
import { apiRequest, apiUpload } from '@/lib/api-client';
import type { MakeRecipe } from '../maker/recipe';

/*
 * Hand-written until the generated types have them (the maker's API lands separately):
 * `POST /api/make` → 202 `{jobId}`; `GET /api/make/{jobId}` → the job's state.
 */

export type MakeStarted = { jobId: number | string };
export type MakeJobState = 'queued' | 'running' | 'done' | 'failed';
export type MakeJob = {
  state: MakeJobState;
  /** 0 to 1. */
  progress: number;
  gifId?: number | null;
  error?: { error: string; code: string } | null;
};

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
  apiUpload<MakeStarted>('/api/make', makeFormData(file, data, recipe), {
    defaultError: MSG_MAKE_FAILED,
    ...(onProgress ? { onProgress } : {}),
    ...(signal ? { signal } : {}),
  });

/** How often a job's state is asked for while it runs. */
export const MAKE_POLL_MS = 1000;

const makeJobPath = (jobId: number | string) => `/api/make/${encodeURIComponent(String(jobId))}`;

export const makeJobQueryOptions = (jobId: number | string) =>
  queryOptions({
    queryKey: ['make', 'job', String(jobId)] as const,
    queryFn: ({ signal }) => apiRequest<MakeJob>(makeJobPath(jobId), { defaultError: MSG_MAKE_FAILED, signal }),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'done' || state === 'failed' ? false : MAKE_POLL_MS;
    },
    retry: 2,
    gcTime: 0,
  });

/** GET /api/make/{jobId}, asked again every second until the job is done or has failed. */
export const useMakeJob = (jobId: number | string | null) =>
  useQuery({ ...makeJobQueryOptions(jobId ?? ''), enabled: jobId !== null });
