import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GifDetailPage } from '@/features/gifs/components/gif-detail-page';
import { login, logout } from '@/lib/session';
import { answering, sentJson } from '@/test/fetch';
import { jsonResponse, makeGif, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { MSG_REPORT_PICK_REASON, MSG_REPORT_SENT } from '../messages';

const fetchMock = vi.fn<typeof fetch>();
const gif = makeGif(5, { title: 'Dancing cat', uploadedBy: 'alice' });

function serve(reportAnswer: () => Response, served = gif) {
  fetchMock.mockImplementation(
    answering((input, init) => {
      const url = urlOf(input);
      if (url === '/api/gifs/dto/5') return jsonResponse(served);
      if (url === '/api/gifs/5/reports' && init?.method === 'POST') return reportAnswer();
      return jsonResponse([], 200);
    }),
  );
}

const reportCalls = () =>
  fetchMock.mock.calls.filter(([input, init]) => urlOf(input) === '/api/gifs/5/reports' && init?.method === 'POST');

const renderDetail = () => renderWithProviders(<GifDetailPage />, { route: '/gifs/5', path: '/gifs/:id' });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

describe('Report GIF', () => {
  it('is offered on other people’s GIFs only', async () => {
    login(tokenFor('alice', 3600), 'alice');
    serve(() => jsonResponse({}, 201));
    renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Dancing cat' });
    expect(screen.queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();
  });

  it('asks for a reason, sends it with the note, and closes with a success toast', async () => {
    login(tokenFor('bob', 3600), 'bob');
    serve(() => jsonResponse({ id: 1 }, 201));
    renderDetail();
    await userEvent.click(await screen.findByRole('button', { name: 'Report' }));
    const dialog = screen.getByRole('dialog', { name: 'Report GIF' });
    expect(within(dialog).getByText(/Dancing cat/)).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MSG_REPORT_PICK_REASON);
    expect(reportCalls()).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Copyright infringement' }));
    await userEvent.type(within(dialog).getByLabelText('Note (optional)'), '  my drawing  ');
    expect(within(dialog).getByText('14/500')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));

    expect(await screen.findByText(MSG_REPORT_SENT)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(reportCalls()).toHaveLength(1);
    expect(sentJson(reportCalls()[0]![1])).toEqual({ reason: 'copyright', note: 'my drawing' });
  });

  it('keeps the dialog open and says why when the server refuses', async () => {
    login(tokenFor('bob', 3600), 'bob');
    serve(() => jsonResponse({ error: 'The note is too long (at most 500 characters).', code: 'validation' }, 400));
    renderDetail();
    await userEvent.click(await screen.findByRole('button', { name: 'Report' }));
    const dialog = screen.getByRole('dialog', { name: 'Report GIF' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The note is too long');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the owner why their GIF is hidden, and an admin a Restore button', async () => {
    const hidden = { ...gif, hidden: { reason: 'Spam', hiddenAt: '2026-11-27T09:00:00Z' } };
    login(tokenFor('alice', 3600), 'alice');
    serve(() => jsonResponse({}, 201), hidden);
    renderDetail();
    expect(await screen.findByText('Hidden by a moderator: Spam')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restore' })).not.toBeInTheDocument();
    cleanup();
    logout();

    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    renderDetail();
    expect(await screen.findByText('Hidden by a moderator: Spam')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restore' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();
  });
});
