import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntegrationDto } from '@/api/generated/IntegrationDto';
import { login, logout } from '@/lib/session';
import { answering, clickAndSettle, sentJson, urlOf } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { IntegrationsSection } from './integrations-section';

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

const teamSlack: IntegrationDto = {
  id: 3,
  platform: 'slack',
  name: 'Team Slack',
  secretHint: '85a5',
  createdAt: '2026-03-04T10:00:00Z',
  maxRating: 'g',
};
const zulip: IntegrationDto = {
  id: 4,
  platform: 'zulip',
  name: 'Zulip bot',
  secretHint: 'LJ0x',
  createdAt: '2026-03-05T10:00:00Z',
  maxRating: 'pg',
};

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

describe('IntegrationsSection', () => {
  it('shows the request URL to configure and "No integrations yet." when there are none', async () => {
    serve({ 'GET /api/integrations': () => json(200, []) });
    renderWithProviders(<IntegrationsSection />);
    expect(screen.getByRole('heading', { name: 'Integrations' })).toBeInTheDocument();
    expect(screen.getByText('Loading integrations...')).toBeInTheDocument();
    expect(await screen.findByText('No integrations yet.')).toBeInTheDocument();
    expect(screen.getByLabelText('Request URL')).toHaveValue(`${window.location.origin}/api/chat/command`);
    expect(screen.queryByRole('list', { name: 'Integrations' })).not.toBeInTheDocument();
  });

  it('lists each integration: name, platform, the last characters of its secret, the date', async () => {
    serve({ 'GET /api/integrations': () => json(200, [teamSlack, zulip]) });
    renderWithProviders(<IntegrationsSection />);
    const list = await screen.findByRole('list', { name: 'Integrations' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Team Slack');
    expect(first).toHaveTextContent('Slack · secret …85a5');
    expect(first).toHaveTextContent(`Added ${new Date(teamSlack.createdAt).toLocaleDateString()}`);
    expect(second).toHaveTextContent('Zulip · secret …LJ0x');
    expect(within(first!).getByRole('combobox', { name: 'Maximum rating of Team Slack' })).toHaveValue('g');
    expect(within(second!).getByRole('combobox', { name: 'Maximum rating of Zulip bot' })).toHaveValue('pg');
    expect(within(first!).getByRole('button', { name: 'Save the maximum rating of Team Slack' })).toBeDisabled();
  });

  it("saves an integration's maximum rating: sends it, toasts, shows the stored one", async () => {
    let list = [teamSlack, zulip];
    serve({
      'GET /api/integrations': () => json(200, list),
      'PUT /api/integrations/3': (init) => {
        const saved = { ...teamSlack, ...(sentJson(init) as Partial<IntegrationDto>) };
        list = [saved, zulip];
        return json(200, saved);
      },
    });
    renderWithProviders(<IntegrationsSection />);
    const select = await screen.findByRole('combobox', { name: 'Maximum rating of Team Slack' });
    const save = screen.getByRole('button', { name: 'Save the maximum rating of Team Slack' });
    fireEvent.change(select, { target: { value: 'pg-13' } });
    expect(save).toBeEnabled();
    fireEvent.click(save);
    expect(await screen.findByText('Maximum rating of Team Slack saved')).toBeInTheDocument();
    expect(sentJson(callsTo('PUT /api/integrations/3')[0]?.[1])).toEqual({ maxRating: 'pg-13' });
    await waitFor(() => expect(save).toBeDisabled());
    expect(select).toHaveValue('pg-13');
    expect(callsTo('PUT /api/integrations/4')).toHaveLength(0);
  });

  it('shows the server refusing a maximum rating in an error toast and keeps the choice', async () => {
    serve({
      'GET /api/integrations': () => json(200, [teamSlack]),
      'PUT /api/integrations/3': () => json(404, { error: 'Integration not found', code: 'not_found' }),
    });
    renderWithProviders(<IntegrationsSection />);
    const select = await screen.findByRole('combobox', { name: 'Maximum rating of Team Slack' });
    fireEvent.change(select, { target: { value: 'r' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the maximum rating of Team Slack' }));
    expect(await screen.findByText('Integration not found')).toBeInTheDocument();
    expect(select).toHaveValue('r');
  });

  it('shows the load error', async () => {
    serve({ 'GET /api/integrations': () => new Response('', { status: 404 }) });
    renderWithProviders(<IntegrationsSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load integrations');
  });

  it('adds an integration: sends platform, name and secret, toasts, clears the form, refreshes the list', async () => {
    let list: IntegrationDto[] = [];
    serve({
      'GET /api/integrations': () => json(200, list),
      'POST /api/integrations': () => {
        list = [zulip];
        return json(201, zulip);
      },
    });
    renderWithProviders(<IntegrationsSection />);
    await screen.findByText('No integrations yet.');
    const secret = screen.getByLabelText('Secret');
    expect(secret).toHaveAttribute('type', 'password');
    expect(secret).toHaveAccessibleDescription(
      'The Signing Secret of your Slack app (Basic Information, App Credentials).',
    );

    fireEvent.change(screen.getByLabelText('Platform'), { target: { value: 'zulip' } });
    expect(secret).toHaveAccessibleDescription('The token of the outgoing webhook bot (in its zuliprc file).');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Zulip bot' } });
    fireEvent.change(secret, { target: { value: 'xvOzfurIutdRRVLzpXrIIHXJvNfaLJ0x' } });
    expect(screen.getByLabelText('Maximum rating')).toHaveValue('');
    fireEvent.change(screen.getByLabelText('Maximum rating'), { target: { value: 'pg' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add integration' }));

    expect(await screen.findByText('Integration added')).toBeInTheDocument();
    expect(sentJson(callsTo('POST /api/integrations')[0]?.[1])).toEqual({
      platform: 'zulip',
      name: 'Zulip bot',
      secret: 'xvOzfurIutdRRVLzpXrIIHXJvNfaLJ0x',
      maxRating: 'pg',
    });
    expect(screen.getByLabelText('Maximum rating')).toHaveValue('');
    const listed = await screen.findByRole('list', { name: 'Integrations' });
    expect(listed).toHaveTextContent('Zulip bot');
    expect(listed).not.toHaveTextContent('xvOzfur');
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Secret')).toHaveValue('');
    expect(screen.getByLabelText('Platform')).toHaveValue('zulip');
  });

  it('shows the server refusing the form as a form message and keeps what was typed', async () => {
    const refusal = 'The secret must be 8 to 200 characters: paste it as the platform shows it.';
    serve({
      'GET /api/integrations': () => json(200, []),
      'POST /api/integrations': () => json(400, { error: refusal, code: 'validation' }),
    });
    renderWithProviders(<IntegrationsSection />);
    await screen.findByText('No integrations yet.');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Team Slack' } });
    fireEvent.change(screen.getByLabelText('Secret'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add integration' }));
    const message = await screen.findByRole('alert');
    expect(message).toHaveTextContent(refusal);
    expect(screen.getByLabelText('Name')).toHaveValue('Team Slack');
    expect(screen.getByLabelText('Secret')).toHaveValue('short');
    fireEvent.change(screen.getByLabelText('Secret'), { target: { value: 'a-longer-secret' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('copies the request URL', async () => {
    serve({ 'GET /api/integrations': () => json(200, []) });
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithProviders(<IntegrationsSection />);
    await clickAndSettle(screen.getByRole('button', { name: 'Copy request URL' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/api/chat/command`);
    expect(await screen.findByText('Request URL copied to the clipboard.')).toBeInTheDocument();
  });

  it('offers Discord, Telegram, Teams and Rocket.Chat, each with its own URL and where its secret is', async () => {
    serve({ 'GET /api/integrations': () => json(200, []) });
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithProviders(<IntegrationsSection />);
    await screen.findByText('No integrations yet.');
    const platform = screen.getByLabelText('Platform');
    expect(within(platform).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Slack',
      'Mattermost',
      'Zulip',
      'Discord',
      'Telegram',
      'Microsoft Teams',
      'Rocket.Chat',
    ]);
    const cases = [
      ['discord', 'Interactions Endpoint URL', '/api/chat/discord', 'The Public Key of your Discord application'],
      ['telegram', 'Webhook URL', '/api/chat/telegram', 'The webhook secret you choose'],
      ['teams', 'Callback URL', '/api/chat/teams', 'The security token Teams shows once'],
      ['rocketchat', 'Request URL', '/api/chat/rocketchat', 'The token Rocket.Chat shows'],
    ] as const;
    for (const [value, label, path, help] of cases) {
      fireEvent.change(platform, { target: { value } });
      expect(screen.getByLabelText(label)).toHaveValue(`${window.location.origin}${path}`);
      expect((screen.getByLabelText('Secret').getAttribute('aria-describedby') ?? '').length).toBeGreaterThan(0);
      expect(screen.getByText(help, { exact: false })).toBeInTheDocument();
    }
    fireEvent.change(platform, { target: { value: 'discord' } });
    await clickAndSettle(screen.getByRole('button', { name: 'Copy interactions endpoint URL' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/api/chat/discord`);
    expect(await screen.findByText('Interactions Endpoint URL copied to the clipboard.')).toBeInTheDocument();
  });

  it('removes an integration after the confirm: it leaves the list with a toast', async () => {
    let list = [teamSlack, zulip];
    serve({
      'GET /api/integrations': () => json(200, list),
      'DELETE /api/integrations/3': () => {
        list = [zulip];
        return new Response(null, { status: 204 });
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithProviders(<IntegrationsSection />);
    const listed = await screen.findByRole('list', { name: 'Integrations' });

    fireEvent.click(within(listed).getByRole('button', { name: 'Remove Team Slack' }));
    expect(confirm).toHaveBeenLastCalledWith('Remove integration Team Slack? Its slash commands stop working at once.');
    expect(callsTo('DELETE /api/integrations/3')).toHaveLength(0);

    fireEvent.click(within(listed).getByRole('button', { name: 'Remove Team Slack' }));
    expect(await screen.findByText('Integration removed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Team Slack')).not.toBeInTheDocument());
    expect(screen.getByRole('list', { name: 'Integrations' })).toHaveTextContent('Zulip bot');
  });

  it('shows the server refusing a removal in an error toast and keeps the integration', async () => {
    serve({
      'GET /api/integrations': () => json(200, [teamSlack]),
      'DELETE /api/integrations/3': () => json(404, { error: 'Integration not found', code: 'not_found' }),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<IntegrationsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Team Slack' }));
    expect(await screen.findByText('Integration not found')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Integrations' })).toHaveTextContent('Team Slack');
  });
});
