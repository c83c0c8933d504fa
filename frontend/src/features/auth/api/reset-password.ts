import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordRequest } from '@/api/generated/ResetPasswordRequest';
import { apiRequest } from '@/lib/api-client';

export const MSG_RESET_FAILED = 'Password reset failed';

/** POST /api/auth/password-reset {token, password} → 204; the link is used up. */
export const resetPassword = (body: ResetPasswordRequest) =>
  apiRequest<unknown>('/api/auth/password-reset', {
    method: 'POST',
    body,
    requiresAuth: false,
    defaultError: MSG_RESET_FAILED,
  }).then(() => undefined);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
