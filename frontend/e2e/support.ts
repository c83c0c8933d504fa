import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { animatedGif } from './gif-encoder';

const shotsDir = path.join(
  process.env.E2E_TARGET_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../target'),
  'e2e-shots',
);

export const PASSWORD = 'secret123';

/** A unique username of at most 20 characters. */
export function uniqueName(prefix: string): string {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  return `${prefix}${suffix}`.slice(0, 20);
}

/**
 * The first account on a fresh server becomes ADMIN: specs take it in `beforeAll`, so that the
 * users they register are plain users whichever spec runs first.
 */
export async function takeFirstAccount(request: APIRequestContext): Promise<void> {
  const username = uniqueName('first');
  await request.post('/api/auth/register', {
    data: { username, email: `${username}@example.com`, password: PASSWORD, confirmPassword: PASSWORD },
  });
}

const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * Writes `<name>-<theme>-<width>.png` for light and dark at desktop and phone widths. The theme
 * is switched on <html> only (what the CSS reads), so the app's state is left as it was.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  const original = page.viewportSize();
  const originalTheme = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
      window.scrollTo(0, 0);
    }, theme);
    for (const viewport of viewports) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(150);
      await page.screenshot({
        path: path.join(shotsDir, `${name}-${theme}-${viewport.width}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
  await page.evaluate((t) => {
    document.documentElement.dataset.theme = t;
  }, originalTheme);
  if (original) await page.setViewportSize(original);
}

export async function register(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

export async function logIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(`Hello, ${username}`)).toBeVisible();
}

export async function registerAndLogIn(page: Page, prefix: string): Promise<string> {
  const username = uniqueName(prefix);
  await register(page, username);
  await logIn(page, username);
  return username;
}

/**
 * Makes `username` an administrator with the server's CLI (`gifshelf admin grant`) on the e2e
 * server's data dir. Roles travel in the token: log in again afterwards.
 */
export function grantAdmin(username: string): void {
  const bin = process.env.GIFSHELF_E2E_BIN;
  const dataDir = process.env.GIFSHELF_E2E_DATA_DIR;
  if (!bin || !dataDir) throw new Error('GIFSHELF_E2E_BIN and GIFSHELF_E2E_DATA_DIR come from playwright.config.ts');
  execFileSync(bin, ['admin', 'grant', username], {
    env: { ...process.env, GIFSHELF_DATA_DIR: dataDir },
    stdio: 'pipe',
  });
}

/** The signed-in page's bearer token. */
export async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  if (!token) throw new Error('not signed in');
  return token;
}

export type UploadedGif = { id: number; title: string; shareId: string; tags: { id: number; name: string }[] };

/**
 * Uploads a GIF through the API (for tests that are not about the upload screen): `animatedGif`
 * of this seed, or the bytes given.
 */
export async function uploadGifViaApi(
  request: APIRequestContext,
  token: string,
  data: { title: string; description?: string; tags?: string[]; rating?: 'g' | 'pg' | 'pg-13' | 'r' },
  source: number | Buffer = 0,
): Promise<UploadedGif> {
  const buffer = typeof source === 'number' ? animatedGif({ seed: source, width: 160, height: 120 }) : source;
  const name = typeof source === 'number' ? `seed${source}.gif` : 'upload.gif';
  const response = await request.post('/api/gifs', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      file: { name, mimeType: 'image/gif', buffer },
      gifData: {
        name: 'blob',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ description: '', tags: [], ...data })),
      },
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as UploadedGif;
}

/** The notification with this text. */
export const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

/** Closes the notifications, so that screenshots show the screen underneath. */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.locator('[data-testid="toast"]:not(.toast--leaving) button[aria-label="Close notification"]');
  while ((await close.count()) > 0) await close.first().click({ force: true });
  await expect(page.getByTestId('toast')).toHaveCount(0);
}
