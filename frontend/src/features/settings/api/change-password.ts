import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@/api/generated/ChangePasswordRequest';
import { apiRequest } from '@/lib/api-client';

/** PUT /api/settings/password (204). */
export const changePassword = (body: ChangePasswordRequest) =>
  apiRequest<unknown>('/api/settings/password', {
    method: 'PUT',
    body,
    defaultError: 'Failed to change password',
  }).then(() => undefined);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
