import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { GifUploadData } from '@/api/generated/GifUploadData';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { ApiError } from '@/lib/api-client';
import { usePublicConfig } from '@/lib/public-config';
import { isUploadAborted, useUploadGif } from '../api/upload-gif';
import {
  DEFAULT_MAX_UPLOAD_BYTES,
  FILE_SELECTED_TOAST_MS,
  MSG_DUPLICATE,
  MSG_UPLOADED,
  MSG_UPLOAD_FAILED_TITLE,
  UPLOAD_SUCCESS_TOAST_MS,
  checkFile,
  fileSelectedMessage,
  likelyDuplicatesMessage,
  uploadErrorMessage,
  uploadProblem,
} from '../upload-rules';
import type { Rating } from '@/api/generated/Rating';

/**
 * Sends one file with progress (cancelled when the page closes): on success the spec's toast,
 * a "Possible duplicate" one when it looks like GIFs of the library, and /gifs; on failure the
 * "Upload Failed" toast. A byte-identical file's GIF is kept in `duplicateOf` for a link.
 */
function useSendUpload() {
  const navigate = useNavigate();
  const toast = useToast();
  const upload = useUploadGif();
  const [progress, setProgress] = useState(0);
  const [duplicateOf, setDuplicateOf] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const send = (file: File, data: GifUploadData) => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    upload.mutate(
      { file, data, onProgress: (fraction) => setProgress(fraction), signal: controller.signal },
      {
        onSuccess: (uploaded) => {
          toast.success(MSG_UPLOADED, { duration: UPLOAD_SUCCESS_TOAST_MS });
          const alike = likelyDuplicatesMessage(uploaded.likelyDuplicates);
          if (alike) toast.info(alike, { title: 'Possible duplicate' });
          void navigate(paths.gifs);
        },
        onError: (error) => {
          if (isUploadAborted(error)) return;
          if (error instanceof ApiError && error.code === 'duplicate' && error.existingId !== null) {
            setDuplicateOf(error.existingId);
            toast.error(`${MSG_DUPLICATE} (GIF #${error.existingId}).`, { title: MSG_UPLOAD_FAILED_TITLE });
            return;
          }
          toast.error(uploadErrorMessage(error), { title: MSG_UPLOAD_FAILED_TITLE });
        },
      },
    );
  };
  return { send, pending: upload.isPending, progress, duplicateOf, setDuplicateOf };
}

/**
 * The single-file upload form's state: the chosen file (checked, with the spec's toasts; several
 * files go to `onMany`), title, description, tags, the form's problem, and `onSubmit`.
 */
export function useSingleUpload(onMany: (files: File[]) => void) {
  const toast = useToast();
  const config = usePublicConfig();
  const maxBytes = config.data?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const sending = useSendUpload();
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [rating, setRating] = useState<Rating | ''>('');
  const [formError, setFormError] = useState<string | null>(null);

  const choose = (files: FileList | null | undefined) => {
    if (files && files.length > 1) {
      onMany(Array.from(files));
      return;
    }
    const chosen = files?.[0];
    if (!chosen) return;
    const problem = checkFile(chosen, maxBytes);
    if (problem) {
      toast.error(problem.message, { title: problem.title });
      return;
    }
    setFile(chosen);
    setFormError(null);
    sending.setDuplicateOf(null);
    toast.info(fileSelectedMessage(chosen.name, chosen.size), { duration: FILE_SELECTED_TOAST_MS });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.pending) return;
    const problem = uploadProblem(file, title);
    setFormError(problem);
    sending.setDuplicateOf(null);
    if (problem || !file) return;
    sending.send(file, { title: title.trim(), description: description.trim(), tags, ...(rating ? { rating } : {}) });
  };

  const onTitle = (value: string) => {
    setTitle(value);
    setFormError(null);
  };

  return {
    file,
    title,
    description,
    tags,
    rating,
    formError,
    setDescription,
    setTags,
    setRating,
    onTitle,
    choose,
    onSubmit,
    pending: sending.pending,
    progress: sending.progress,
    duplicateOf: sending.duplicateOf,
    /** What is missing before the upload can start, or null. */
    missing: uploadProblem(file, title),
  };
}
