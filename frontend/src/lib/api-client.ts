/**
 * The one HTTP client of the app (spec §7, §8): bearer header on every call except /auth/ paths,
 * session checks before each request, and the error catalogue's messages.
 */
import type { ErrorCode } from '@/api/generated/ErrorCode';
import { AUTH_FAILED_EVENT, MSG_SESSION_EXPIRED, forceLogout, sessionStore } from './session';
import { isTokenExpired } from './jwt';

export const MSG_NO_TOKEN = 'No authentication token';
export const MSG_TOKEN_EXPIRED = 'Token expired';
export const MSG_SERVER_ERROR = 'Server error - please try again later';
export const MSG_NETWORK_ERROR = 'Network error - check your connection';
export const authFailedMessage = (status: number) =>
  `Authentication failed (${status}) - please log in again`;

/**
 * Every machine code the server sends, checked by the compiler against the generated type: a code
 * added on the server fails the build here until the app knows it.
 */
const ERROR_CODES: Record<ErrorCode, true> = {
  bad_request: true,
  validation: true,
  unauthorized: true,
  token_expired: true,
  account_disabled: true,
  last_admin: true,
  own_account: true,
  forbidden: true,
  registration_closed: true,
  invitation_required: true,
  invitation_invalid: true,
  email_domain_not_allowed: true,
  not_found: true,
  conflict: true,
  username_taken: true,
  email_taken: true,
  last_sign_in_method: true,
  identity_taken: true,
  provider_already_linked: true,
  no_free_username: true,
  tag_name_taken: true,
  share_id_taken: true,
  api_key_limit: true,
  integration_limit: true,
  changed_meanwhile: true,
  own_gif: true,
  report_closed: true,
  too_large: true,
  unsupported_media_type: true,
  request_timeout: true,
  too_many_requests: true,
  unavailable: true,
  not_configured: true,
  unsupported_type: true,
  invalid_image: true,
  image_too_large: true,
  image_too_complex: true,
  url_refused: true,
  url_fetch_failed: true,
  duplicate: true,
  quota_exceeded: true,
  reset_invalid: true,
  internal: true,
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

export class ApiError extends Error {
  readonly status: number | null;
  readonly code: ErrorCode | null;
  /** The error body as the server sent it (for fields beside `error` and `code`). */
  readonly payload: unknown;
  /** With `duplicate`: the GIF of the library the upload is identical to. */
  readonly existingId: number | null;

  constructor(message: string, status: number | null = null, code: ErrorCode | null = null, payload: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.payload = payload;
    this.existingId = readExistingId(payload);
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

function readExistingId(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const id = (body as Record<string, unknown>).existingId;
  return typeof id === 'number' ? id : null;
}

function readCode(body: unknown): ErrorCode | null {
  if (typeof body !== 'object' || body === null) return null;
  const code = (body as Record<string, unknown>).code;
  return isErrorCode(code) ? code : null;
}

async function readBody(response: Response): Promise<unknown> {
  return parseText(await response.text());
}

/**
 * The bearer header for `path` (none for /auth/ paths). Throws "No authentication token" when a
 * protected call has no token, and "Token expired" (forcing a logout) when the token has expired.
 */
function authHeaders(path: string, requiresAuth: boolean): Record<string, string> {
  if (isAuthUrl(path)) return {};
  const token = sessionStore.getState().token;
  if (token) {
    if (isTokenExpired(token)) {
      forceLogout(MSG_SESSION_EXPIRED);
      throw new ApiError(MSG_TOKEN_EXPIRED);
    }
    return { Authorization: `Bearer ${token}` };
  }
  if (requiresAuth) throw new ApiError(MSG_NO_TOKEN);
  return {};
}

/** The error for a non-2xx answer (spec §8); 401/403 on a non-auth URL fires "auth-failed". */
function failure(path: string, status: number, payload: unknown, defaultError?: string): ApiError {
  const code = readCode(payload);
  if ((status === 401 || status === 403) && !isAuthUrl(path) && sessionStore.getState().token) {
    // A disabled account is signed out with the server's sentence, which says why.
    const message =
      code === 'account_disabled'
        ? (readErrorField(payload) ?? authFailedMessage(status))
        : authFailedMessage(status);
    window.dispatchEvent(new CustomEvent(AUTH_FAILED_EVENT, { detail: message }));
    return new ApiError(message, status, code, payload);
  }
  if (status >= 500) return new ApiError(MSG_SERVER_ERROR, status, code, payload);
  return new ApiError(
    readErrorField(payload) ?? defaultError ?? `Request failed (${status})`,
    status,
    code,
    payload,
  );
}

function parseText(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, defaultError, requiresAuth = true, signal } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...authHeaders(path, requiresAuth),
  };
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
  if (!response.ok) throw failure(path, response.status, payload, defaultError);
  return payload as T;
}

export type UploadOptions = {
  method?: 'POST' | 'PUT';
  defaultError?: string;
  /** Called with the fraction of the body sent so far (0 to 1). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

/**
 * Sends multipart form data with XMLHttpRequest, so that upload progress can be reported. Same
 * rules as `apiRequest`: bearer header, expired-token check, auth-failed event, error messages.
 */
export function apiUpload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const { method = 'POST', defaultError, onProgress, signal } = options;
  return new Promise<T>((resolve, reject) => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...authHeaders(path, true),
    };
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
    }
    const onAbortSignal = () => xhr.abort();
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbortSignal);
    xhr.onload = () => {
      done();
      const payload = parseText(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(payload as T);
      } else {
        reject(failure(path, xhr.status, payload, defaultError));
      }
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(MSG_NETWORK_ERROR));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was aborted.', 'AbortError'));
    };
    xhr.send(form);
  });
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
