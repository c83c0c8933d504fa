/**
 * The one HTTP client of the app (spec §7, §8): bearer header on every call except /auth/ paths,
 * session checks before each request, and the error catalogue's messages.
 */
import { AUTH_FAILED_EVENT, MSG_SESSION_EXPIRED, forceLogout, sessionStore } from './session';
import { isTokenExpired } from './jwt';

export const MSG_NO_TOKEN = 'No authentication token';
export const MSG_TOKEN_EXPIRED = 'Token expired';
export const MSG_SERVER_ERROR = 'Server error - please try again later';
export const MSG_NETWORK_ERROR = 'Network error - check your connection';
export const authFailedMessage = (status: number) =>
  `Authentication failed (${status}) - please log in again`;

export class ApiError extends Error {
  readonly status: number | null;
  readonly code: string | null;

  constructor(message: string, status: number | null = null, code: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RequestOptions = {
  method?: HttpMethod;
  /** Serialised as JSON. */
  body?: unknown;
  /** Message used when the server's error body carries neither `error` nor `message`. */
  defaultError?: string;
  /** False for public endpoints (e.g. /api/config): no token is needed, one is sent if present. */
  requiresAuth?: boolean;
  signal?: AbortSignal;
};

const isAuthUrl = (path: string) => path.includes('/auth/');

function readErrorField(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  if (typeof record.error === 'string' && record.error) return record.error;
  if (typeof record.message === 'string' && record.message) return record.message;
  return null;
}

function readCode(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const code = (body as Record<string, unknown>).code;
  return typeof code === 'string' ? code : null;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, defaultError, requiresAuth = true, signal } = options;
  const authUrl = isAuthUrl(path);
  const token = sessionStore.getState().token;
  const headers: Record<string, string> = { Accept: 'application/json' };

  if (!authUrl) {
    if (token) {
      if (isTokenExpired(token)) {
        forceLogout(MSG_SESSION_EXPIRED);
        throw new ApiError(MSG_TOKEN_EXPIRED);
      }
      headers.Authorization = `Bearer ${token}`;
    } else if (requiresAuth) {
      throw new ApiError(MSG_NO_TOKEN);
    }
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(MSG_NETWORK_ERROR);
  }

  const payload = await readBody(response).catch(() => undefined);

  if (!response.ok) {
    const status = response.status;
    if ((status === 401 || status === 403) && !authUrl && sessionStore.getState().token) {
      const message = authFailedMessage(status);
      window.dispatchEvent(new CustomEvent(AUTH_FAILED_EVENT, { detail: message }));
      throw new ApiError(message, status, readCode(payload));
    }
    if (status >= 500) throw new ApiError(MSG_SERVER_ERROR, status, readCode(payload));
    throw new ApiError(
      readErrorField(payload) ?? defaultError ?? `Request failed (${status})`,
      status,
      readCode(payload),
    );
  }
  return payload as T;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
