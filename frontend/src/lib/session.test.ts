import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { urlOf } from '@/test/fetch';
import { tokenFor } from '@/test/tokens';
import { setNavigate } from './navigation';
import {
  AUTH_FAILED_EVENT,
  checkToken,
  initSession,
  isMonitoring,
  login,
  logout,
  sessionStore,
} from './session';
import { toastStore } from './toast-store';

const navigate = vi.fn<(to: string) => void>();
let cleanup: (() => void) | null = null;
const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(new Response(null, { status: 204 })));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
  navigate.mockReset();
  setNavigate(navigate);
  logout();
  toastStore.getState().clearAll();
});

afterEach(() => {
  cleanup?.();
  cleanup = null;
  logout();
  toastStore.getState().clearAll();
  setNavigate(null);
  vi.useRealTimers();
  fetchMock.mockClear();
  vi.unstubAllGlobals();
});

const calls = () => fetchMock.mock.calls.map(([url, init]) => [urlOf(url), init?.headers]);

const errorToasts = () => toastStore.getState().toasts.filter((t) => t.type === 'error');

describe('session start', () => {
  it('restores a stored, valid session and starts monitoring', () => {
    const token = tokenFor('alice', 3600, 'ROLE_USER,ROLE_ADMIN');
    localStorage.setItem('token', token);
    localStorage.setItem('username', 'alice');
    cleanup = initSession();
    expect(sessionStore.getState()).toMatchObject({
      token,
      username: 'alice',
      roles: ['USER', 'ADMIN'],
      isAuthenticated: true,
    });
    expect(sessionStore.getState().expiresAt).toBe(Date.now() + 3600_000);
    expect(isMonitoring()).toBe(true);
  });

  it('removes an expired session and forces the user out', () => {
    localStorage.setItem('token', tokenFor('alice', -10));
    localStorage.setItem('username', 'alice');
    cleanup = initSession();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('username')).toBeNull();
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(errorToasts()).toEqual([
      expect.objectContaining({ message: 'Session expired on app start', duration: 3000 }),
    ]);
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('treats an unreadable stored token as expired', () => {
    localStorage.setItem('token', 'not-a-jwt');
    localStorage.setItem('username', 'alice');
    cleanup = initSession();
    expect(localStorage.getItem('token')).toBeNull();
    expect(errorToasts()[0]?.message).toBe('Session expired on app start');
  });

  it('does nothing without a stored token', () => {
    cleanup = initSession();
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(toastStore.getState().toasts).toEqual([]);
    expect(isMonitoring()).toBe(false);
  });
});

describe('login and logout', () => {
  it('stores token and username and starts monitoring', () => {
    const token = tokenFor('bob', 3600);
    login(token, 'bob');
    expect(localStorage.getItem('token')).toBe(token);
    expect(localStorage.getItem('username')).toBe('bob');
    expect(sessionStore.getState()).toMatchObject({ isAuthenticated: true, roles: ['USER'] });
    expect(isMonitoring()).toBe(true);
  });

  it('rejects an unparseable token', () => {
    expect(() => login('nonsense', 'bob')).toThrow('Invalid token received from server');
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStore.getState().isAuthenticated).toBe(false);
  });

  it('logout clears both keys and stops monitoring', () => {
    login(tokenFor('bob', 3600), 'bob');
    logout();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('username')).toBeNull();
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(isMonitoring()).toBe(false);
  });
});

describe('monitoring', () => {
  it('checks every 30 s and forces logout once the token has expired', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    login(tokenFor('carol', 45), 'carol');
    vi.advanceTimersByTime(30_000);
    expect(sessionStore.getState().isAuthenticated).toBe(true);
    vi.advanceTimersByTime(30_000);
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(errorToasts()[0]).toMatchObject({ message: 'Your session has expired', duration: 3000 });
    vi.advanceTimersByTime(100);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(isMonitoring()).toBe(false);
  });

  it('logs a warning (only) within 5 minutes of expiry', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    login(tokenFor('dave', 5 * 60 + 20), 'dave');
    vi.advanceTimersByTime(30_000);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(sessionStore.getState().isAuthenticated).toBe(true);
    expect(toastStore.getState().toasts).toEqual([]);
  });

  it('stops when the token disappears', () => {
    login(tokenFor('erin', 3600), 'erin');
    localStorage.removeItem('token');
    checkToken();
    expect(isMonitoring()).toBe(false);
    expect(toastStore.getState().toasts).toEqual([]);
  });

  it('forces logout with the detail of a window "auth-failed" event', () => {
    cleanup = initSession();
    login(tokenFor('frank', 3600), 'frank');
    window.dispatchEvent(new CustomEvent(AUTH_FAILED_EVENT, { detail: 'Go away' }));
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(errorToasts()[0]?.message).toBe('Go away');
    vi.advanceTimersByTime(3000 + 300);
    expect(toastStore.getState().toasts).toEqual([]);
  });
});

describe('the media cookie', () => {
  it('is asked for with the bearer token when a stored session is restored', () => {
    const token = tokenFor('alice', 3600);
    localStorage.setItem('token', token);
    localStorage.setItem('username', 'alice');
    fetchMock.mockClear();
    cleanup = initSession();
    expect(calls()).toEqual([['/api/auth/session', { Authorization: `Bearer ${token}` }]]);
  });

  it('is cleared by the server on logout, and only when there was a session', () => {
    fetchMock.mockClear();
    logout();
    expect(calls()).toEqual([]);
    login(tokenFor('bob', 3600), 'bob');
    fetchMock.mockClear();
    logout();
    expect(calls()).toEqual([['/api/auth/logout', {}]]);
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'POST', credentials: 'same-origin' });
  });

  it('a server that cannot be reached changes nothing for the user', async () => {
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
    localStorage.setItem('token', tokenFor('bob', 3600));
    localStorage.setItem('username', 'bob');
    cleanup = initSession();
    await vi.advanceTimersByTimeAsync(0);
    expect(sessionStore.getState().isAuthenticated).toBe(true);
  });
});
