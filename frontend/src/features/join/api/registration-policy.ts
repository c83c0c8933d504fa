import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RegistrationPolicyDto } from '@/api/generated/RegistrationPolicyDto';
import { apiRequest } from '@/lib/api-client';
import { joinKeys } from './query-keys';

export const MSG_LOAD_POLICY_FAILED = 'Failed to load the registration settings';
export const MSG_SAVE_POLICY_FAILED = 'Failed to save the registration settings';

/** GET /api/admin/registration → who may join (admins). */
export const getRegistrationPolicy = (signal?: AbortSignal) =>
  apiRequest<RegistrationPolicyDto>('/api/admin/registration', {
    defaultError: MSG_LOAD_POLICY_FAILED,
    ...(signal ? { signal } : {}),
  });

export const registrationPolicyQueryOptions = () =>
  queryOptions({ queryKey: joinKeys.policy(), queryFn: ({ signal }) => getRegistrationPolicy(signal) });

export const useRegistrationPolicy = () => useQuery(registrationPolicyQueryOptions());

/** PUT /api/admin/registration → the policy now stored. */
export const saveRegistrationPolicy = (body: RegistrationPolicyDto) =>
  apiRequest<RegistrationPolicyDto>('/api/admin/registration', {
    method: 'PUT',
    body,
    defaultError: MSG_SAVE_POLICY_FAILED,
  });

export function useSaveRegistrationPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRegistrationPolicy,
    onSuccess: (stored) => {
      queryClient.setQueryData(joinKeys.policy(), stored);
      return queryClient.invalidateQueries({ queryKey: ['config'] });
    },
  });
}
