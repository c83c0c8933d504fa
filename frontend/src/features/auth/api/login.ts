import { useMutation } from '@tanstack/react-query';
import type { LoginRequest } from '@/api/generated/LoginRequest';
import type { TokenResponse } from '@/api/generated/TokenResponse';
import { apiRequest } from '@/lib/api-client';
import { login as storeSession } from '@/lib/session';

/** POST /api/auth/login → {token}. */
export const loginRequest = (body: LoginRequest) =>
  apiRequest<TokenResponse>('/api/auth/login', {
    method: 'POST',
    body,
    defaultError: 'Login failed',
  });

/** Logs in and stores the session (throws "Invalid token received from server" on a bad token). */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginRequest) => {
      const { token } = await loginRequest(body);
      storeSession(token, body.username);
    },
  });
}
