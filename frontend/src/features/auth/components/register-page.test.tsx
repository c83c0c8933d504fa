import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answering, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { validateRegister } from '../validation';
import { RegisterPage } from './register-page';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Answers /api/config with the registration mode and the register call with `answer`. */
function serve(registration: 'open' | 'invite' | 'closed', answer?: Response) {
  fetchMock.mockImplementation(
    answering((input) => {
      const url = urlOf(input);
      if (url === '/api/config') {
        return json(200, { googleClientId: null, maxUploadBytes: 1, version: '0', registration });
      }
      if (url === '/api/auth/register' && answer) return answer;
      throw new TypeError('unexpected');
    }),
  );
}

/** The register calls sent. */
const registerCalls = () => fetchMock.mock.calls.filter(([input]) => urlOf(input) === '/api/auth/register');

async function fill(values: { username: string; email: string; password: string; confirm: string }) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username'), values.username);
  await user.type(screen.getByLabelText('Email'), values.email);
  await user.type(screen.getByLabelText('Password'), values.password);
  await user.type(screen.getByLabelText('Confirm Password'), values.confirm);
  return user;
}

describe('RegisterPage', () => {
  it('shows "Passwords do not match" and sends nothing on a mismatch', async () => {
    serve('open');
    renderWithProviders(<RegisterPage />, { route: '/register' });
    expect(screen.getByRole('heading', { name: 'Create an Account' })).toBeInTheDocument();
    const user = await fill({
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret1',
      confirm: 'secret2',
    });
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(registerCalls()).toHaveLength(0);
  });

  it('registers, toasts and goes to /login without signing in', async () => {
    serve('open', new Response('', { status: 201 }));
    const { toasts } = renderWithProviders(<RegisterPage />, { route: '/register' });
    const user = await fill({
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret1',
      confirm: 'secret1',
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    const [url, init] = registerCalls()[0] ?? [];
    expect(url).toBe('/api/auth/register');
    expect(sentJson(init)).toEqual({
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(toasts.getState().toasts[0]?.type).toBe('success');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows the server error (e.g. a taken username)', async () => {
    serve(
      'open',
      new Response(JSON.stringify({ error: 'Username already taken', code: 'conflict' }), {
        status: 409,
      }),
    );
    renderWithProviders(<RegisterPage />, { route: '/register' });
    const user = await fill({
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret1',
      confirm: 'secret1',
    });
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Username already taken');
  });

  it("shows the registration allowance's own message on a 429", async () => {
    const message = 'Too many accounts were registered from this address. Try again in 10 minutes.';
    serve(
      'open',
      new Response(JSON.stringify({ error: message, code: 'too_many_requests' }), {
        status: 429,
        headers: { 'Retry-After': '600' },
      }),
    );
    renderWithProviders(<RegisterPage />, { route: '/register' });
    const user = await fill({
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret1',
      confirm: 'secret1',
    });
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('says an invitation is needed and hides the form in invite mode', async () => {
    serve('invite');
    renderWithProviders(<RegisterPage />, { route: '/register' });
    expect(await screen.findByRole('alert')).toHaveTextContent('You need an invitation to join this server.');
    expect(screen.queryByLabelText('Username')).not.toBeInTheDocument();
  });

  it('says registration is closed and hides the form', async () => {
    serve('closed');
    renderWithProviders(<RegisterPage />, { route: '/register' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration is closed on this server.');
    expect(screen.queryByRole('button', { name: 'Register' })).not.toBeInTheDocument();
  });

  it('with an invitation: says so, shows the form even when closed and sends the token', async () => {
    serve('closed', new Response('', { status: 201 }));
    renderWithProviders(<RegisterPage invite="tok_123" />, { route: '/join/tok_123' });
    expect(await screen.findByText(/You were invited to join gifshelf/)).toBeInTheDocument();
    const user = await fill({ username: 'alice', email: 'alice@example.com', password: 'secret1', confirm: 'secret1' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(registerCalls()).toHaveLength(1));
    expect(sentJson(registerCalls()[0]?.[1])).toMatchObject({ username: 'alice', invite: 'tok_123' });
  });

  it("shows the server's refusal (a used-up invitation)", async () => {
    const message = 'This invitation link is not valid: it has expired, been used up or been revoked.';
    serve('invite', json(403, { error: message, code: 'invitation_invalid' }));
    renderWithProviders(<RegisterPage invite="old" />, { route: '/join/old' });
    const user = await fill({ username: 'alice', email: 'alice@example.com', password: 'secret1', confirm: 'secret1' });
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('validateRegister', () => {
  const valid = { username: 'alice', email: 'a@b.co', password: 'secret', confirmPassword: 'secret' };

  it.each([
    ['ab', 'Username must be between 3 and 20 characters'],
    ['a'.repeat(21), 'Username must be between 3 and 20 characters'],
    ['', 'Username is required'],
  ])('rejects username %j', (username, message) => {
    expect(validateRegister({ ...valid, username }).username).toBe(message);
  });

  it('accepts 3 and 20 characters', () => {
    expect(validateRegister({ ...valid, username: 'abc' })).toEqual({});
    expect(validateRegister({ ...valid, username: 'a'.repeat(20) })).toEqual({});
  });

  it('checks email, password length (6 chars, 72 bytes) and the confirmation', () => {
    expect(validateRegister({ ...valid, email: 'nope' }).email).toBe(
      'Please enter a valid email address',
    );
    expect(validateRegister({ ...valid, password: '12345', confirmPassword: '12345' }).password).toBe(
      'Password must be at least 6 characters',
    );
    const long = 'é'.repeat(37);
    expect(validateRegister({ ...valid, password: long, confirmPassword: long }).password).toBe(
      'Password must be at most 72 bytes',
    );
    expect(validateRegister({ ...valid, confirmPassword: 'other1' }).confirmPassword).toBe(
      'Passwords do not match',
    );
  });
});
