import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeyDto } from '@/api/generated/ApiKeyDto';
import { login, logout } from '@/lib/session';
import { answering, clickAndSettle, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { ApiKeysSection } from './api-keys-section';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Handler = (init: RequestInit | undefined) => Response;
function serve(handlers: Record<string, Handler>) {
  fetchMock.mockImplementation(answering((input, init) => {
    const key = `${init?.method ?? 'GET'} ${urlOf(input)}`;
    const handler = handlers[key];
    if (!handler) throw new TypeError(`unexpected ${key}`);
    return handler(init);
  }));
}
const callsTo = (key: string) =>
  fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${urlOf(url)}` === key);

const teamChat: ApiKeyDto = {
  id: 7,
  name: 'Team chat',
  prefix: 'gs_AbC123',
  createdAt: '2026-03-04T10:00:00Z',
  lastUsedAt: null,
};
const bot: ApiKeyDto = {
  id: 8,
  name: 'Bot',
  prefix: 'gs_XyZ789',
  createdAt: '2026-03-05T10:00:00Z',
  lastUsedAt: '2026-03-06T12:00:00Z',
};

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600), 'alice');
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ApiKeysSection', () => {
  it('shows "No API keys yet." when there are none', async () => {
    serve({ 'GET /api/keys': () => json(200, []) });
    renderWithProviders(<ApiKeysSection />);
    expect(screen.getByRole('heading', { name: 'API keys' })).toBeInTheDocument();
    expect(screen.getByText('Loading API keys...')).toBeInTheDocument();
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'API keys' })).not.toBeInTheDocument();
  });

  it('lists each key: name, prefix, created date, last used or never used', async () => {
    serve({ 'GET /api/keys': () => json(200, [teamChat, bot]) });
    renderWithProviders(<ApiKeysSection />);
    const list = await screen.findByRole('list', { name: 'API keys' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Team chat');
    expect(first).toHaveTextContent('gs_AbC123…');
    expect(first).toHaveTextContent(`Created ${new Date(teamChat.createdAt).toLocaleDateString()}`);
    expect(first).toHaveTextContent('Never used');
    expect(second).toHaveTextContent(`Last used ${new Date(bot.lastUsedAt!).toLocaleDateString()}`);
  });

  it('shows the load error', async () => {
    serve({ 'GET /api/keys': () => new Response('', { status: 404 }) });
    renderWithProviders(<ApiKeysSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load API keys');
  });

  it('creates a key: shows it once with Copy, refreshes the list, and Done hides it for good', async () => {
    let keys: ApiKeyDto[] = [];
    serve({
      'GET /api/keys': () => json(200, keys),
      'POST /api/keys': () => {
        keys = [teamChat];
        return json(201, { id: 7, name: 'Team chat', key: 'gs_AbC123secretpart', createdAt: teamChat.createdAt });
      },
    });
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithProviders(<ApiKeysSection />);
    await screen.findByText('No API keys yet.');

    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: 'Team chat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));

    const field = await screen.findByLabelText('New key "Team chat"');
    expect(field).toHaveValue('gs_AbC123secretpart');
    expect(field).toHaveAttribute('readOnly');
    expect(screen.getByText('Copy this key now: it will not be shown again.')).toBeInTheDocument();
    expect(sentJson(callsTo('POST /api/keys')[0]?.[1])).toEqual({ name: 'Team chat' });
    // The list asks again and shows the new key by its prefix only.
    const list = await screen.findByRole('list', { name: 'API keys' });
    expect(list).toHaveTextContent('gs_AbC123…');
    expect(list).not.toHaveTextContent('secretpart');
    expect(callsTo('GET /api/keys')).toHaveLength(2);

    await clickAndSettle(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('gs_AbC123secretpart');
    expect(await screen.findByText('API key copied to the clipboard.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue('gs_AbC123secretpart')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Key name')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Create key' })).toBeInTheDocument();
  });

  it('shows the server refusing the name as a form message, and keeps the name', async () => {
    serve({
      'GET /api/keys': () => json(200, []),
      'POST /api/keys': () => json(400, { error: 'Name must be 1 to 50 characters', code: 'validation' }),
    });
    renderWithProviders(<ApiKeysSection />);
    await screen.findByText('No API keys yet.');
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const message = await screen.findByRole('alert');
    expect(message).toHaveTextContent('Name must be 1 to 50 characters');
    expect(message).toHaveClass('form-message', 'form-message--error');
    expect(screen.getByLabelText('Key name')).toHaveValue('   ');
    expect(screen.queryByText('Copy this key now: it will not be shown again.')).not.toBeInTheDocument();
    // Typing again clears the message.
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: 'Team chat' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the limit of 20 keys as a form message', async () => {
    const limit = 'You have 20 API keys already. Revoke one you no longer use first.';
    serve({
      'GET /api/keys': () => json(200, [teamChat]),
      'POST /api/keys': () => json(409, { error: limit, code: 'conflict' }),
    });
    renderWithProviders(<ApiKeysSection />);
    await screen.findByRole('list', { name: 'API keys' });
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: 'One more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(limit);
  });

  it('revokes a key after the confirm: the key leaves the list with a toast', async () => {
    let keys = [teamChat, bot];
    serve({
      'GET /api/keys': () => json(200, keys),
      'DELETE /api/keys/7': () => {
        keys = [bot];
        return new Response(null, { status: 204 });
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithProviders(<ApiKeysSection />);
    const list = await screen.findByRole('list', { name: 'API keys' });

    // Cancelled: nothing is sent.
    fireEvent.click(within(list).getByRole('button', { name: 'Revoke Team chat' }));
    expect(confirm).toHaveBeenLastCalledWith('Revoke key Team chat? Programs using it stop working at once.');
    expect(callsTo('DELETE /api/keys/7')).toHaveLength(0);

    fireEvent.click(within(list).getByRole('button', { name: 'Revoke Team chat' }));
    expect(await screen.findByText('API key revoked')).toBeInTheDocument();
    expect(callsTo('DELETE /api/keys/7')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Team chat')).not.toBeInTheDocument());
    expect(screen.getByRole('list', { name: 'API keys' })).toHaveTextContent('Bot');
  });

  it('shows the server refusing a revoke in an error toast and keeps the key', async () => {
    serve({
      'GET /api/keys': () => json(200, [teamChat]),
      'DELETE /api/keys/7': () => json(404, { error: 'API key not found', code: 'not_found' }),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<ApiKeysSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Team chat' }));
    expect(await screen.findByText('API key not found')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'API keys' })).toHaveTextContent('Team chat');
  });

  it('revoking the last key leaves the empty state', async () => {
    let keys = [teamChat];
    serve({
      'GET /api/keys': () => json(200, keys),
      'DELETE /api/keys/7': () => {
        keys = [];
        return new Response(null, { status: 204 });
      },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<ApiKeysSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Team chat' }));
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
  });
});
