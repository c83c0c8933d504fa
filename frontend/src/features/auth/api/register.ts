import { useMutation } from '@tanstack/react-query';
import type { RegisterRequest } from '@/api/generated/RegisterRequest';
import { apiRequest } from '@/lib/api-client';

/** POST /api/auth/register (201; the body is ignored). Registration does not sign in. */
export const registerRequest = (body: RegisterRequest) =>
  apiRequest<unknown>('/api/auth/register', {
    method: 'POST',
    body,
    defaultError: 'Registration failed',
  }).then(() => undefined);

export const useRegister = () => useMutation({ mutationFn: registerRequest });
