import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PasswordResetLinkDto } from '@/api/generated/PasswordResetLinkDto';
import type { QuotaDto } from '@/api/generated/QuotaDto';
import { apiRequest } from '@/lib/api-client';
import { memberKeys } from './members';

export const MSG_DELETE_MEMBER_FAILED = 'Failed to delete the member';
export const MSG_RESET_LINK_FAILED = 'Failed to make a password reset link';
export const MSG_LOAD_QUOTAS_FAILED = 'Failed to load the quotas';
export const MSG_SAVE_QUOTAS_FAILED = 'Failed to save the quotas';

/** What becomes of a deleted member's GIFs: deleted, or handed to another member. */
export type GifChoice = { gifs: 'delete' } | { gifs: 'transfer'; to: number };

/** DELETE /api/admin/users/{id}?gifs=delete|transfer&to= → 204. */
export const deleteMember = ({ id, choice }: { id: number; choice: GifChoice }) => {
  const query = new URLSearchParams({ gifs: choice.gifs });
  if (choice.gifs === 'transfer') query.set('to', String(choice.to));
  return apiRequest<void>(`/api/admin/users/${id}?${query.toString()}`, {
    method: 'DELETE',
    defaultError: MSG_DELETE_MEMBER_FAILED,
  });
};

export function useDeleteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}

/** POST /api/admin/users/{id}/password-reset → a one-time link, valid 24 hours. */
export const makeResetLink = (id: number) =>
  apiRequest<PasswordResetLinkDto>(`/api/admin/users/${id}/password-reset`, {
    method: 'POST',
    defaultError: MSG_RESET_LINK_FAILED,
  });

export const useResetLink = () => useMutation({ mutationFn: makeResetLink });

export const quotaKeys = {
  defaults: ['quotas', 'defaults'] as const,
  member: (id: number) => ['quotas', 'member', id] as const,
};

/** GET /api/admin/quotas: the quota for everyone (null: unlimited). */
export const useDefaultQuota = () =>
  useQuery({
    queryKey: quotaKeys.defaults,
    queryFn: ({ signal }) => apiRequest<QuotaDto>('/api/admin/quotas', { defaultError: MSG_LOAD_QUOTAS_FAILED, signal }),
  });

export function useSaveDefaultQuota() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quota: QuotaDto) =>
      apiRequest<QuotaDto>('/api/admin/quotas', { method: 'PUT', body: quota, defaultError: MSG_SAVE_QUOTAS_FAILED }),
    onSuccess: (saved) => queryClient.setQueryData(quotaKeys.defaults, saved),
  });
}

/** GET /api/admin/users/{id}/quota: a member's own quota (null: the default). */
export const useMemberQuota = (id: number) =>
  useQuery({
    queryKey: quotaKeys.member(id),
    queryFn: ({ signal }) =>
      apiRequest<QuotaDto>(`/api/admin/users/${id}/quota`, { defaultError: MSG_LOAD_QUOTAS_FAILED, signal }),
  });

export function useSaveMemberQuota(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quota: QuotaDto) =>
      apiRequest<QuotaDto>(`/api/admin/users/${id}/quota`, {
        method: 'PUT',
        body: quota,
        defaultError: MSG_SAVE_QUOTAS_FAILED,
      }),
    onSuccess: (saved) => queryClient.setQueryData(quotaKeys.member(id), saved),
  });
}

const MB = 1024 * 1024;

/** A quota form's text as bytes: blank is null; otherwise whole megabytes. */
export const megabytesToBytes = (text: string): number | null => (text.trim() === '' ? null : Math.round(Number(text) * MB));

/** Bytes as a quota form's megabytes (blank for null). */
export const bytesToMegabytes = (bytes: number | null): string => (bytes === null ? '' : String(Math.round((bytes / MB) * 100) / 100));

/** A quota form's count: blank is null. */
export const countOf = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** Whether a quota form's text is blank or a number of at least 0 (whole for counts). */
export const validLimit = (text: string, whole: boolean): boolean => {
  if (text.trim() === '') return true;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 && (!whole || Number.isInteger(n));
};
