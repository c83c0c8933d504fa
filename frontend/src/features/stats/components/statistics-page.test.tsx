import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { jsonResponse, urlOf } from '@/test/gifs';
import { renderWithProviders } from '@/test/render';
import { makeDetailed, makeOverview } from '@/test/stats';
import { tokenFor } from '@/test/tokens';
import { statsKeys } from '../api/query-keys';
import { StatisticsPage } from './statistics-page';

type MockChartProps = {
  data: { labels: string[]; datasets: Array<{ data: number[] }> };
  options: { onClick?: (event: unknown, elements: Array<{ index: number }>, chart: unknown) => void };
  'aria-label'?: string;
};

/** The props each chart was last rendered with, by chart title (the start of its aria-label). */
const charts = vi.hoisted(() => new Map<string, { type: string; props: unknown }>());

// react-chartjs-2 draws on a canvas, which jsdom lacks: record the props instead.
vi.mock('react-chartjs-2', () => {
  const make =
    (type: string) =>
    (props: { 'aria-label'?: string }): ReactNode => {
      const label = props['aria-label'] ?? '';
      charts.set(label.split('. ')[0] ?? label, { type, props });
      return <canvas role="img" aria-label={label} data-chart-type={type} />;
    };
  return { Bar: make('bar'), Line: make('line'), Pie: make('pie') };
});

const chart = (title: string) => {
  const entry = charts.get(title);
  if (!entry) throw new Error(`no chart "${title}"`);
  return { type: entry.type, props: entry.props as MockChartProps };
};
const clickChart = (title: string, index: number) =>
  act(() => chart(title).props.options.onClick?.({}, [{ index }], {}));

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([input]) => urlOf(input));

/** Answers each stats endpoint; `routes` may override any path with a response factory. */
function serve(routes: Record<string, () => Response | Promise<Response>> = {}) {
  fetchMock.mockImplementation(async (input) => {
    const url = urlOf(input);
    const handler = routes[url];
    if (handler) return handler();
    const path = url.replace('?refresh=true', '');
    if (path === '/api/stats') return jsonResponse(makeOverview());
    if (path === '/api/stats/detailed') return jsonResponse(makeDetailed());
    return jsonResponse([]);
  });
}

beforeEach(() => {
  charts.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

const renderPage = () => renderWithProviders(<StatisticsPage />, { route: '/statistics', path: '/statistics' });
const card = (label: string) => screen.getByRole('group', { name: label });

describe('statistics page', () => {
  it('shows "Loading statistics...", then the header, summary and overview cards', async () => {
    serve();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Application Statistics' })).toBeInTheDocument();
    expect(screen.getByText('Analytics and insights')).toBeInTheDocument();
    expect(screen.getByText('Loading statistics...')).toBeInTheDocument();
    expect(await screen.findByText('12 GIFs · 3 users · 45 views')).toBeInTheDocument();
    expect(screen.getByText(/^Last updated/)).toHaveTextContent(
      `Last updated: ${new Date('2026-01-02T03:04:05Z').toLocaleString()}`,
    );

    expect(within(card('Total GIFs')).getByText('12')).toBeInTheDocument();
    expect(within(card('Total Users')).getByText('3')).toBeInTheDocument();
    expect(within(card('Total Tags')).getByText('5')).toBeInTheDocument();
    expect(within(card('Total Tags')).getByText('2 empty')).toBeInTheDocument();
    expect(within(card('Total Views')).getByText('45')).toBeInTheDocument();
    expect(within(card('Avg Tags per GIF')).getByText('1.50')).toBeInTheDocument();
    expect(within(card('Avg GIFs per User')).getByText('4.00')).toBeInTheDocument();
    expect(within(card('Avg Views per GIF')).getByText('3.75')).toBeInTheDocument();
    expect(within(card('Total Storage')).getByText('1.50 MB', { selector: '.stat-card__value' })).toBeInTheDocument();
    expect(within(card('Total Storage')).getByText('1.50 MB', { selector: '.stat-card__subtitle' })).toBeInTheDocument();
    expect(within(card('Recent Activity')).getByText('2')).toBeInTheDocument();
    expect(within(card('Recent Activity')).getByText('Today | 6 this week')).toBeInTheDocument();
    expect(calls()).toEqual(['/api/stats']);
  });

  it('draws the overview bar charts from the pairs, most-viewed titles cut to 15 characters', async () => {
    serve();
    renderPage();
    await screen.findByText('12 GIFs · 3 users · 45 views');
    for (const title of ['Most Used Tags', 'Top Users by GIF Count', 'Most Viewed GIFs']) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
      expect(chart(title).type).toBe('bar');
    }
    expect(screen.getByText('Click on bars to see GIFs with this tag')).toBeInTheDocument();
    expect(chart('Most Used Tags').props.data.labels).toEqual(['funny', 'cats']);
    expect(chart('Most Used Tags').props.data.datasets[0]?.data).toEqual([5, 3]);
    expect(chart('Top Users by GIF Count').props.data.labels).toEqual(['alice', 'bob']);
    expect(chart('Most Viewed GIFs').props.data.labels).toEqual(['A very long dan...', 'Short']);
    expect(chart('Most Viewed GIFs').props.data.datasets[0]?.data).toEqual([20, 9]);
  });

  it('opens the tag detail modal from a "Most Used Tags" bar', async () => {
    serve({
      '/api/stats/detailed/tag/cats': () =>
        jsonResponse([{ id: 4, title: 'Cat nap', sizeMB: 0.1, views: 17, contentType: 'image/gif' }]),
    });
    renderPage();
    await screen.findByText('12 GIFs · 3 users · 45 views');
    clickChart('Most Used Tags', 1);
    const dialog = await screen.findByRole('dialog', { name: 'Detailed Data: cats' });
    expect(await within(dialog).findByRole('link', { name: 'Cat nap' })).toHaveAttribute('href', '/gifs/4');
    expect(within(dialog).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['GIF ID', 'Title', 'Views']);
    expect(within(dialog).getByText('17')).toBeInTheDocument();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('loads the detailed stats only when the Detailed Analysis tab is opened', async () => {
    serve();
    renderPage();
    await screen.findByText('12 GIFs · 3 users · 45 views');
    const tabs = screen.getByRole('tablist');
    const overview = within(tabs).getByRole('tab', { name: 'Overview' });
    const detailedTab = within(tabs).getByRole('tab', { name: 'Detailed Analysis' });
    expect(overview).toHaveAttribute('aria-selected', 'true');
    expect(detailedTab).toHaveAttribute('aria-selected', 'false');
    expect(calls()).not.toContain('/api/stats/detailed');

    fireEvent.click(detailedTab);
    expect(detailedTab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Detailed Analysis' })).toHaveTextContent('Loading statistics...');
    expect(await screen.findByRole('heading', { name: 'Daily Uploads (Last 7 Days)' })).toBeInTheDocument();
    expect(calls()).toEqual(['/api/stats', '/api/stats/detailed']);

    expect(chart('Daily Uploads (Last 7 Days)').type).toBe('line');
    expect(chart('Daily Uploads (Last 7 Days)').props.data.labels).toEqual(
      ['01', '02', '03', '04', '05', '06', '07'].map((d) => new Date(2026, 0, Number(d)).toLocaleDateString()),
    );
    expect(chart('Tag Distribution').type).toBe('pie');
    expect(chart('Tag Distribution').props.data.labels).toEqual(['funny (75.0%)', 'cats (25.0%)']);
    expect(chart('User Activity Distribution').type).toBe('pie');
    expect(chart('GIF Size Distribution').props.data.labels).toEqual([
      '0-100KB',
      '100KB-500KB',
      '500KB-1MB',
      '1MB-5MB',
      '5MB-10MB',
    ]);
    expect(chart('Content Type Statistics').props.data.datasets[0]?.data).toEqual([12]);
    const sizeTable = screen.getByRole('region', { name: 'Size Distribution Details' });
    expect(within(sizeTable).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Size Range',
      'Count',
      'Avg Size (MB)',
    ]);
    const typeTable = screen.getByRole('region', { name: 'Content Type Details' });
    expect(within(typeTable).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Type',
      'Count',
      'Avg Size (MB)',
    ]);

    // Arrow keys move between the tabs; back on Overview nothing is fetched again.
    fireEvent.keyDown(detailedTab, { key: 'ArrowLeft' });
    expect(overview).toHaveAttribute('aria-selected', 'true');
    expect(overview).toHaveFocus();
    expect(await screen.findByRole('heading', { name: 'Most Used Tags' })).toBeInTheDocument();
    expect(calls()).toHaveLength(2);
  });

  it('opens the activity, size and content-type modals from slices, bars and table rows', async () => {
    serve({
      '/api/stats/detailed/activity/casual': () => jsonResponse([{ id: 2, username: 'bob', gifCount: 3 }]),
      '/api/stats/detailed/size/100KB-500KB': () =>
        jsonResponse([{ id: 9, title: 'Big one', sizeMB: 0.3, views: 1, contentType: 'image/gif' }]),
      '/api/stats/detailed/content-type?type=image%2Fgif': () =>
        jsonResponse([{ id: 5, title: 'Gif five', sizeMB: 0.07, views: 2, contentType: 'image/gif' }]),
    });
    renderPage();
    await screen.findByText('12 GIFs · 3 users · 45 views');
    fireEvent.click(screen.getByRole('tab', { name: 'Detailed Analysis' }));
    await screen.findByRole('heading', { name: 'Daily Uploads (Last 7 Days)' });

    clickChart('User Activity Distribution', 1);
    let dialog = await screen.findByRole('dialog', { name: 'Detailed Data: casual' });
    expect(await within(dialog).findByText('bob')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'User ID',
      'Username',
      'GIF Count',
    ]);
    // Two ways out besides Escape: the × button (first) and the Close button (last), both named "Close".
    const closers = within(dialog).getAllByRole('button', { name: 'Close' });
    expect(closers.map((b) => b.textContent)).toEqual(['×', 'Close']);
    fireEvent.click(closers[1]!);
    expect(screen.queryByRole('dialog')).toBeNull();

    clickChart('GIF Size Distribution', 1);
    dialog = await screen.findByRole('dialog', { name: 'Detailed Data: 100KB-500KB' });
    expect(await within(dialog).findByRole('link', { name: 'Big one' })).toHaveAttribute('href', '/gifs/9');
    expect(within(dialog).getByText('0.30')).toBeInTheDocument();
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    expect(screen.queryByRole('dialog')).toBeNull();

    clickChart('Content Type Statistics', 0);
    dialog = await screen.findByRole('dialog', { name: 'Detailed Data: image/gif' });
    expect(await within(dialog).findByRole('link', { name: 'Gif five' })).toBeInTheDocument();
    expect(within(dialog).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'GIF ID',
      'Title',
      'Content Type',
      'Size (MB)',
    ]);
    fireEvent.keyDown(dialog, { key: 'Escape' });

    // Table rows: the label is a button (keyboard), and the whole row answers a click.
    const sizeTable = screen.getByRole('region', { name: 'Size Distribution Details' });
    fireEvent.click(within(sizeTable).getByRole('button', { name: '100KB-500KB' }));
    expect(await screen.findByRole('dialog', { name: 'Detailed Data: 100KB-500KB' })).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    const typeTable = screen.getByRole('region', { name: 'Content Type Details' });
    fireEvent.click(within(typeTable).getByText('12').closest('tr')!);
    expect(await screen.findByRole('dialog', { name: 'Detailed Data: image/gif' })).toBeInTheDocument();

    expect(calls()).toEqual([
      '/api/stats',
      '/api/stats/detailed',
      '/api/stats/detailed/activity/casual',
      '/api/stats/detailed/size/100KB-500KB',
      '/api/stats/detailed/content-type?type=image%2Fgif',
      '/api/stats/detailed/size/100KB-500KB',
      '/api/stats/detailed/content-type?type=image%2Fgif',
    ]);
  });

  it('"Refresh Data" shows "Refreshing..." and is disabled while loading, and asks for fresh figures of what was loaded', async () => {
    serve();
    renderPage();
    expect(screen.getByRole('button', { name: 'Refreshing...' })).toBeDisabled();
    const refresh = await screen.findByRole('button', { name: 'Refresh Data' });
    expect(refresh).toBeEnabled();

    let answer: (response: Response) => void = () => {};
    serve({ '/api/stats?refresh=true': () => new Promise<Response>((resolve) => (answer = resolve)) });
    fireEvent.click(refresh);
    expect(await screen.findByRole('button', { name: 'Refreshing...' })).toBeDisabled();
    // The loaded overview stays on screen while it refreshes.
    expect(screen.getByText('12 GIFs · 3 users · 45 views')).toBeInTheDocument();
    answer(jsonResponse(makeOverview({ totalGifs: 14, totalViews: 50 })));
    expect(await screen.findByText('14 GIFs · 3 users · 50 views')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Data' })).toBeEnabled();
    expect(calls()).toEqual(['/api/stats', '/api/stats?refresh=true']);

    // Once the detailed tab was loaded, a refresh reloads it too.
    fireEvent.click(screen.getByRole('tab', { name: 'Detailed Analysis' }));
    await screen.findByRole('heading', { name: 'Daily Uploads (Last 7 Days)' });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh Data' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh Data' })).toBeEnabled());
    expect(calls().slice(2)).toEqual([
      '/api/stats/detailed',
      '/api/stats?refresh=true',
      '/api/stats/detailed?refresh=true',
    ]);
  });

  it('shows "Error Loading Statistics" with the message, and Retry reloads the overview', async () => {
    serve({ '/api/stats': () => jsonResponse({ error: 'Stats are resting' }, 400) });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Error Loading Statistics' })).toBeInTheDocument();
    expect(alert).toHaveTextContent('Stats are resting');
    expect(screen.queryByRole('tablist')).toBeNull();

    serve();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('12 GIFs · 3 users · 45 views')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls()).toEqual(['/api/stats', '/api/stats']);
  });

  it('uses "Failed to fetch application stats" / "Failed to fetch detailed stats" when the server says nothing', async () => {
    serve({
      '/api/stats': () => new Response(null, { status: 404 }),
    });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch application stats');

    serve({ '/api/stats/detailed': () => new Response(null, { status: 400 }) });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    fireEvent.click(await screen.findByRole('tab', { name: 'Detailed Analysis' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error Loading Statistics');
    expect(alert).toHaveTextContent('Failed to fetch detailed stats');
    serve();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Daily Uploads (Last 7 Days)' })).toBeInTheDocument();
  });

  it('clears the stats state when the screen is left', async () => {
    serve();
    const { client, unmount } = renderPage();
    await screen.findByText('12 GIFs · 3 users · 45 views');
    fireEvent.click(screen.getByRole('tab', { name: 'Detailed Analysis' }));
    await screen.findByRole('heading', { name: 'Daily Uploads (Last 7 Days)' });
    expect(client.getQueryCache().findAll({ queryKey: statsKeys.all })).toHaveLength(2);
    unmount();
    expect(client.getQueryCache().findAll({ queryKey: statsKeys.all })).toHaveLength(0);
  });
});
