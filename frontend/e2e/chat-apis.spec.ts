import { GiphyFetch, gifPaginator, setServerUrl } from '@giphy/js-fetch-api';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, registerAndLogIn, takeFirstAccount, toast, uniqueName, uploadGifViaApi } from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

/** A new account with a session token (for tests that are not about signing in). */
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

async function apiKey(request: APIRequestContext, token: string): Promise<string> {
  const created = await request.post('/api/keys', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'GIPHY SDK' },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { key: string }).key;
}

test('GIPHY’s own fetch library, pointed at gifshelf, searches, pages to the end and reads GIFs', async ({
  request,
  baseURL,
}) => {
  const token = await signedIn(request, 'giphy');
  const word = uniqueName('sdk').replace(/[^a-z0-9]/g, '');
  const uploaded: string[] = [];
  for (let n = 0; n < 7; n += 1) {
    const gif = await uploadGifViaApi(request, token, { title: `${word} ${n}`, tags: [word] }, 9000 + n);
    uploaded.push(gif.shareId);
  }
  const key = await apiKey(request, token);

  // The one line an app changes: the server URL (it must end in /v1/).
  setServerUrl(`${baseURL}/api/giphy/v1/`);
  const gf = new GiphyFetch(key);

  const search = await gf.search(word, { limit: 3, offset: 0, rating: 'pg-13', lang: 'en' });
  expect(search.meta.response_id).not.toBe('');
  expect(search.pagination).toEqual({ total_count: 7, count: 3, offset: 0 });
  expect(search.data).toHaveLength(3);
  const first = search.data[0]!;
  expect(uploaded).toContain(first.id);
  expect(first.title).toBe(`${word} 6`); // most viewed first, then newest
  expect(first.embed_url.endsWith(`/${first.id}`)).toBe(true);
  // The SDK reads numbers from these (parseInt) and lays out the grid by fixed_width.
  expect(first.images.fixed_width.width).toBeGreaterThan(0);
  expect(first.images.original.height).toBeGreaterThan(0);

  // Paging to the end with the SDK's own paginator: each GIF once, then it stops.
  const next = gifPaginator((offset: number) => gf.search(word, { limit: 3, offset }));
  let seen: { id: string | number }[] = [];
  for (let calls = 0; calls < 6; calls += 1) seen = await next();
  expect(seen.map((g) => String(g.id)).sort()).toEqual([...uploaded].sort());

  // Every media URL it was given works without a session or a key.
  const file = await fetch(first.images.fixed_width.url);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toBe('image/gif');

  const trending = await gf.trending({ limit: 50 });
  expect(trending.data.map((g) => String(g.id))).toEqual(expect.arrayContaining(uploaded));

  const one = await gf.gif(uploaded[2]!);
  expect(one.data.id).toBe(uploaded[2]);
  expect(one.data.title).toBe(`${word} 2`);

  const two = await gf.gifs([uploaded[4]!, uploaded[1]!]);
  expect(two.data.map((g) => g.id)).toEqual([uploaded[4], uploaded[1]]);

  const random = await gf.random({ tag: word });
  expect(uploaded).toContain(random.data.id);

  const categories = await gf.categories();
  expect(categories.meta.response_id).not.toBe('');
  expect(categories.data.map((c) => c.name)).toContain(word);

  // A revoked or unknown key is refused with GIPHY's error, which the SDK throws.
  const stranger = new GiphyFetch('gs_not_a_key');
  await expect(stranger.search(word)).rejects.toThrow();
});

/** Calls the Tenor API from the page, as a chat web client on another site would. */
async function tenorFromPage(page: Page, key: string, q: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ key, q }) => {
      const response = await fetch(`/api/tenor/v2/search?q=${encodeURIComponent(q)}&key=${key}&limit=5`);
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { key, q },
  );
}

test('a key made in Settings opens the Tenor API until it is revoked', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await registerAndLogIn(page, 'tenor');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const word = uniqueName('tenor').replace(/[^a-z0-9]/g, '');
  const gif = await uploadGifViaApi(request, token ?? '', { title: `${word} dance`, tags: [word] }, 9100);

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Key name').fill('Zulip');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(toast(page, 'API key copied to the clipboard.')).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(/^gs_/);

  const found = await tenorFromPage(page, key, word);
  expect(found.status).toBe(200);
  const body = found.body as { results: { id: string; media_formats: Record<string, { url: string }> }[]; next: string };
  expect(body.results.map((r) => r.id)).toEqual([gif.shareId]);
  expect(body.next).toBe('');
  const tiny = body.results[0]!.media_formats.tinygif!.url;
  // The picker's preview loads in an <img> on the page.
  const loaded = await page.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => resolve(-1);
        img.src = src;
      }),
    tiny,
  );
  expect(loaded).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Done' }).click();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Revoke Zulip' }).click();
  await expect(toast(page, 'API key revoked')).toBeVisible();

  const refused = await tenorFromPage(page, key, word);
  expect(refused.status).toBe(401);
  expect(refused.body).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
});
