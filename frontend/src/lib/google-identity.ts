/**
 * Google Identity Services: loading Google's script on demand and getting an ID token from its
 * prompt (or, where the browser cannot show the prompt, from Google's own button). Signing in and
 * connecting an account in Settings both start here.
 */
import { useCallback, useRef, useState } from 'react';
import { themeStore, resolveTheme } from './theme-store';

export const MSG_GOOGLE_LOGIN_FAILED = 'Google login failed';

/** Google Identity Services, loaded on demand (the CSP allows it only when a client id is set). */
export const GOOGLE_SCRIPT_SRC = 'https://accounts.google.com/gsi/client';

type CredentialResponse = { credential?: string };

/** What the prompt reports (the FedCM prompt reports only skipped and dismissed moments). */
type PromptNotification = {
  isNotDisplayed?: () => boolean;
  isSkippedMoment?: () => boolean;
};

/** The part of `google.accounts.id` gifshelf uses. */
export type GoogleIdentity = {
  initialize(config: {
    client_id: string;
    callback: (response: CredentialResponse) => void;
    auto_select?: boolean;
    cancel_on_tap_outside?: boolean;
    use_fedcm_for_prompt?: boolean;
    context?: 'signin' | 'signup' | 'use';
    itp_support?: boolean;
  }): void;
  prompt(listener?: (notification: PromptNotification) => void): void;
  renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
};

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleIdentity } };
  }
}

const currentApi = (): GoogleIdentity | undefined => window.google?.accounts?.id;

let loading: Promise<GoogleIdentity> | null = null;

/** Loads Google's script once; a failed load can be retried. */
export function loadGoogleIdentity(): Promise<GoogleIdentity> {
  const ready = currentApi();
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GOOGLE_SCRIPT_SRC;
    script.async = true;
    script.onload = () => {
      const api = currentApi();
      if (api) resolve(api);
      else reject(new Error(MSG_GOOGLE_LOGIN_FAILED));
    };
    script.onerror = () => reject(new Error(MSG_GOOGLE_LOGIN_FAILED));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    document.querySelectorAll(`script[src="${GOOGLE_SCRIPT_SRC}"]`).forEach((s) => s.remove());
    throw error;
  });
  return loading;
}

// Google asks for one `initialize` per page; the handler of the latest click receives credentials.
let initializedFor: string | null = null;
let credentialHandler: (credential: string) => void = () => {};

function initializeOnce(api: GoogleIdentity, clientId: string): void {
  if (initializedFor === clientId) return;
  api.initialize({
    client_id: clientId,
    callback: (response) => credentialHandler(response.credential ?? ''),
    auto_select: false,
    cancel_on_tap_outside: true,
    use_fedcm_for_prompt: true,
    context: 'signin',
    itp_support: true,
  });
  initializedFor = clientId;
}

/** For tests: forget the loaded script and the initialization. */
export function resetGoogleIdentity(): void {
  loading = null;
  initializedFor = null;
  credentialHandler = () => {};
}

/**
 * Asks Google for an ID token: loads the script, shows the prompt and, where it cannot show,
 * renders Google's button into `fallbackRef`. The token goes to `onCredential`; a script that does
 * not load goes to `onError`.
 */
export function useGoogleCredential(
  clientId: string | null,
  onCredential: (credential: string) => void,
  onError: (error: unknown) => void,
  text: 'continue_with' | 'signin_with' = 'continue_with',
) {
  const fallbackRef = useRef<HTMLDivElement>(null);
  const [starting, setStarting] = useState(false);
  const [fallbackShown, setFallbackShown] = useState(false);

  const start = useCallback(async () => {
    if (!clientId || starting) return;
    setStarting(true);
    credentialHandler = onCredential;
    try {
      const api = await loadGoogleIdentity();
      initializeOnce(api, clientId);
      api.prompt((notification) => {
        if (!notification.isNotDisplayed?.() && !notification.isSkippedMoment?.()) return;
        const parent = fallbackRef.current;
        if (!parent) return;
        parent.replaceChildren();
        api.renderButton(parent, {
          type: 'standard',
          theme: resolveTheme(themeStore.getState().theme) === 'dark' ? 'filled_black' : 'outline',
          size: 'large',
          text,
          shape: 'pill',
          width: Math.min(400, Math.max(200, parent.clientWidth || 300)),
        });
        setFallbackShown(true);
      });
    } catch (error) {
      onError(error);
    } finally {
      setStarting(false);
    }
  }, [clientId, onCredential, onError, starting, text]);

  return { start, fallbackRef, fallbackShown, starting };
}
