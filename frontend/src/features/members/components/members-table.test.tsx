import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemberDto } from '@/api/generated/MemberDto';
import { login, logout } from '@/lib/session';
import { answering, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { MembersTable, MSG_NO_MEMBERS } from './members-table';

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

function member(id: number, username: string, overrides: Partial<MemberDto> = {}): MemberDto {
  return {
    id,
    username,
    email: `${username}@example.com`,
    role: 'user',
    status: 'active',
    createdAt: '2026-11-20T10:00:00Z',
    lastSeenAt: null,
    gifCount: id * 2,
    storageBytes: id * 1048576,
    ...overrides,
  };
}

const page = (content: MemberDto[]) => ({
  content,
  currentPage: 0,
  totalPages: 1,
  totalElements: content.length,
  hasNext: false,
  hasPrevious: false,
});

const people = [member(1, 'admin', { role: 'admin' }), member(2, 'alice'), member(3, 'bob', { status: 'disabled' })];

describe('MembersTable', () => {
  it('lists the accounts with their role, status and GIFs, and searches by name or email', async () => {
    fetchMock.mockImplementation(
      answering((input) => {
        const url = new URL(urlOf(input), 'http://x');
        const q = url.searchParams.get('q');
        return json(200, page(q ? people.filter((p) => p.username.includes(q)) : people));
      }),
    );
    renderWithProviders(<MembersTable />);
    const rows = await screen.findAllByTestId('member-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Admin')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: 'Disable' })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Make admin' })).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Disabled')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('GIFs4');

    await userEvent.type(screen.getByLabelText('Search members'), 'zed');
    expect(await screen.findByText(MSG_NO_MEMBERS)).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).toContain('/api/admin/users?page=0&size=20&q=zed');
  });

  it('makes an admin and disables a member, and shows the server refusing the last admin', async () => {
    fetchMock.mockImplementation(
      answering((input, init) => {
        const url = urlOf(input);
        if (init?.method === 'PUT' && url === '/api/admin/users/1') {
          return json(409, { error: 'There must always be at least one active administrator.', code: 'last_admin' });
        }
        if (init?.method === 'PUT') return json(200, { ...member(2, 'alice'), ...(sentJson(init) as object) });
        return json(200, page(people));
      }),
    );
    const { toasts } = renderWithProviders(<MembersTable />);
    const rows = await screen.findAllByTestId('member-row');
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Make admin' }));
    await waitFor(() => expect(toasts.getState().toasts[0]?.message).toBe('alice is now an administrator'));
    const put = fetchMock.mock.calls.find(([input, init]) => urlOf(input) === '/api/admin/users/2' && init?.method === 'PUT');
    expect(sentJson(put?.[1])).toEqual({ role: 'admin' });

    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(toasts.getState().toasts.map((t) => t.message)).toContain('alice is disabled and signed out everywhere'),
    );

    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Remove admin' }));
    await waitFor(() =>
      expect(toasts.getState().toasts.map((t) => t.message)).toContain(
        'There must always be at least one active administrator.',
      ),
    );
  });
});
