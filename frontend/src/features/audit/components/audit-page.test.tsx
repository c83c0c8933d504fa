import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEventDto } from '@/api/generated/AuditEventDto';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { jsonResponse, urlOf } from '@/test/gifs';
import { renderApp } from '@/test/render-app';
import { tokenFor } from '@/test/tokens';
import { MSG_NO_EVENTS } from './audit-page';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

function event(id: number, overrides: Partial<AuditEventDto> = {}): AuditEventDto {
  return {
    id,
    at: '2026-11-27T09:00:00Z',
    actor: { id: 1, username: 'root' },
    action: 'integration.added',
    target: `Team Zulip (zulip, #${id})`,
    detail: 'secret …JLJ0',
    address: '127.0.0.1',
    ...overrides,
  };
}

function page(content: AuditEventDto[], currentPage: number, totalPages: number) {
  return {
    content,
    currentPage,
    totalPages,
    totalElements: totalPages * 25,
    hasNext: currentPage + 1 < totalPages,
    hasPrevious: currentPage > 0,
  };
}

describe('/admin/audit', () => {
  it('shows each event in words with who, when and from where, and pages to older ones', async () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    fetchMock.mockImplementation(
      answering((input) => {
        const url = urlOf(input);
        if (url === '/api/admin/audit?page=0&size=25') {
          return jsonResponse(page([event(2), event(1, { actor: null, action: 'integration.secret_removed', address: null })], 0, 2));
        }
        if (url === '/api/admin/audit?page=1&size=25') {
          return jsonResponse(page([event(0, { action: 'api_key.made', target: 'API key #3 “Team chat” (gs_abc…) of alice' })], 1, 2));
        }
        return jsonResponse({ error: 'Not found', code: 'not_found' }, 404);
      }),
    );
    renderApp('/admin/audit');
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('audit-event');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Added an integration');
    expect(rows[0]).toHaveTextContent('Team Zulip (zulip, #2)');
    expect(within(rows[0]!).getByText('root')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('127.0.0.1')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('the server');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Made an API key')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
  });

  it('says when nothing is recorded, and shows a load error', async () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    fetchMock.mockImplementation(answering(() => jsonResponse(page([], 0, 0))));
    renderApp('/admin/audit');
    expect(await screen.findByText(MSG_NO_EVENTS)).toBeInTheDocument();
    cleanup();
    fetchMock.mockImplementation(answering(() => jsonResponse({ error: 'Not an admin', code: 'forbidden' }, 403)));
    renderApp('/admin/audit');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error:');
  });

  it('is for admins: a member is sent home', async () => {
    login(tokenFor('alice', 3600, 'ROLE_USER'), 'alice');
    fetchMock.mockImplementation(answering(() => jsonResponse(page([], 0, 0))));
    renderApp('/admin/audit');
    expect(await screen.findByRole('heading', { level: 1 })).not.toHaveTextContent('Audit log');
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).not.toContain('/api/admin/audit?page=0&size=25');
  });
});
