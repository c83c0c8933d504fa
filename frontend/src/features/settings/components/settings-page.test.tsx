import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout, sessionStore } from '@/lib/session';
import { answering, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { validateUsername } from '../validation';
import { SettingsPage } from './settings-page';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Handler = (init: RequestInit | undefined) => Response;
/** What every settings page also asks: the server's configuration, the connected sign-in, the usage, the API keys. */
const defaults: Record<string, Handler> = {
  'GET /api/config': () => json(200, { googleClientId: null, maxUploadBytes: 10485760, version: 'test' }),
  'GET /api/settings/identities': () => json(200, []),
  'GET /api/keys': () => json(200, []),
  'GET /api/settings/usage': () =>
    json(200, { storageBytes: 0, storageLimit: null, uploadsToday: 0, uploadsPerDay: null }),
};
function serve(handlers: Record<string, Handler>) {
  fetchMock.mockImplementation(answering((input, init) => {
    const key = `${init?.method ?? 'GET'} ${urlOf(input)}`;
    const handler = handlers[key] ?? defaults[key];
    if (!handler) throw new TypeError(`unexpected ${key}`);
    return handler(init);
  }));
}
const profile: Handler = () =>
  json(200, { username: 'alice', email: 'alice@example.com', hasPassword: true });
const callsTo = (key: string) =>
  fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${urlOf(url)}` === key);

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const change = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('SettingsPage', () => {
  it('loads the profile: editable username, read-only email with the warning', async () => {
    serve({ 'GET /api/settings/profile': profile });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByText('Loading user profile...')).toBeInTheDocument();
    expect(await screen.findByLabelText('Username')).toHaveValue('alice');
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('alice@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription(
      'Beware: If Google Login is used, changing this Email will break it.',
    );
    expect(screen.getByRole('heading', { name: 'Profile Settings' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
  });

  it('shows the load error with the server message', async () => {
    serve({ 'GET /api/settings/profile': () => json(404, { error: 'User not found', code: 'not_found' }) });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load user profile: User not found',
    );
  });

  it('rejects a too short username without sending it', async () => {
    serve({ 'GET /api/settings/profile': profile });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('Username');
    change('Username', 'ab');
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Username must be between 3 and 50 characters')).toBeInTheDocument();
    expect(callsTo('PUT /api/settings/profile')).toHaveLength(0);
  });

  it('after a username change, shows the message and logs out to /login after 2 s', async () => {
    serve({
      'GET /api/settings/profile': profile,
      'PUT /api/settings/profile': () => json(200, { username: 'alicia', email: 'alice@example.com' }),
    });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('Username');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    change('Username', 'alicia');
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(
      await screen.findByText(
        'Profile updated successfully. Please log in again with your new username.',
      ),
    ).toBeInTheDocument();
    expect(sentJson(callsTo('PUT /api/settings/profile')[0]?.[1])).toEqual({
      username: 'alicia',
      email: null,
    });
    expect(sessionStore.getState().isAuthenticated).toBe(true);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  });

  it('shows the update error from the server, else "Failed to update profile"', async () => {
    serve({
      'GET /api/settings/profile': profile,
      'PUT /api/settings/profile': () => json(409, { error: 'Username already taken', code: 'conflict' }),
    });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('Username');
    change('Username', 'bob');
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Username already taken');

    serve({
      'GET /api/settings/profile': profile,
      'PUT /api/settings/profile': () => new Response('', { status: 400 }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Failed to update profile'),
    );
  });

  it('shows "New passwords do not match" and sends nothing on a mismatch', async () => {
    serve({ 'GET /api/settings/profile': profile });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('New Password');
    change('Current Password', 'oldpass1');
    change('New Password', 'newpass1');
    change('Confirm New Password', 'newpass2');
    fireEvent.submit(screen.getByLabelText('Confirm New Password'));
    expect(await screen.findByText('New passwords do not match')).toBeInTheDocument();
    expect(callsTo('PUT /api/settings/password')).toHaveLength(0);
  });

  it('requires the current password and both new ones of at least 6 characters', async () => {
    serve({ 'GET /api/settings/profile': profile });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('New Password');
    change('New Password', '123');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm the new password')).toBeInTheDocument();
    expect(callsTo('PUT /api/settings/password')).toHaveLength(0);
  });

  it('changes the password: success message, both fields cleared, the fresh token kept', async () => {
    const fresh = tokenFor('alice', 7200);
    serve({
      'GET /api/settings/profile': profile,
      'PUT /api/settings/password': () => json(200, { token: fresh }),
    });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('New Password');
    change('Current Password', 'oldpass1');
    change('New Password', 'newpass1');
    change('Confirm New Password', 'newpass1');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
    expect(screen.getByLabelText('New Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm New Password')).toHaveValue('');
    expect(sentJson(callsTo('PUT /api/settings/password')[0]?.[1])).toEqual({
      currentPassword: 'oldpass1',
      newPassword: 'newpass1',
      confirmPassword: 'newpass1',
    });
    // The session goes on with the token the server issued after the change.
    expect(window.localStorage.getItem('token')).toBe(fresh);
    expect(sessionStore.getState().isAuthenticated).toBe(true);
  });

  it('shows "Failed to change password" when the server gives no message', async () => {
    serve({
      'GET /api/settings/profile': profile,
      'PUT /api/settings/password': () => new Response('', { status: 400 }),
    });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('New Password');
    change('Current Password', 'oldpass1');
    change('New Password', 'newpass1');
    change('Confirm New Password', 'newpass1');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to change password');
  });

  it('shows the server\'s "Current password is incorrect" as the form message', async () => {
    serve({
      'GET /api/settings/profile': profile,
      'PUT /api/settings/password': () =>
        json(400, { error: 'Current password is incorrect', code: 'validation' }),
    });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('Current Password');
    change('Current Password', 'wrongpass');
    change('New Password', 'newpass1');
    change('Confirm New Password', 'newpass1');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect');
  });

  it('an account without a password sets its first one without a current one', async () => {
    const fresh = tokenFor('alice', 7200);
    serve({
      'GET /api/settings/profile': () =>
        json(200, { username: 'alice', email: 'alice@example.com', hasPassword: false }),
      'PUT /api/settings/password': () => json(200, { token: fresh }),
    });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByLabelText('New Password');
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    change('New Password', 'newpass1');
    change('Confirm New Password', 'newpass1');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(sentJson(callsTo('PUT /api/settings/password')[0]?.[1])).toEqual({
      newPassword: 'newpass1',
      confirmPassword: 'newpass1',
    });
  });
});

describe('validateUsername', () => {
  it.each([
    ['', 'Username is required'],
    ['  ', 'Username is required'],
    ['ab', 'Username must be between 3 and 50 characters'],
    ['a'.repeat(51), 'Username must be between 3 and 50 characters'],
    ['abc', null],
    ['a'.repeat(50), null],
  ])('%j → %j', (value, expected) => {
    expect(validateUsername(value)).toBe(expected);
  });
});

describe('Connected sign-in', () => {
  const google = 'https://accounts.google.com';
  const withGoogle: Handler = () =>
    json(200, { googleClientId: 'client.apps.example.com', maxUploadBytes: 10485760, version: 'test' });

  it('lists a connected Google account and unlinks it after a confirm', async () => {
    let connected = [{ issuer: google, email: 'alice@gmail.example', linkedAt: '2026-11-24T10:00:00Z' }];
    serve({
      'GET /api/settings/profile': profile,
      'GET /api/config': withGoogle,
      'GET /api/settings/identities': () => json(200, connected),
      [`DELETE /api/settings/identities?issuer=${encodeURIComponent(google)}`]: () => {
        connected = [];
        return new Response(null, { status: 204 });
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(await screen.findByRole('heading', { name: 'Connected sign-in' })).toBeInTheDocument();
    expect(await screen.findByText('alice@gmail.example')).toBeInTheDocument();
    expect(screen.getByText('Google')).toBeInTheDocument();
    // One identity per provider: nothing more to link.
    expect(screen.queryByRole('button', { name: 'Link Google account' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Unlink' }));
    expect(confirm).toHaveBeenCalledWith(
      'Disconnect this Google account? You will sign in with your username and password.',
    );
    expect(await screen.findByText('Google account disconnected')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Link Google account' })).toBeInTheDocument();
    confirm.mockRestore();
  });

  it('shows the server refusing to remove the only way in', async () => {
    serve({
      'GET /api/settings/profile': profile,
      'GET /api/config': withGoogle,
      'GET /api/settings/identities': () => json(200, [{ issuer: google, email: null, linkedAt: '2026-11-24T10:00:00Z' }]),
      [`DELETE /api/settings/identities?issuer=${encodeURIComponent(google)}`]: () =>
        json(409, {
          error: 'This is your only way to sign in. Set a password in Settings before you disconnect it.',
          code: 'conflict',
        }),
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink' }));
    expect(
      await screen.findByText('This is your only way to sign in. Set a password in Settings before you disconnect it.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlink' })).toBeInTheDocument();
    confirm.mockRestore();
  });

  it('offers nothing to link when the server has no Google sign-in', async () => {
    serve({ 'GET /api/settings/profile': profile });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(await screen.findByText('Sign-in with Google is not enabled on this server.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link Google account' })).not.toBeInTheDocument();
    expect(callsTo('GET /api/settings/identities')).toHaveLength(1);
  });

  it('shows Integrations to admins only', async () => {
    serve({ 'GET /api/settings/profile': profile });
    const { unmount } = renderWithProviders(<SettingsPage />, { route: '/settings' });
    await screen.findByRole('heading', { name: 'API keys' });
    expect(screen.queryByRole('heading', { name: 'Integrations' })).not.toBeInTheDocument();
    expect(callsTo('GET /api/integrations')).toHaveLength(0);
    unmount();

    login(tokenFor('admin', 3600, 'ROLE_USER,ROLE_ADMIN'), 'admin');
    serve({ 'GET /api/settings/profile': profile, 'GET /api/integrations': () => json(200, []) });
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(await screen.findByRole('heading', { name: 'Integrations' })).toBeInTheDocument();
    expect(await screen.findByText('No integrations yet.')).toBeInTheDocument();
  });
});
