import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { GifUploadData } from '@/api/generated/GifUploadData';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { tagKeys } from '@/lib/tags/query-keys';
import { MSG_MAKE_FAILED, startMake, useMakeJob } from '../api/make-gif';
import { isUploadAborted } from '../api/upload-gif';
import { applyGifUploaded } from '../gif-list-cache';
import { UPLOAD_SUCCESS_TOAST_MS } from '../upload-rules';
import type { MakeRecipe } from './recipe';
import { MAKER_TEXTS } from './texts';

export type MakePhase = 'editing' | 'sending' | 'working';

/**
 * Sends the recipe (with upload progress), then asks for the job's state every second: done →
 * the new GIF's page (lists refreshed, the success toast); failed → the error toast with the
 * job's own message, and the form again. Leaving the page cancels a send that is under way.
 */
export function useMakeGif(): {
  phase: MakePhase;
  progress: number;
  make: (file: File | null, data: GifUploadData, recipe: MakeRecipe) => void;
} {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<MakePhase>('editing');
  const [sent, setSent] = useState(0);
  const [jobId, setJobId] = useState<number | null>(null);
  const [madeId, setMadeId] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const opened = useRef<number | null>(null);
  const job = useMakeJob(jobId);

  useEffect(() => () => abort.current?.abort(), []);

  const fail = (message: string) => {
    toast.error(message, { title: MAKER_TEXTS.failedTitle });
    setJobId(null);
    setPhase('editing');
  };

  const state = job.data?.state;
  useEffect(() => {
    if (jobId === null) return;
    if (job.isError) fail(errorMessage(job.error, MSG_MAKE_FAILED));
    else if (state === 'failed') fail(job.data?.error?.error || MSG_MAKE_FAILED);
    else if (state === 'done' && typeof job.data?.gifId === 'number') {
      const gifId = job.data.gifId;
      setJobId(null);
      setPhase('editing');
      setMadeId(gifId);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- acts once per state the job reaches
  }, [jobId, state, job.isError]);

  // After the page has stopped guarding against leaving (phase back to editing), open the GIF.
  useEffect(() => {
    if (madeId === null || opened.current === madeId) return;
    opened.current = madeId;
    toast.success(MAKER_TEXTS.made, { duration: UPLOAD_SUCCESS_TOAST_MS });
    void (async () => {
      await applyGifUploaded(queryClient);
      await queryClient.invalidateQueries({ queryKey: tagKeys.all });
    })();
    void navigate(paths.gif(madeId));
  }, [madeId, navigate, queryClient, toast]);

  const make = (file: File | null, data: GifUploadData, recipe: MakeRecipe) => {
    if (phase !== 'editing') return;
    const controller = new AbortController();
    abort.current = controller;
    setSent(0);
    setPhase('sending');
    startMake({ file, data, recipe, onProgress: setSent, signal: controller.signal }).then(
      (started) => {
        setJobId(started.jobId);
        setPhase('working');
      },
      (error: unknown) => {
        if (isUploadAborted(error)) return;
        fail(errorMessage(error, MSG_MAKE_FAILED));
      },
    );
  };

  const progress = phase === 'sending' ? sent : (job.data?.progress ?? 0);
  return { phase, progress, make };
}
