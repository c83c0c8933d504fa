import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateInviteRequest } from '@/api/generated/CreateInviteRequest';
import type { CreatedInviteDto } from '@/api/generated/CreatedInviteDto';
import type { InviteDto } from '@/api/generated/InviteDto';
import { apiRequest } from '@/lib/api-client';
import { joinKeys } from './query-keys';

export const MSG_LOAD_INVITES_FAILED = 'Failed to load invitations';
export const MSG_CREATE_INVITE_FAILED = 'Failed to create the invitation';
export const MSG_REVOKE_INVITE_FAILED = 'Failed to revoke the invitation';

/** GET /api/invites → your invitations (an admin's: everybody's), newest first, at most 200. */
export const getInvites = (signal?: AbortSignal) =>
  apiRequest<InviteDto[]>('/api/invites', { defaultError: MSG_LOAD_INVITES_FAILED, ...(signal ? { signal } : {}) });

export const invitesQueryOptions = () =>
  queryOptions({ queryKey: joinKeys.invites(), queryFn: ({ signal }) => getInvites(signal) });

export const useInvites = () => useQuery(invitesQueryOptions());

/** POST /api/invites → the new invitation; its token and link are in this answer only. */
export const createInvite = (body: CreateInviteRequest) =>
  apiRequest<CreatedInviteDto>('/api/invites', { method: 'POST', body, defaultError: MSG_CREATE_INVITE_FAILED });

/** DELETE /api/invites/{id}: the link stops working at once. */
export const revokeInvite = (id: number) =>
  apiRequest<void>(`/api/invites/${id}`, { method: 'DELETE', defaultError: MSG_REVOKE_INVITE_FAILED });

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: joinKeys.invites() }),
  });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvite,
    onSuccess: (_, id) => {
      queryClient.setQueryData<InviteDto[]>(joinKeys.invites(), (list) => list?.filter((i) => i.id !== id));
      return queryClient.invalidateQueries({ queryKey: joinKeys.invites() });
    },
  });
}
