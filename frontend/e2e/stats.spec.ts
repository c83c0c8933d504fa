/**
 * The admin Statistics dashboard against the real server: cards match GET /api/stats (and move by
 * the right amounts after two uploads and "Refresh Data"), every chart is drawn, bars and table
 * rows open their detail modal, and a non-admin is sent away.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { animatedGif } from './gif-encoder';
import { logIn, register, registerAndLogIn, screenshots, takeFirstAccount, uniqueName } from './support';

type OverviewStats = {
  totalGifs: number;
  totalUsers: number;
  totalTags: number;
  emptyTagsCount: number;
  totalViews: number;
  averageTagsPerGif: number;
  averageGifsPerUser: number;
  averageViewsPerGif: number;
  totalContentSizeBytes: number;
  totalContentSizeMB: number;
  gifsUploadedToday: number;
  gifsUploadedThisWeek: number;
  lastUpdated: string;
  mostUsedTags: [string, string][];
  topUsers: [string, string][];
  mostViewedGifs: [string, string][];
};

const here = path.dirname(fileURLToPath(import.meta.url));

/** The server binary, found as playwright.config.ts finds it. */
function serverBinary(): string {
  if (process.env.GIFSHELF_BIN) return process.env.GIFSHELF_BIN;
  const candidates = ['../../target/release/gifshelf', '../../target/debug/gifshelf'].map((p) => path.resolve(here, p));
  return candidates.find((p) => existsSync(p)) ?? candidates[1]!;
}

/** Makes `username` an administrator with the server's CLI, on the data dir the test server uses. */
function grantAdmin(username: string): void {
  execFileSync(serverBinary(), ['admin', 'grant', username], {
    env: { ...process.env, GIFSHELF_DATA_DIR: process.env.GIFSHELF_E2E_DATA_DIR },
    stdio: 'pipe',
  });
}

test.beforeAll(({ request }) => takeFirstAccount(request));

// Charts draw without animation (the app honours reduced motion), so screenshots show final frames.
test.use({ reducedMotion: 'reduce' });

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  if (!token) throw new Error('not signed in');
  return token;
}

async function apiUpload(request: APIRequestContext, token: string, title: string, tags: string[], seed: number) {
  const response = await request.post('/api/gifs', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      file: { name: `stats${seed}.gif`, mimeType: 'image/gif', buffer: animatedGif({ seed, width: 120, height: 90 }) },
      gifData: {
        name: 'blob',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ title, description: 'for the statistics test', tags })),
      },
    },
  });
  expect(response.status()).toBe(201);
}

async function fetchStats(request: APIRequestContext, token: string): Promise<OverviewStats> {
  const response = await request.get('/api/stats', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as OverviewStats;
}

const card = (page: Page, label: string) => page.getByRole('group', { name: label });
const value = (page: Page, label: string) => card(page, label).locator('.stat-card__value');
const subtitle = (page: Page, label: string) => card(page, label).locator('.stat-card__subtitle');
const panel = (page: Page, title: string) => page.getByRole('region', { name: title });

/** The cards show what GET /api/stats says (numbers are small here: no thousands separators). */
async function expectCards(page: Page, stats: OverviewStats): Promise<void> {
  await expect(value(page, 'Total GIFs')).toHaveText(String(stats.totalGifs));
  await expect(value(page, 'Total Users')).toHaveText(String(stats.totalUsers));
  await expect(value(page, 'Total Tags')).toHaveText(String(stats.totalTags));
  await expect(subtitle(page, 'Total Tags')).toHaveText(`${stats.emptyTagsCount} empty`);
  await expect(value(page, 'Total Views')).toHaveText(String(stats.totalViews));
  await expect(value(page, 'Avg Tags per GIF')).toHaveText(stats.averageTagsPerGif.toFixed(2));
  await expect(value(page, 'Avg GIFs per User')).toHaveText(stats.averageGifsPerUser.toFixed(2));
  await expect(value(page, 'Avg Views per GIF')).toHaveText(stats.averageViewsPerGif.toFixed(2));
  await expect(value(page, 'Total Storage')).toHaveText(/^\d+(\.\d{2})? (Bytes|KB|MB|GB)$/);
  await expect(subtitle(page, 'Total Storage')).toHaveText(`${stats.totalContentSizeMB.toFixed(2)} MB`);
  await expect(value(page, 'Recent Activity')).toHaveText(String(stats.gifsUploadedToday));
  await expect(subtitle(page, 'Recent Activity')).toHaveText(`Today | ${stats.gifsUploadedThisWeek} this week`);
  await expect(page.getByText(`${stats.totalGifs} GIFs · ${stats.totalUsers} users · ${stats.totalViews} views`)).toBeVisible();
}

/**
 * Clicks the first (leftmost) clickable element of a chart: the pointer is swept across the lower
 * part of the canvas until the chart shows the pointer cursor (it does over bars and slices).
 */
async function clickFirstChartElement(page: Page, canvas: Locator): Promise<void> {
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('chart not visible');
  for (const fraction of [0.8, 0.7, 0.6, 0.5, 0.4, 0.3]) {
    const y = box.y + box.height * fraction;
    for (let x = box.x + 4; x < box.x + box.width; x += 6) {
      await page.mouse.move(x, y);
      if ((await canvas.evaluate((el) => (el as HTMLElement).style.cursor)) === 'pointer') {
        await page.mouse.click(x, y);
        return;
      }
    }
  }
  throw new Error('no clickable chart element found');
}

test('admin statistics: cards, refresh deltas, charts, detail modals', async ({ page, request }) => {
  test.setTimeout(180_000);
  const admin = uniqueName('stadm');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);
  const token = await tokenOf(page);
  const tag = `st${uniqueName('t').toLowerCase()}`.slice(0, 20);
  const titles = ['Statistics square one', 'Statistics square two'];
  for (const [index, title] of titles.entries()) await apiUpload(request, token, title, [tag], index + 20);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\/statistics$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Application Statistics' })).toBeVisible();
  await expect(page.getByText('Analytics and insights')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Refresh Data' })).toBeEnabled();
  await expect(page.getByText(/^Last updated: /)).toBeVisible();

  const before = await fetchStats(request, token);
  expect(before.totalGifs).toBeGreaterThanOrEqual(2);
  await expectCards(page, before);
  for (const title of ['Most Used Tags', 'Top Users by GIF Count', 'Most Viewed GIFs']) {
    await expect(panel(page, title).getByRole('heading', { name: title })).toBeVisible();
    await expect(panel(page, title).locator('canvas')).toBeVisible();
  }
  await expect(page.getByText('Click on bars to see GIFs with this tag')).toBeVisible();
  await screenshots(page, 'stats-overview');

  // Two more uploads, then Refresh Data: the totals move by two.
  for (const [index, title] of ['Statistics square three', 'Statistics square four'].entries()) {
    await apiUpload(request, token, title, [tag], index + 30);
  }
  await page.getByRole('button', { name: 'Refresh Data' }).click();
  await expect(value(page, 'Total GIFs')).toHaveText(String(before.totalGifs + 2));
  await expect(page.getByRole('button', { name: 'Refresh Data' })).toBeEnabled();
  const after = await fetchStats(request, token);
  expect(after.totalGifs).toBe(before.totalGifs + 2);
  expect(after.gifsUploadedToday).toBe(before.gifsUploadedToday + 2);
  expect(after.gifsUploadedThisWeek).toBe(before.gifsUploadedThisWeek + 2);
  expect(after.totalContentSizeBytes).toBeGreaterThan(before.totalContentSizeBytes);
  await expectCards(page, after);

  // A bar of "Most Used Tags" opens that tag's GIFs.
  const [firstTag, firstCount] = after.mostUsedTags[0] ?? ['', '0'];
  await clickFirstChartElement(page, panel(page, 'Most Used Tags').locator('canvas'));
  let dialog = page.getByRole('dialog', { name: `Detailed Data: ${firstTag}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('columnheader')).toHaveText(['GIF ID', 'Title', 'Views']);
  await expect(dialog.locator('tbody tr')).toHaveCount(Number(firstCount));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Detailed Analysis: every chart and both tables.
  await page.getByRole('tab', { name: 'Detailed Analysis' }).click();
  await expect(page.getByRole('tab', { name: 'Detailed Analysis' })).toHaveAttribute('aria-selected', 'true');
  for (const title of [
    'Daily Uploads (Last 7 Days)',
    'Tag Distribution',
    'User Activity Distribution',
    'GIF Size Distribution',
    'Content Type Statistics',
  ]) {
    await expect(panel(page, title).getByRole('heading', { name: title })).toBeVisible();
    await expect(panel(page, title).locator('canvas')).toBeVisible();
  }
  const sizeTable = panel(page, 'Size Distribution Details');
  await expect(sizeTable.getByRole('columnheader')).toHaveText(['Size Range', 'Count', 'Avg Size (MB)']);
  await expect(sizeTable.locator('tbody tr')).toHaveCount(5);
  const typeTable = panel(page, 'Content Type Details');
  await expect(typeTable.getByRole('columnheader')).toHaveText(['Type', 'Count', 'Avg Size (MB)']);
  await expect(typeTable.getByRole('button', { name: 'image/gif' })).toBeVisible();
  await screenshots(page, 'stats-detailed');

  // A table row (by keyboard) opens the size range's GIFs; ours are all under 100 KB.
  const smallest = sizeTable.getByRole('button', { name: '0-100KB' });
  await smallest.focus();
  await page.keyboard.press('Enter');
  dialog = page.getByRole('dialog', { name: 'Detailed Data: 0-100KB' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('columnheader')).toHaveText(['GIF ID', 'Title', 'Size (MB)']);
  await expect(dialog.getByRole('link', { name: 'Statistics square four' })).toBeVisible();
  await screenshots(page, 'stats-modal');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(smallest).toBeFocused();

  // A bar of "GIF Size Distribution" opens the same modal; "Close" closes it.
  await clickFirstChartElement(page, panel(page, 'GIF Size Distribution').locator('canvas'));
  dialog = page.getByRole('dialog', { name: 'Detailed Data: 0-100KB' });
  await expect(dialog.getByRole('link', { name: 'Statistics square one' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A row of "Content Type Details" opens the content-type modal.
  await typeTable.getByRole('button', { name: 'image/gif' }).click();
  dialog = page.getByRole('dialog', { name: 'Detailed Data: image/gif' });
  await expect(dialog.getByRole('columnheader')).toHaveText(['GIF ID', 'Title', 'Content Type', 'Size (MB)']);
  await expect(dialog.getByRole('link', { name: 'Statistics square two' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A slice of "User Activity Distribution" opens the users of that level.
  await clickFirstChartElement(page, panel(page, 'User Activity Distribution').locator('canvas'));
  dialog = page.getByRole('dialog', { name: /^Detailed Data: (inactive|casual|active|power)$/ });
  await expect(dialog.getByRole('columnheader')).toHaveText(['User ID', 'Username', 'GIF Count']);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a non-admin visiting /statistics is sent to /', async ({ page }) => {
  await registerAndLogIn(page, 'stplain');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statistics' })).toHaveCount(0);
  await page.goto('/statistics');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Application Statistics' })).toHaveCount(0);
});
