import { toastStore } from '@/lib/toast-store';

export const MSG_GOOGLE_LOGIN_FAILED = 'Google login failed';

/**
 * Starts third-party sign-in with the server's configured client id. Not wired to the provider
 * yet: it reports failure, so the button never pretends to work.
 */
export async function signInWithGoogle(_clientId?: string): Promise<void> {
  toastStore.getState().error(MSG_GOOGLE_LOGIN_FAILED);
}
