import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportDto } from '@/api/generated/ReportDto';
import { login, logout } from '@/lib/session';
import { answering, sentJson } from '@/test/fetch';
import { jsonResponse, makeGif, makePage, urlOf } from '@/test/gifs';
import { renderApp } from '@/test/render-app';
import { tokenFor } from '@/test/tokens';
import { MSG_GIF_HIDDEN, MSG_GIF_RESTORED, MSG_NO_HIDDEN, MSG_NO_REPORTS } from '../messages';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

function report(id: number, overrides: Partial<ReportDto> = {}): ReportDto {
  return {
    id,
    gif: { id: 40 + id, title: `Cat ${id}`, thumbnailUrl: `/api/gifs/thumbnail/${40 + id}`, owner: 'alice', hidden: false },
    reason: 'offensive',
    note: 'not nice',
    reporter: 'bob',
    createdAt: '2026-11-27T09:00:00Z',
    status: 'open',
    resolution: null,
    resolvedBy: null,
    resolvedAt: null,
    ...overrides,
  };
}

const paged = (content: ReportDto[]) => ({
  content,
  currentPage: 0,
  totalPages: content.length ? 1 : 0,
  totalElements: content.length,
  hasNext: false,
  hasPrevious: false,
});

const REPORTS = '/api/admin/reports?status=open&page=0&size=20';
const HIDDEN = '/api/admin/gifs/hidden?page=0&size=20';

describe('/admin/moderation', () => {
  it('lists open reports with thumbnails; Hide hides and the lists are read again', async () => {
    let open = [report(1), report(2, { reason: 'spam', note: '' })];
    let hidden = [makeGif(9, { title: 'Old one', hidden: { reason: 'Other', hiddenAt: '2026-11-26T09:00:00Z' } })];
    fetchMock.mockImplementation(
      answering((input, init) => {
        const url = urlOf(input);
        if (url === REPORTS) return jsonResponse(paged(open));
        if (url === HIDDEN) return jsonResponse(makePage(hidden));
        if (url === '/api/admin/reports/1' && init?.method === 'PUT') {
          open = open.filter((r) => r.id !== 1);
          hidden = [makeGif(41, { title: 'Cat 1', hidden: { reason: 'Offensive content', hiddenAt: '2026-11-27T10:00:00Z' } }), ...hidden];
          return jsonResponse(report(1, { status: 'closed', resolution: 'hidden' }));
        }
        return jsonResponse({ error: 'Not found', code: 'not_found' }, 404);
      }),
    );
    renderApp('/admin/moderation');
    expect(await screen.findByRole('heading', { level: 1, name: 'Moderation' })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('report-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('img', { name: 'Cat 1' })).toHaveAttribute('src', '/api/gifs/thumbnail/41');
    expect(rows[0]).toHaveTextContent('Offensive content');
    expect(rows[0]).toHaveTextContent('not nice');
    expect(rows[0]).toHaveTextContent('Reported by bob');
    expect(rows[1]).toHaveTextContent('Spam');
    expect(await screen.findAllByTestId('hidden-row')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Hide Cat 1' }));
    expect(await screen.findByText(MSG_GIF_HIDDEN)).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([input, init]) => urlOf(input) === '/api/admin/reports/1' && init?.method === 'PUT');
    expect(sentJson(put?.[1])).toEqual({ action: 'hide' });
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('hidden-row')).toHaveLength(2));
  });

  it('says when there is nothing to review, and Restore brings a hidden GIF back', async () => {
    let hidden = [makeGif(9, { title: 'Old one', hidden: { reason: 'Other', hiddenAt: '2026-11-26T09:00:00Z' } })];
    fetchMock.mockImplementation(
      answering((input, init) => {
        const url = urlOf(input);
        if (url === REPORTS) return jsonResponse(paged([]));
        if (url === HIDDEN) return jsonResponse(makePage(hidden));
        if (url === '/api/admin/gifs/9/visibility' && init?.method === 'PUT') {
          hidden = [];
          return jsonResponse(makeGif(9, { title: 'Old one' }));
        }
        return jsonResponse({ error: 'Not found', code: 'not_found' }, 404);
      }),
    );
    renderApp('/admin/moderation');
    expect(await screen.findByText(MSG_NO_REPORTS)).toBeInTheDocument();
    const row = await screen.findByTestId('hidden-row');
    expect(row).toHaveTextContent('Other');
    await userEvent.click(within(row).getByRole('button', { name: 'Restore Old one' }));
    expect(await screen.findByText(MSG_GIF_RESTORED)).toBeInTheDocument();
    expect(await screen.findByText(MSG_NO_HIDDEN)).toBeInTheDocument();
  });

  it('shows the server’s error when the queue cannot be read', async () => {
    fetchMock.mockImplementation(
      answering((input) =>
        urlOf(input) === REPORTS
          ? jsonResponse({ error: 'Database unavailable', code: 'unavailable' }, 503)
          : jsonResponse(makePage([])),
      ),
    );
    renderApp('/admin/moderation');
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent('Error: Server error - please try again later');
  });
});
