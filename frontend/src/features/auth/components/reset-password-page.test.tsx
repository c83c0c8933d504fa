import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answering, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { MSG_PASSWORD_RESET, ResetPasswordPage } from './reset-password-page';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('ResetPasswordPage', () => {
  it('checks the two passwords, sends the token and goes to the login page', async () => {
    fetchMock.mockImplementation(answering(() => new Response(null, { status: 204 })));
    const { toasts } = renderWithProviders(<ResetPasswordPage token="tok-1" />);
    await userEvent.type(screen.getByLabelText('New Password'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New Password'), 'defgh');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'different');
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Confirm New Password'));
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'abcdefgh');
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    await waitFor(() => expect(toasts.getState().toasts[0]?.message).toBe(MSG_PASSWORD_RESET));
    expect(urlOf(fetchMock.mock.calls[0]?.[0])).toBe('/api/auth/password-reset');
    expect(sentJson(fetchMock.mock.calls[0]?.[1])).toEqual({ token: 'tok-1', password: 'abcdefgh' });
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
  });

  it('says when the link was used, replaced or expired', async () => {
    const said = 'This password reset link is invalid or has expired. Ask an administrator for a new one.';
    fetchMock.mockImplementation(answering(() => json(400, { error: said, code: 'reset_invalid' })));
    renderWithProviders(<ResetPasswordPage token="old" />);
    await userEvent.type(screen.getByLabelText('New Password'), 'abcdefgh');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'abcdefgh');
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText(said)).toBeInTheDocument();
  });
});
