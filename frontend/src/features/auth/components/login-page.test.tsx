import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout, sessionStore } from '@/lib/session';
import { answering, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { GOOGLE_SCRIPT_SRC, resetGoogleIdentity } from '../google';
import { LoginPage } from './login-page';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Answers /api/config with the given client id and the login call with `login`. */
function serve(googleClientId: string | null, login?: Response) {
  fetchMock.mockImplementation(answering((input) => {
    const url = urlOf(input);
    if (url === '/api/config') return json(200, { googleClientId, maxUploadBytes: 1, version: '0' });
    if (url === '/api/auth/login' && login) return login;
    throw new TypeError('unexpected');
  }));
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

  it('tells a disabled account why it cannot sign in', async () => {
    const sentence = 'This account has been disabled. Ask an administrator.';
    serve(null, json(403, { error: sentence, code: 'account_disabled' }));
    renderWithProviders(<LoginPage />, { route: '/login' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(sentence);
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

describe('Continue with Google', () => {
  type Init = { client_id: string; callback: (r: { credential?: string }) => void };
  let init: Init | null = null;
  let displayed = true;
  const renderButton = vi.fn();

  beforeEach(() => {
    init = null;
    displayed = true;
    renderButton.mockReset();
    resetGoogleIdentity();
    window.google = {
      accounts: {
        id: {
          initialize: (config: Init) => {
            init = config;
          },
          prompt: (listener?: (n: { isNotDisplayed: () => boolean }) => void) => {
            if (displayed) init?.callback({ credential: 'id-token-from-google' });
            else listener?.({ isNotDisplayed: () => true });
          },
          renderButton,
        },
      },
    };
  });
  afterEach(() => {
    delete window.google;
    resetGoogleIdentity();
  });

  function serveGoogle(answer: Response) {
    fetchMock.mockImplementation(answering((input, initArg) => {
      const url = urlOf(input);
      if (url === '/api/config') return json(200, { googleClientId: 'client-id', maxUploadBytes: 1, version: '0' });
      if (url === '/api/auth/google') {
        expect(sentJson(initArg)).toEqual({ token: 'id-token-from-google' });
        return answer;
      }
      throw new TypeError('unexpected');
    }));
  }

  it('sends the credential, stores the session like a password login and goes to /', async () => {
    const token = tokenFor('dana.scully', 3600, 'ROLE_USER');
    serveGoogle(json(200, { token }));
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.setup().click(await screen.findByRole('button', { name: /Continue with Google/ }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(init?.client_id).toBe('client-id');
    expect(localStorage.getItem('token')).toBe(token);
    expect(localStorage.getItem('username')).toBe('dana.scully');
    expect(sessionStore.getState().isAuthenticated).toBe(true);
  });

  it('shows the server refusal as a toast and stays signed out', async () => {
    serveGoogle(json(401, { error: 'Google login failed', code: 'unauthorized' }));
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.setup().click(await screen.findByRole('button', { name: /Continue with Google/ }));
    expect(await screen.findByText('Google login failed')).toBeInTheDocument();
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it("renders Google's own button where the prompt cannot be shown", async () => {
    displayed = false;
    serveGoogle(json(500, {}));
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.setup().click(await screen.findByRole('button', { name: /Continue with Google/ }));
    await waitFor(() => expect(renderButton).toHaveBeenCalledTimes(1));
    expect(renderButton.mock.calls[0]?.[1]).toMatchObject({ text: 'continue_with' });
    expect(screen.getByTestId('google-fallback')).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/auth/google', expect.anything());
  });

  it("says Google login failed when Google's script cannot load", async () => {
    delete window.google;
    serveGoogle(json(500, {}));
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.setup().click(await screen.findByRole('button', { name: /Continue with Google/ }));
    const script = document.head.querySelector<HTMLScriptElement>(`script[src="${GOOGLE_SCRIPT_SRC}"]`);
    expect(script).not.toBeNull();
    script?.dispatchEvent(new Event('error'));
    expect(await screen.findByText('Google login failed')).toBeInTheDocument();
    expect(document.head.querySelector(`script[src="${GOOGLE_SCRIPT_SRC}"]`)).toBeNull();
  });
});
