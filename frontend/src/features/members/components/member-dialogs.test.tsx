import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemberDto } from '@/api/generated/MemberDto';
import { login, logout } from '@/lib/session';
import { answering, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { MSG_CHOOSE_RECIPIENT, MSG_QUOTA_INVALID } from './member-dialogs';
import { MembersTable } from './members-table';
import { MSG_QUOTAS_SAVED, QuotasPanel } from './quotas-panel';

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
});

const member = (id: number, username: string, overrides: Partial<MemberDto> = {}): MemberDto => ({
  id,
  username,
  email: `${username}@example.com`,
  role: 'user',
  status: 'active',
  createdAt: '2026-11-20T10:00:00Z',
  lastSeenAt: null,
  gifCount: 2,
  storageBytes: 3 * 1048576,
  ...overrides,
});
const people = [member(1, 'admin', { role: 'admin' }), member(2, 'alice'), member(3, 'bob'), member(4, 'carol', { status: 'disabled' })];
const page = { content: people, currentPage: 0, totalPages: 1, totalElements: 4, hasNext: false, hasPrevious: false };
const calls = (method: string) => fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);

describe('member actions', () => {
  it('shows storage, and deletes a member after handing their GIFs to an active member', async () => {
    fetchMock.mockImplementation(
      answering((_input, init) => (init?.method === 'DELETE' ? new Response(null, { status: 204 }) : json(200, page))),
    );
    const { toasts } = renderWithProviders(<MembersTable />);
    const rows = await screen.findAllByTestId('member-row');
    expect(rows[1]).toHaveTextContent('Storage3.00 MB');
    expect(within(rows[0]!).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();

    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete alice?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete member' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MSG_CHOOSE_RECIPIENT);
    expect(calls('DELETE')).toHaveLength(0);

    const owner = within(dialog).getByLabelText('New owner');
    await waitFor(() => expect(within(owner).getAllByRole('option')).toHaveLength(3));
    expect(within(owner).queryByRole('option', { name: /carol/ })).not.toBeInTheDocument();
    expect(within(owner).queryByRole('option', { name: /alice/ })).not.toBeInTheDocument();
    await userEvent.selectOptions(owner, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete member' }));
    await waitFor(() => expect(toasts.getState().toasts[0]?.message).toBe('alice was deleted'));
    expect(urlOf(calls('DELETE')[0]?.[0])).toBe('/api/admin/users/2?gifs=transfer&to=3');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('deletes a member with their GIFs, and shows why the server refused', async () => {
    fetchMock.mockImplementation(
      answering((_input, init) =>
        init?.method === 'DELETE' ? json(409, { error: 'This is the last administrator.', code: 'last_admin' }) : json(200, page),
      ),
    );
    renderWithProviders(<MembersTable />);
    const rows = await screen.findAllByTestId('member-row');
    await userEvent.click(within(rows[2]!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete bob?' });
    await userEvent.click(within(dialog).getByLabelText('Delete their 2 GIFs and files'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete member' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This is the last administrator.');
    expect(urlOf(calls('DELETE')[0]?.[0])).toBe('/api/admin/users/3?gifs=delete');
  });

  it('shows a reset link to copy', async () => {
    fetchMock.mockImplementation(
      answering((_input, init) =>
        init?.method === 'POST'
          ? json(201, { url: 'http://x/reset/abc', expiresAt: '2026-11-28T10:00:00Z' })
          : json(200, page),
      ),
    );
    renderWithProviders(<MembersTable />);
    const rows = await screen.findAllByTestId('member-row');
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Reset password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password for alice' });
    expect(within(dialog).getByLabelText('Reset link')).toHaveValue('http://x/reset/abc');
    expect(within(dialog).getByRole('button', { name: /Copy/ })).toBeInTheDocument();
    expect(urlOf(calls('POST')[0]?.[0])).toBe('/api/admin/users/2/password-reset');
  });

  it('sets a member quota; blank keeps the default', async () => {
    fetchMock.mockImplementation(
      answering((input, init) => {
        if (urlOf(input).endsWith('/quota')) {
          return json(200, init?.method === 'PUT' ? sentJson(init) : { storageBytes: null, uploadsPerDay: 5 });
        }
        return json(200, page);
      }),
    );
    const { toasts } = renderWithProviders(<MembersTable />);
    const rows = await screen.findAllByTestId('member-row');
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Quota' }));
    const dialog = await screen.findByRole('dialog', { name: 'Quota for alice' });
    await waitFor(() => expect(within(dialog).getByLabelText('Uploads per day')).toHaveValue('5'));
    await userEvent.type(within(dialog).getByLabelText('Storage (MB)'), '-2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MSG_QUOTA_INVALID);
    await userEvent.clear(within(dialog).getByLabelText('Storage (MB)'));
    await userEvent.type(within(dialog).getByLabelText('Storage (MB)'), '50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts.getState().toasts[0]?.message).toBe('Quota of alice saved'));
    expect(sentJson(calls('PUT')[0]?.[1])).toEqual({ storageBytes: 50 * 1048576, uploadsPerDay: 5 });
  });
});

describe('QuotasPanel', () => {
  it('saves the quota for everyone; blank is unlimited', async () => {
    fetchMock.mockImplementation(
      answering((_input, init) =>
        json(200, init?.method === 'PUT' ? sentJson(init) : { storageBytes: 10 * 1048576, uploadsPerDay: null }),
      ),
    );
    const { toasts } = renderWithProviders(<QuotasPanel />);
    const storage = await screen.findByLabelText('Storage per member (MB)');
    expect(storage).toHaveValue('10');
    expect(screen.getByLabelText('Uploads per day')).toHaveValue('');
    await userEvent.type(screen.getByLabelText('Uploads per day'), '1.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MSG_QUOTA_INVALID);
    await userEvent.clear(screen.getByLabelText('Uploads per day'));
    await userEvent.type(screen.getByLabelText('Uploads per day'), '20');
    await userEvent.clear(storage);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts.getState().toasts[0]?.message).toBe(MSG_QUOTAS_SAVED));
    expect(sentJson(calls('PUT')[0]?.[1])).toEqual({ storageBytes: null, uploadsPerDay: 20 });
  });
});
