import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { SettingsRoute } from './settings';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serve(membersMayInvite: boolean) {
  fetchMock.mockImplementation(
    answering((input) => {
      const url = urlOf(input);
      if (url === '/api/config') {
        return json(200, { googleClientId: null, maxUploadBytes: 1, version: 't', registration: 'invite', membersMayInvite });
      }
      if (url === '/api/settings/profile') return json(200, { username: 'bob', email: 'bob@example.com', hasPassword: true });
      if (url === '/api/invites') return json(200, []);
      return json(200, []);
    }),
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('bob', 3600), 'bob');
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
});

describe('/settings for a member', () => {
  it('offers Invitations (member invitations only) when the server lets members invite', async () => {
    serve(true);
    renderWithProviders(<SettingsRoute />);
    expect(await screen.findByRole('heading', { name: 'Invitations' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Role')).not.toBeInTheDocument();
  });

  it('shows no Invitations, and asks for none, when it does not', async () => {
    serve(false);
    renderWithProviders(<SettingsRoute />);
    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invitations' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).not.toContain('/api/invites');
  });
});
