import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { InvitationsPanel, MSG_LINK_SHOWN_ONCE, MSG_NO_INVITES } from './invitations-panel';
import { MSG_POLICY_SAVED, RegistrationPanel } from './registration-panel';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('admin', 3600, 'ROLE_USER,ROLE_ADMIN'), 'admin');
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const calls = (url: string, method: string) =>
  fetchMock.mock.calls.filter(([input, init]) => urlOf(input) === url && (init?.method ?? 'GET') === method);

describe('RegistrationPanel', () => {
  it('shows the stored policy and saves the mode, the domains lower-cased by the server, and the members switch', async () => {
    fetchMock.mockImplementation(
      answering((input, init) => {
        if (urlOf(input) !== '/api/admin/registration') throw new TypeError('unexpected');
        if (init?.method === 'PUT') return json(200, { ...(sentJson(init) as object), allowedDomains: ['corp.example'] });
        return json(200, { mode: 'open', allowedDomains: [], membersMayInvite: false });
      }),
    );
    const { toasts } = renderWithProviders(<RegistrationPanel />);
    const user = userEvent.setup();
    expect(await screen.findByRole('radio', { name: /Open/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Invitation only/ }));
    await user.type(screen.getByLabelText('Allowed email domains'), 'Corp.Example');
    await user.click(screen.getByRole('checkbox', { name: /may create invitations/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('/api/admin/registration', 'PUT')).toHaveLength(1));
    expect(sentJson(calls('/api/admin/registration', 'PUT')[0]?.[1])).toEqual({
      mode: 'invite',
      allowedDomains: ['Corp.Example'],
      membersMayInvite: true,
    });
    await waitFor(() => expect(toasts.getState().toasts[0]?.message).toBe(MSG_POLICY_SAVED));
    expect(screen.getByLabelText('Allowed email domains')).toHaveValue('corp.example');
  });

  it("shows the server's refusal of a bad domain", async () => {
    fetchMock.mockImplementation(
      answering((_, init) =>
        init?.method === 'PUT'
          ? json(400, { error: '"x y" is not a valid domain name', code: 'validation' })
          : json(200, { mode: 'open', allowedDomains: [], membersMayInvite: false }),
      ),
    );
    renderWithProviders(<RegistrationPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('is not a valid domain name');
  });
});

describe('InvitationsPanel', () => {
  const invite = {
    id: 4,
    maxUses: 3,
    uses: 1,
    expiresAt: '2026-12-04T10:00:00Z',
    createdAt: '2026-11-27T10:00:00Z',
    role: 'user',
    createdBy: 'admin',
  };

  it('creates an invitation, shows its link once and lists uses and expiry', async () => {
    let listed: unknown[] = [];
    fetchMock.mockImplementation(
      answering((input, init) => {
        if (urlOf(input) !== '/api/invites') throw new TypeError('unexpected');
        if (init?.method === 'POST') {
          listed = [invite];
          return json(201, { ...invite, token: 'tok', url: 'http://localhost/join/tok', uses: 0 });
        }
        return json(200, listed);
      }),
    );
    renderWithProviders(<InvitationsPanel canInviteAdmins />);
    const user = userEvent.setup();
    expect(await screen.findByText(MSG_NO_INVITES)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Uses'));
    await user.type(screen.getByLabelText('Uses'), '3');
    await user.selectOptions(screen.getByLabelText('Role'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Create invitation' }));
    expect(await screen.findByDisplayValue('http://localhost/join/tok')).toBeInTheDocument();
    expect(screen.getByText(MSG_LINK_SHOWN_ONCE)).toBeInTheDocument();
    expect(sentJson(calls('/api/invites', 'POST')[0]?.[1])).toEqual({ maxUses: 3, expiresInHours: 168, role: 'admin' });
    expect(await screen.findByText(/1 of 3 used/)).toBeInTheDocument();
  });

  it('revokes an invitation after confirming', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    fetchMock.mockImplementation(
      answering((input, init) => {
        if (init?.method === 'DELETE' && urlOf(input) === '/api/invites/4') return new Response(null, { status: 204 });
        return json(200, [invite]);
      }),
    );
    renderWithProviders(<InvitationsPanel canInviteAdmins={false} />);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Role')).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Revoke invitation 4' }));
    await waitFor(() => expect(calls('/api/invites/4', 'DELETE')).toHaveLength(1));
  });
});
