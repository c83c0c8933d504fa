import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyDto } from '@/api/generated/ApiKeyDto';
import type { CreateApiKeyRequest } from '@/api/generated/CreateApiKeyRequest';
import type { CreatedApiKeyDto } from '@/api/generated/CreatedApiKeyDto';
import { apiRequest } from '@/lib/api-client';
import { settingsKeys } from './query-keys';

export const MSG_LOAD_KEYS_FAILED = 'Failed to load API keys';
export const MSG_CREATE_KEY_FAILED = 'Failed to create API key';
export const MSG_REVOKE_KEY_FAILED = 'Failed to revoke API key';

/** GET /api/keys → the account's API keys, oldest first (never the keys themselves). */
export const getApiKeys = (signal?: AbortSignal) =>
  apiRequest<ApiKeyDto[]>('/api/keys', { defaultError: MSG_LOAD_KEYS_FAILED, ...(signal ? { signal } : {}) });

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.apiKeys(),
    queryFn: ({ signal }) => getApiKeys(signal),
  });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());

/** POST /api/keys {name} → the new key; its `key` is in this answer only. */
export const createApiKey = (body: CreateApiKeyRequest) =>
  apiRequest<CreatedApiKeyDto>('/api/keys', {
    method: 'POST',
    body,
    defaultError: MSG_CREATE_KEY_FAILED,
  });

/** DELETE /api/keys/{id}: the key stops working at once. */
export const revokeApiKey = (id: number) =>
  apiRequest<void>(`/api/keys/${id}`, { method: 'DELETE', defaultError: MSG_REVOKE_KEY_FAILED });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: (_, id) => {
      queryClient.setQueryData<ApiKeyDto[]>(settingsKeys.apiKeys(), (keys) => keys?.filter((key) => key.id !== id));
      return queryClient.invalidateQueries({ queryKey: settingsKeys.apiKeys() });
    },
  });
}
