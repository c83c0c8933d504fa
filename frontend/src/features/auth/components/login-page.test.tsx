import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout, sessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { LoginPage } from './login-page';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Answers /api/config with the given client id and the login call with `login`. */
function serve(googleClientId: string | null, login?: Response) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/config') return json(200, { googleClientId, maxUploadBytes: 1, version: '0' });
    if (url === '/api/auth/login' && login) return login;
    throw new TypeError('unexpected');
  });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
});

describe('LoginPage', () => {
  it('hides the Google button without a client id, shows it with one', async () => {
    serve(null);
    const first = renderWithProviders(<LoginPage />, { route: '/login' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: /Continue with Google/ })).toBeNull();
    first.unmount();

    serve('client-id');
    renderWithProviders(<LoginPage />, { route: '/login' });
    expect(await screen.findByRole('button', { name: /Continue with Google/ })).toBeInTheDocument();
  });

  it('hides the Google button when /api/config fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderWithProviders(<LoginPage />, { route: '/login' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: /Continue with Google/ })).toBeNull();
  });

  it('stores the session and goes to / on success', async () => {
    const token = tokenFor('alice', 3600, 'ROLE_USER,ROLE_ADMIN');
    serve(null, json(200, { token }));
    renderWithProviders(<LoginPage />, { route: '/login' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(localStorage.getItem('token')).toBe(token);
    expect(localStorage.getItem('username')).toBe('alice');
    expect(sessionStore.getState().roles).toEqual(['USER', 'ADMIN']);
  });

  it('shows the server error line on failure', async () => {
    serve(null, json(401, { error: 'Invalid username or password', code: 'invalid_credentials' }));
    renderWithProviders(<LoginPage />, { route: '/login' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(sessionStore.getState().isAuthenticated).toBe(false);
  });

  it('rejects an unparseable token', async () => {
    serve(null, json(200, { token: 'garbage' }));
    renderWithProviders(<LoginPage />, { route: '/login' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid token received from server');
    expect(localStorage.getItem('token')).toBeNull();
  });
});
