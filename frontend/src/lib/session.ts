import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { isTokenExpired, parseToken } from './jwt';
import { navigateTo } from './navigation';
import { toastStore } from './toast-store';

export const TOKEN_KEY = 'token';
export const USERNAME_KEY = 'username';
export const TOKEN_CHECK_INTERVAL_MS = 30_000;
export const EXPIRY_WARNING_MS = 5 * 60_000;
export const FORCED_LOGOUT_TOAST_MS = 3000;
export const FORCED_LOGOUT_REDIRECT_MS = 100;
export const AUTH_FAILED_EVENT = 'auth-failed';

export const MSG_SESSION_EXPIRED_ON_START = 'Session expired on app start';
export const MSG_SESSION_EXPIRED_MONITOR = 'Your session has expired';
export const MSG_SESSION_EXPIRED = 'Session expired';
export const MSG_INVALID_TOKEN = 'Invalid token received from server';

/** Sets the HttpOnly session cookie that lets `<img>` tags load media, from the bearer token. */
export const SESSION_COOKIE_URL = '/api/auth/session';
/** Clears that cookie. */
export const LOGOUT_URL = '/api/auth/logout';

export type SessionState = {
  token: string | null;
  username: string | null;
  roles: string[];
  /** Expiry in ms since the epoch, from the token's exp claim. */
  expiresAt: number | null;
  isAuthenticated: boolean;
};

const signedOut: SessionState = {
  token: null,
  username: null,
  roles: [],
  expiresAt: null,
  isAuthenticated: false,
};

export const sessionStore = createStore<SessionState>()(() => ({ ...signedOut }));

let monitor: ReturnType<typeof setInterval> | null = null;
let warnedFor: string | null = null;

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function clearStorage(): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
    window.localStorage.removeItem(USERNAME_KEY);
  } catch {
    // storage unavailable: nothing to clear
  }
}

/** Fire-and-forget calls that keep the media cookie in step with the session (a failure only means
 * images need the next sign-in; it never blocks the app). */
function tellServer(url: string, token?: string): void {
  if (typeof fetch !== 'function') return;
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  try {
    void Promise.resolve(fetch(url, { method: 'POST', headers, credentials: 'same-origin' })).catch(
      () => undefined,
    );
  } catch {
    // no network layer at all: nothing to tell
  }
}

function signIn(token: string, username: string): void {
  const claims = parseToken(token);
  if (!claims) throw new Error(MSG_INVALID_TOKEN);
  sessionStore.setState({
    token,
    username,
    roles: claims.roles,
    expiresAt: claims.exp * 1000,
    isAuthenticated: true,
  });
  startMonitoring();
}

/** Stores a fresh login token. Throws "Invalid token received from server" if it cannot be read. */
export function login(token: string, username?: string): void {
  const claims = parseToken(token);
  if (!claims) throw new Error(MSG_INVALID_TOKEN);
  const name = claims.sub ?? username;
  if (!name) throw new Error(MSG_INVALID_TOKEN);
  window.localStorage.setItem(TOKEN_KEY, token);
  window.localStorage.setItem(USERNAME_KEY, name);
  // The response that brought the token (login, password change) set the media cookie too.
  signIn(token, name);
}

/** Clears the session (both storage keys and the server's media cookie) and stops monitoring. */
export function logout(): void {
  if (sessionStore.getState().isAuthenticated || readStorage(TOKEN_KEY)) tellServer(LOGOUT_URL);
  stopMonitoring();
  clearStorage();
  warnedFor = null;
  sessionStore.setState({ ...signedOut });
}

/** Clears auth, shows a red notification for 3 s, then goes to /login after 100 ms. */
export function forceLogout(message: string): void {
  logout();
  toastStore.getState().error(message, { duration: FORCED_LOGOUT_TOAST_MS });
  setTimeout(() => navigateTo('/login'), FORCED_LOGOUT_REDIRECT_MS);
}

/** Restores a stored session at app start; an expired or unreadable token forces the user out. */
export function restoreSession(): void {
  const token = readStorage(TOKEN_KEY);
  if (!token) return;
  const claims = parseToken(token);
  if (!claims || isTokenExpired(token)) {
    clearStorage();
    forceLogout(MSG_SESSION_EXPIRED_ON_START);
    return;
  }
  const username = readStorage(USERNAME_KEY) ?? claims.sub;
  if (!username) {
    clearStorage();
    forceLogout(MSG_SESSION_EXPIRED_ON_START);
    return;
  }
  signIn(token, username);
  tellServer(SESSION_COOKIE_URL, token);
}

/** One monitoring tick: stops without a token, logs out when expired, warns 5 minutes ahead. */
export function checkToken(now: number = Date.now()): void {
  const token = readStorage(TOKEN_KEY);
  if (!token) {
    stopMonitoring();
    return;
  }
  const claims = parseToken(token);
  if (!claims || claims.exp * 1000 <= now) {
    forceLogout(MSG_SESSION_EXPIRED_MONITOR);
    return;
  }
  const remaining = claims.exp * 1000 - now;
  if (remaining <= EXPIRY_WARNING_MS && warnedFor !== token) {
    warnedFor = token;
    console.warn(`Session token expires in ${Math.ceil(remaining / 60_000)} minute(s)`);
  }
}

export function startMonitoring(): void {
  stopMonitoring();
  monitor = setInterval(() => checkToken(), TOKEN_CHECK_INTERVAL_MS);
}

export function stopMonitoring(): void {
  if (monitor !== null) {
    clearInterval(monitor);
    monitor = null;
  }
}

export function isMonitoring(): boolean {
  return monitor !== null;
}

/** Restores the session and listens for the window "auth-failed" event. Returns a cleanup. */
export function initSession(): () => void {
  const onAuthFailed = (event: Event) => {
    const detail: unknown = event instanceof CustomEvent ? event.detail : undefined;
    forceLogout(typeof detail === 'string' && detail ? detail : MSG_SESSION_EXPIRED);
  };
  window.addEventListener(AUTH_FAILED_EVENT, onAuthFailed);
  restoreSession();
  return () => {
    window.removeEventListener(AUTH_FAILED_EVENT, onAuthFailed);
    stopMonitoring();
  };
}

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

export const useIsAuthenticated = () => useSession((s) => s.isAuthenticated);
export const useUsername = () => useSession((s) => s.username);
export const useIsAdmin = () => useSession((s) => s.roles.includes('ADMIN'));
