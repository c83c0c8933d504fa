import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { PASSWORD, takeFirstAccount, uniqueName, uploadGifViaApi } from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * The third-party app, served from its own origin (a port of its own on loopback, so that the
 * Grid calls gifshelf across origins as a real app does, from the same network).
 */
async function serveApp(script: string): Promise<{ origin: string; close: () => void }> {
  const page =
    '<!doctype html><html><body style="margin:0"><div id="root"></div><script src="/grid.js"></script></body></html>';
  const server = createServer((req, res) => {
    const js = req.url === '/grid.js';
    res.writeHead(200, { 'Content-Type': js ? 'text/javascript' : 'text/html' });
    res.end(js ? script : page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function signedIn(request: APIRequestContext, prefix: string): Promise<string> {
  const username = uniqueName(prefix);
  const registered = await request.post('/api/auth/register', {
    data: { username, email: `${username}@example.com`, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(registered.status()).toBe(201);
  const login = await request.post('/api/auth/login', { data: { username, password: PASSWORD } });
  expect(login.status()).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

/** The page's script: GIPHY's packages from npm as they are, bundled for the browser. */
async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(here, 'giphy-grid/page.tsx')],
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    target: 'es2020',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

test('GIPHY’s React Grid, fed by its fetch library pointed at gifshelf, scrolls to the end of a search', async ({
  page,
  request,
  baseURL,
}) => {
  const token = await signedIn(request, 'grid');
  const word = uniqueName('grid').replace(/[^a-z0-9]/g, '');
  const uploaded: string[] = [];
  for (let n = 0; n < 10; n += 1) {
    const gif = await uploadGifViaApi(request, token, { title: `${word} ${n}`, tags: [word] }, 9300 + n);
    uploaded.push(gif.shareId);
  }
  const created = await request.post('/api/keys', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'Grid' },
  });
  expect(created.status()).toBe(201);
  const key = ((await created.json()) as { key: string }).key;

  const app = await serveApp(await bundle());
  const searches: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/giphy/v1/gifs/search')) searches.push(response.status());
  });
  const giphyHosts: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).hostname.endsWith('giphy.com')) giphyHosts.push(r.url());
  });

  const query = new URLSearchParams({ server: `${baseURL}/api/giphy/v1/`, key, q: word });
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto(`${app.origin}/?${query}`);
  const gifs = page.locator('.giphy-gif');
  await expect.poll(() => page.evaluate(() => window.gridState.fetched + window.gridState.errors.length)).toBeGreaterThan(0);
  expect((await page.evaluate(() => window.gridState)).errors).toEqual([]);
  await expect(gifs.first()).toBeVisible();

  // Scroll to the bottom until the Grid stops asking: four GIFs a page, ten in the search.
  await expect(async () => {
    await page.mouse.wheel(0, 2000);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await gifs.count()).toBe(uploaded.length);
  }).toPass({ timeout: 20_000 });
  await page.waitForTimeout(500);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForTimeout(500);
  expect(await gifs.count()).toBe(uploaded.length);
  expect(searches.length).toBeGreaterThanOrEqual(3);
  expect(searches.every((status) => status === 200)).toBe(true);
  const state = await page.evaluate(() => window.gridState);
  expect(state).toEqual({ fetched: uploaded.length, errors: [] });

  // Each cell is laid out by the answer's sizes and shows gifshelf's file, which loads.
  const cells = await gifs.evaluateAll((els) =>
    els.map((el) => {
      const img = el.querySelector('img');
      const box = el.getBoundingClientRect();
      return { src: img?.src ?? '', width: box.width, height: box.height };
    }),
  );
  // Cells scrolled out of view hold the Grid's 1-pixel placeholder; the others gifshelf's files.
  const shown = cells.filter((cell) => !cell.src.startsWith('data:'));
  expect(shown.length).toBeGreaterThanOrEqual(3);
  for (const cell of shown) expect(cell.src.startsWith(`${baseURL}/s/`), cell.src).toBe(true);
  for (const cell of cells) {
    expect(cell.width).toBeGreaterThan(100);
    expect(cell.height).toBeGreaterThan(50);
  }
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const last = gifs.last().locator('img');
  await expect(last).toBeVisible();
  await expect.poll(() => last.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Nothing went to GIPHY: gifshelf's answers carry no analytics.
  expect(giphyHosts).toEqual([]);
  app.close();
});
