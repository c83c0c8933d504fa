import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IdentityDto } from '@/api/generated/IdentityDto';
import { apiRequest } from '@/lib/api-client';
import { settingsKeys } from './query-keys';

export const MSG_CONNECT_FAILED = 'Failed to connect the Google account';
export const MSG_DISCONNECT_FAILED = 'Failed to disconnect the Google account';

/** GET /api/settings/identities → the sign-in identities connected to the account. */
export const getIdentities = (signal?: AbortSignal) =>
  apiRequest<IdentityDto[]>('/api/settings/identities', signal ? { signal } : {});

export const identitiesQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.identities(),
    queryFn: ({ signal }) => getIdentities(signal),
  });

export const useIdentities = () => useQuery(identitiesQueryOptions());

/** POST /api/settings/identities {token}: connects the identity an ID token vouches for. */
export const connectIdentity = (token: string) =>
  apiRequest<IdentityDto[]>('/api/settings/identities', {
    method: 'POST',
    body: { token },
    defaultError: MSG_CONNECT_FAILED,
  });

/** DELETE /api/settings/identities?issuer=…: never the account's only way in (the server says so). */
export const disconnectIdentity = (issuer: string) =>
  apiRequest<void>(`/api/settings/identities?issuer=${encodeURIComponent(issuer)}`, {
    method: 'DELETE',
    defaultError: MSG_DISCONNECT_FAILED,
  });

export function useConnectIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectIdentity,
    onSuccess: (identities) => queryClient.setQueryData(settingsKeys.identities(), identities),
  });
}

export function useDisconnectIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectIdentity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.identities() }),
  });
}
