import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { urlOf } from '@/test/fetch';
import { tokenFor } from '@/test/tokens';
import { ApiError, apiRequest, apiUpload } from './api-client';
import { setNavigate } from './navigation';
import { AUTH_FAILED_EVENT, login, logout, sessionStore } from './session';
import { toastStore } from './toast-store';

const fetchMock = vi.fn<typeof fetch>();

function respond(status: number, body?: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  fetchMock.mockResolvedValueOnce(new Response(status === 204 ? null : text, { status, headers }));
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  setNavigate(() => {});
  logout();
});

afterEach(() => {
  logout();
  toastStore.getState().clearAll();
  setNavigate(null);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const headersOf = (call: number) => new Headers(fetchMock.mock.calls[call]?.[1]?.headers);

describe('authorization header', () => {
  it('sends the bearer token on protected calls', async () => {
    const token = tokenFor('alice', 3600);
    login(token, 'alice');
    respond(200, { username: 'alice', email: 'a@example.com' });
    await expect(apiRequest('/api/settings/profile')).resolves.toEqual({
      username: 'alice',
      email: 'a@example.com',
    });
    expect(headersOf(0).get('Authorization')).toBe(`Bearer ${token}`);
  });

  it('never sends it to /auth/ paths', async () => {
    login(tokenFor('alice', 3600), 'alice');
    respond(200, { token: 't' });
    await apiRequest('/api/auth/login', { method: 'POST', body: { username: 'a', password: 'b' } });
    expect(headersOf(0).get('Authorization')).toBeNull();
    expect(headersOf(0).get('Content-Type')).toBe('application/json');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"username":"a","password":"b"}');
  });

  it('fails a protected call without a token, sending nothing', async () => {
    await expect(apiRequest('/api/settings/profile')).rejects.toThrow('No authentication token');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('lets public calls through without a token', async () => {
    respond(200, { googleClientId: null, maxUploadBytes: 1, version: '1' });
    await apiRequest('/api/config', { requiresAuth: false });
    expect(headersOf(0).get('Authorization')).toBeNull();
  });

  it('fails with "Token expired" and forces logout ("Session expired") on an expired token', async () => {
    vi.useFakeTimers();
    login(tokenFor('alice', 10), 'alice');
    vi.advanceTimersByTime(11_000);
    await expect(apiRequest('/api/settings/profile')).rejects.toThrow('Token expired');
    // The request itself is never sent; the forced logout tells the server to drop the media cookie.
    expect(fetchMock.mock.calls.map(([url]) => urlOf(url))).toEqual(['/api/auth/logout']);
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(toastStore.getState().toasts[0]).toMatchObject({
      type: 'error',
      message: 'Session expired',
    });
  });
});

describe('error mapping', () => {
  it.each([401, 403])('dispatches auth-failed on %i for a non-auth URL with a token', async (status) => {
    login(tokenFor('alice', 3600), 'alice');
    const seen: unknown[] = [];
    const listener = (e: Event) => seen.push((e as CustomEvent).detail);
    window.addEventListener(AUTH_FAILED_EVENT, listener);
    respond(status, { error: 'nope', code: 'unauthorized' });
    const message = `Authentication failed (${status}) - please log in again`;
    await expect(apiRequest('/api/settings/profile')).rejects.toThrow(message);
    window.removeEventListener(AUTH_FAILED_EVENT, listener);
    expect(seen).toEqual([message]);
  });

  it('signs a disabled account out with the server sentence', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const seen: unknown[] = [];
    const listener = (e: Event) => seen.push((e as CustomEvent).detail);
    window.addEventListener(AUTH_FAILED_EVENT, listener);
    const sentence = 'This account has been disabled. Ask an administrator.';
    respond(401, { error: sentence, code: 'account_disabled' });
    await expect(apiRequest('/api/gifs/dtos')).rejects.toMatchObject({
      message: sentence,
      status: 401,
      code: 'account_disabled',
    });
    window.removeEventListener(AUTH_FAILED_EVENT, listener);
    expect(seen).toEqual([sentence]);
  });

  it('passes 401 from auth URLs through with the server message', async () => {
    const listener = vi.fn();
    window.addEventListener(AUTH_FAILED_EVENT, listener);
    respond(401, { error: 'Invalid username or password', code: 'unauthorized' });
    const failure = apiRequest('/api/auth/login', { method: 'POST', defaultError: 'Login failed' });
    await expect(failure).rejects.toMatchObject({
      message: 'Invalid username or password',
      status: 401,
      code: 'unauthorized',
    });
    window.removeEventListener(AUTH_FAILED_EVENT, listener);
    expect(listener).not.toHaveBeenCalled();
  });

  it('maps 5xx to the server error sentence', async () => {
    respond(503, { error: 'db down' });
    await expect(apiRequest('/api/auth/login', { method: 'POST' })).rejects.toThrow(
      'Server error - please try again later',
    );
  });

  it('maps a failed fetch to the network error sentence', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiRequest('/api/auth/login', { method: 'POST' })).rejects.toThrow(
      'Network error - check your connection',
    );
  });

  it('reads error, else message, else the default', async () => {
    respond(409, { error: 'Username already taken', code: 'conflict' });
    await expect(
      apiRequest('/api/auth/register', { method: 'POST', defaultError: 'Registration failed' }),
    ).rejects.toThrow('Username already taken');

    respond(400, { message: 'Bad input' });
    await expect(
      apiRequest('/api/auth/register', { method: 'POST', defaultError: 'Registration failed' }),
    ).rejects.toThrow('Bad input');

    respond(400, 'not json');
    await expect(
      apiRequest('/api/auth/register', { method: 'POST', defaultError: 'Registration failed' }),
    ).rejects.toThrow('Registration failed');

    respond(429, { error: 'Too many login attempts', code: 'rate_limited' }, { 'Retry-After': '30' });
    const throttled = await apiRequest('/api/auth/login', {
      method: 'POST',
      defaultError: 'Login failed',
    }).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ApiError);
    expect(throttled).toMatchObject({ message: 'Too many login attempts', status: 429 });
  });

  it('resolves empty 201/204 bodies to undefined', async () => {
    respond(201);
    await expect(apiRequest('/api/auth/register', { method: 'POST' })).resolves.toBeUndefined();
    login(tokenFor('alice', 3600), 'alice');
    respond(204);
    await expect(apiRequest('/api/settings/password', { method: 'PUT' })).resolves.toBeUndefined();
  });
});

describe('apiUpload (XHR with progress)', () => {
  let FakeXhr: typeof import('@/test/fake-xhr').FakeXhr;
  beforeEach(async () => {
    ({ FakeXhr } = await import('@/test/fake-xhr'));
    FakeXhr.reset();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });

  it('sends the bearer header, reports progress and resolves with the JSON body', async () => {
    const token = tokenFor('alice', 3600);
    login(token, 'alice');
    const progress: number[] = [];
    const form = new FormData();
    const pending = apiUpload<{ id: number }>('/api/gifs', form, { onProgress: (f) => progress.push(f) });
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/gifs');
    expect(xhr.headers.Authorization).toBe(`Bearer ${token}`);
    expect(xhr.headers['Content-Type']).toBeUndefined();
    expect(xhr.body).toBe(form);
    xhr.progress(25, 100);
    xhr.progress(100, 100);
    xhr.respond(201, { id: 7 });
    await expect(pending).resolves.toEqual({ id: 7 });
    expect(progress).toEqual([0.25, 1, 1]);
  });

  it('keeps the status and code of an error answer', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const pending = apiUpload('/api/gifs', new FormData(), { defaultError: 'Failed to upload gif' });
    FakeXhr.last().respond(413, { error: 'The file is larger than the 10 MB limit.', code: 'too_large' });
    await expect(pending).rejects.toMatchObject({
      message: 'The file is larger than the 10 MB limit.',
      status: 413,
      code: 'too_large',
    });
    const second = apiUpload('/api/gifs', new FormData(), { defaultError: 'Failed to upload gif' });
    FakeXhr.last().respond(400);
    await expect(second).rejects.toMatchObject({ message: 'Failed to upload gif', status: 400 });
  });

  it('maps 5xx, network errors and 401/403 like apiRequest', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const server = apiUpload('/api/gifs', new FormData());
    FakeXhr.last().respond(503, { error: 'busy', code: 'busy' });
    await expect(server).rejects.toMatchObject({ message: 'Server error - please try again later', status: 503 });

    const offline = apiUpload('/api/gifs', new FormData());
    FakeXhr.last().fail();
    await expect(offline).rejects.toThrow('Network error - check your connection');

    const events: string[] = [];
    const listener = (event: Event) => events.push(String((event as CustomEvent).detail));
    window.addEventListener(AUTH_FAILED_EVENT, listener);
    const denied = apiUpload('/api/gifs', new FormData());
    FakeXhr.last().respond(401, { error: 'nope' });
    await expect(denied).rejects.toMatchObject({ status: 401 });
    window.removeEventListener(AUTH_FAILED_EVENT, listener);
    expect(events).toEqual(['Authentication failed (401) - please log in again']);
  });

  it('checks the session first: no token, expired token', async () => {
    await expect(apiUpload('/api/gifs', new FormData())).rejects.toThrow('No authentication token');
    vi.useFakeTimers();
    login(tokenFor('alice', 10), 'alice');
    vi.advanceTimersByTime(11_000);
    await expect(apiUpload('/api/gifs', new FormData())).rejects.toThrow('Token expired');
    expect(FakeXhr.instances).toHaveLength(0);
    expect(sessionStore.getState().isAuthenticated).toBe(false);
  });

  it('aborts through the signal', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const controller = new AbortController();
    const pending = apiUpload('/api/gifs', new FormData(), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last().aborted).toBe(true);
  });
});
