import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateIntegrationRequest } from '@/api/generated/CreateIntegrationRequest';
import type { IntegrationDto } from '@/api/generated/IntegrationDto';
import type { UpdateIntegrationRequest } from '@/api/generated/UpdateIntegrationRequest';
import { apiRequest } from '@/lib/api-client';
import { settingsKeys } from './query-keys';

export const MSG_LOAD_INTEGRATIONS_FAILED = 'Failed to load integrations';
export const MSG_ADD_INTEGRATION_FAILED = 'Failed to add integration';
export const MSG_REMOVE_INTEGRATION_FAILED = 'Failed to remove integration';
export const MSG_SAVE_RATING_FAILED = 'Failed to save the maximum rating';

/** GET /api/integrations (admins) → the chat integrations, oldest first (never their secrets). */
export const getIntegrations = (signal?: AbortSignal) =>
  apiRequest<IntegrationDto[]>('/api/integrations', {
    defaultError: MSG_LOAD_INTEGRATIONS_FAILED,
    ...(signal ? { signal } : {}),
  });

export const integrationsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.integrations(),
    queryFn: ({ signal }) => getIntegrations(signal),
  });

export const useIntegrations = () => useQuery(integrationsQueryOptions());

/** POST /api/integrations {platform, name, secret} → the integration, listed by its secret's last characters. */
export const addIntegration = (body: CreateIntegrationRequest) =>
  apiRequest<IntegrationDto>('/api/integrations', {
    method: 'POST',
    body,
    defaultError: MSG_ADD_INTEGRATION_FAILED,
  });

/** PUT /api/integrations/{id} {maxRating} → the integration; its next slash command answers within it. */
export const updateIntegration = ({ id, ...body }: UpdateIntegrationRequest & { id: number }) =>
  apiRequest<IntegrationDto>(`/api/integrations/${id}`, {
    method: 'PUT',
    body,
    defaultError: MSG_SAVE_RATING_FAILED,
  });

/** DELETE /api/integrations/{id}: its slash commands are refused at once. */
export const removeIntegration = (id: number) =>
  apiRequest<void>(`/api/integrations/${id}`, { method: 'DELETE', defaultError: MSG_REMOVE_INTEGRATION_FAILED });

export function useAddIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addIntegration,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.integrations() }),
  });
}

export function useUpdateIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateIntegration,
    onSuccess: (saved) => {
      queryClient.setQueryData<IntegrationDto[]>(settingsKeys.integrations(), (list) =>
        list?.map((integration) => (integration.id === saved.id ? saved : integration)),
      );
      return queryClient.invalidateQueries({ queryKey: settingsKeys.integrations() });
    },
  });
}

export function useRemoveIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeIntegration,
    onSuccess: (_, id) => {
      queryClient.setQueryData<IntegrationDto[]>(settingsKeys.integrations(), (list) =>
        list?.filter((integration) => integration.id !== id),
      );
      return queryClient.invalidateQueries({ queryKey: settingsKeys.integrations() });
    },
  });
}
