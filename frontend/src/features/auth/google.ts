import { useMutation } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useToast } from '@/components/toast/toast-provider';
import type { GoogleLoginRequest } from '@/api/generated/GoogleLoginRequest';
import type { TokenResponse } from '@/api/generated/TokenResponse';
import { apiRequest, errorMessage } from '@/lib/api-client';
import { MSG_GOOGLE_LOGIN_FAILED, useGoogleCredential } from '@/lib/google-identity';
import { login as storeSession } from '@/lib/session';

export {
  GOOGLE_SCRIPT_SRC,
  MSG_GOOGLE_LOGIN_FAILED,
  loadGoogleIdentity,
  resetGoogleIdentity,
  type GoogleIdentity,
} from '@/lib/google-identity';

/** POST /api/auth/google {token} → {token}; stores the session exactly like a password login. */
export const googleLoginRequest = (body: GoogleLoginRequest) =>
  apiRequest<TokenResponse>('/api/auth/google', {
    method: 'POST',
    body,
    requiresAuth: false,
    defaultError: MSG_GOOGLE_LOGIN_FAILED,
  });

export function useGoogleLogin() {
  return useMutation({
    mutationFn: async ({ credential, invite }: { credential: string; invite?: string | undefined }) => {
      if (!credential) throw new Error(MSG_GOOGLE_LOGIN_FAILED);
      const { token } = await googleLoginRequest({ token: credential, ...(invite ? { invite } : {}) });
      storeSession(token);
    },
  });
}

/**
 * "Continue with Google": an ID token from Google's prompt (or its button) is sent to the server;
 * `onSignedIn` runs once the session is stored. `invite`: the invitation token of a /join link, for a
 * first sign-in that makes an account.
 */
export function useGoogleSignIn(clientId: string | null, onSignedIn: () => void, invite?: string) {
  const googleLogin = useGoogleLogin();
  const toast = useToast();
  const onCredential = useCallback(
    (credential: string) =>
      googleLogin.mutate({ credential, invite }, {
        onSuccess: onSignedIn,
        onError: (error) => {
          toast.error(errorMessage(error, MSG_GOOGLE_LOGIN_FAILED));
        },
      }),
    [googleLogin, onSignedIn, toast, invite],
  );
  const onError = useCallback(
    (error: unknown) => toast.error(errorMessage(error, MSG_GOOGLE_LOGIN_FAILED)),
    [toast],
  );
  const google = useGoogleCredential(clientId, onCredential, onError);
  return {
    start: google.start,
    fallbackRef: google.fallbackRef,
    fallbackShown: google.fallbackShown,
    pending: google.starting || googleLogin.isPending,
  };
}
