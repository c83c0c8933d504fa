import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@/api/generated/ChangePasswordRequest';
import type { TokenResponse } from '@/api/generated/TokenResponse';
import { apiRequest } from '@/lib/api-client';
import { login } from '@/lib/session';

/**
 * PUT /api/settings/password. The server ends every other session of the account and answers
 * with a fresh token for this one, which replaces the stored token: the user stays signed in.
 */
export const changePassword = (body: ChangePasswordRequest) =>
  apiRequest<TokenResponse>('/api/settings/password', {
    method: 'PUT',
    body,
    defaultError: 'Failed to change password',
  }).then((response) => {
    login(response.token);
  });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
