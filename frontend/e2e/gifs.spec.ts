import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { animatedGif } from './gif-encoder';
import {
  dismissToasts,
  logIn,
  register,
  registerAndLogIn,
  screenshots,
  takeFirstAccount,
  toast,
  uniqueName,
} from './support';

type Gif = { id: number; title: string; shareId: string; tags: { id: number; name: string }[] };

test.beforeAll(({ request }) => takeFirstAccount(request));

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  if (!token) throw new Error('not signed in');
  return token;
}

/** Uploads through the API (for tests that are not about the upload screen). */
async function apiUpload(
  request: APIRequestContext,
  token: string,
  data: { title: string; description?: string; tags?: string[] },
  seed = 0,
): Promise<Gif> {
  const response = await request.post('/api/gifs', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      file: { name: `seed${seed}.gif`, mimeType: 'image/gif', buffer: animatedGif({ seed, width: 200, height: 150 }) },
      gifData: {
        name: 'blob',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ description: '', tags: [], ...data })),
      },
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as Gif;
}

test('upload with progress → gallery → detail → renditions → copy → edit → delete', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const username = await registerAndLogIn(page, 'up');
  const word = uniqueName('w').toLowerCase();
  const title = `Dancing square ${word}`;

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' }).click();
  await expect(page).toHaveURL(/\/upload$/);
  await expect(page.getByText('Maximum file size: 10MB')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload GIF' })).toBeDisabled();
  await screenshots(page, 'upload-empty');

  const image = animatedGif({ seed: 1, width: 240, height: 180 });
  await page.getByLabel('Choose a file').setInputFiles({ name: 'dancing.gif', mimeType: 'image/gif', buffer: image });
  const megabytes = (image.length / (1024 * 1024)).toFixed(2);
  await expect(toast(page, `File selected: dancing.gif (${megabytes}MB)`)).toBeVisible();
  await expect(page.getByRole('img', { name: 'Preview of dancing.gif' })).toBeVisible();
  await page.getByLabel('Title *').fill(title);
  await page.getByLabel('Description').fill('A square that dances across the frame.');
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await tags.fill(`  Dance-${word} `);
  await tags.press('Enter');
  await expect(page.getByRole('button', { name: `Remove tag dance-${word}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload GIF' })).toBeEnabled();
  await dismissToasts(page);
  await screenshots(page, 'upload-preview');

  // Hold the animated thumbnails too: the card must show the still first.
  let releaseThumbs: () => void = () => {};
  const thumbsHeld = new Promise<void>((resolve) => (releaseThumbs = resolve));
  await page.route('**/api/gifs/thumbnail/*', async (route) => {
    await thumbsHeld;
    await route.continue();
  });
  // Throttle the upload (Chromium's network emulation) so that the real progress can be seen.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 32 * 1024,
  });
  await page.getByRole('button', { name: 'Upload GIF' }).click();
  const progress = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload GIF' })).toBeDisabled();
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 8000 })
    .toBeGreaterThan(0);
  await screenshots(page, 'upload-progress');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  await expect(toast(page, 'GIF uploaded successfully!')).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/gifs$/);

  const card = page.getByTestId('gif-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  const cardImage = card.getByRole('img', { name: title });
  await expect(cardImage).toHaveAttribute('src', /\/api\/gifs\/static-thumbnail\/\d+$/);
  await expect(cardImage).toHaveJSProperty('complete', true);
  releaseThumbs();
  await expect(cardImage).toHaveAttribute('src', /\/api\/gifs\/thumbnail\/\d+$/);
  await expect(cardImage).toHaveAttribute('data-loaded', 'true');
  expect(await cardImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(card.getByText(/^\d+ views$/)).toBeVisible();
  await expect(card.getByRole('link', { name: `dance-${word}` })).toHaveAttribute('href', `/tags/dance-${word}`);
  await page.unroute('**/api/gifs/thumbnail/*');
  await dismissToasts(page);
  await screenshots(page, 'gallery');

  // Detail
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/gifs\/\d+$/);
  const gifId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const main = page.getByRole('img', { name: title });
  await expect(main).toHaveAttribute('src', `/api/gifs/content/${gifId}`);
  await expect(page.getByText('240 × 180').first()).toBeVisible();
  await expect(page.getByText('1 views')).toBeVisible();
  await expect(page.getByRole('link', { name: username })).toHaveAttribute('href', `/user/${username}`);
  await expect(page.getByRole('heading', { name: 'File Information' })).toBeVisible();
  await page.getByRole('button', { name: 'Show Natural Size' }).click();
  await expect(page.getByRole('button', { name: 'Show Fixed Size' })).toBeVisible();
  await page.getByRole('button', { name: 'Show Fixed Size' }).click();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  await screenshots(page, 'detail');

  for (const [label, path] of [
    ['Static Thumbnail', 'static-thumbnail'],
    ['Thumbnail', 'thumbnail'],
    ['Original Gif', 'content'],
  ] as const) {
    await page.getByRole('button', { name: new RegExp(`^${label}`) }).click();
    const dialog = page.getByRole('dialog', { name: `${label}: ${title}` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    const image = dialog.getByRole('img');
    await expect(image).toHaveAttribute('src', `/api/gifs/${path}/${gifId}`);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    if (label === 'Original Gif') {
      await screenshots(page, 'detail-modal');
      await dialog.getByRole('button', { name: 'Show Natural Size' }).click();
      await expect(dialog.getByRole('button', { name: 'Show Fixed Size' })).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  // Share link
  const share = page.getByLabel('Share this GIF');
  const shareUrl = await share.inputValue();
  expect(shareUrl).toMatch(new RegExp(`^${baseURL}/s/[A-Za-z0-9_-]+$`));
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
  await expect(page.getByRole('button', { name: 'Copy', exact: true })).toBeVisible({ timeout: 4000 });

  // The public share page, signed out.
  const stranger = await browser.newContext();
  const sharePage = await stranger.newPage();
  await sharePage.goto(shareUrl);
  await expect(sharePage.getByText(title).first()).toBeVisible();
  const shared = sharePage.locator('img').first();
  await expect(shared).toBeVisible();
  await expect.poll(() => shared.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await stranger.close();

  // Edit
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit GIF' })).toBeVisible();
  await expect(page.getByLabel('Title *')).toHaveValue(title);
  await page.getByLabel('Title *').fill(`${title} v2`);
  await page.getByLabel('Description').fill('Edited description.');
  await page.getByRole('combobox', { name: 'Tags' }).fill(`extra-${word}`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('button', { name: `Remove tag extra-${word}` })).toBeVisible();
  await screenshots(page, 'edit');
  await page.getByRole('button', { name: 'Update GIF' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${title} v2` })).toBeVisible();
  await expect(page.getByText('Edited description.')).toBeVisible();
  await expect(page.getByRole('link', { name: `extra-${word}` })).toHaveAttribute('href', `/tags/extra-${word}`);
  await expect(page.getByRole('link', { name: `dance-${word}` })).toBeVisible();

  // Delete
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('confirm');
    expect(dialog.message()).toBe('Are you sure you want to delete this GIF?');
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/gifs/${gifId}`);
  await expect(page.getByText('GIF not found')).toBeVisible();
});

test('search keeps ?q across a reload; tag and user galleries', async ({ page }) => {
  const username = await registerAndLogIn(page, 'srch');
  const word = uniqueName('zebra').toLowerCase();
  const token = await tokenOf(page);
  const first = await apiUpload(page.request, token, { title: `Zebra one ${word}`, tags: [`stripes-${word}`] }, 2);
  await apiUpload(page.request, token, { title: `Zebra two ${word}`, description: 'second' }, 3);

  await page.goto('/gifs');
  const search = page.getByRole('combobox', { name: 'Search GIFs' });
  await expect(search).toHaveAttribute('placeholder', 'Search GIFs by title, description, or tags...');
  await search.fill(`  ${word} `);
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/gifs\\?q=${word}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search results for "${word}"`);
  await expect(page.getByTestId('gif-card')).toHaveCount(2);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search results for "${word}"`);
  await expect(page.getByRole('combobox', { name: 'Search GIFs' })).toHaveValue(word);
  await expect(page.getByTestId('gif-card')).toHaveCount(2);
  await expect(page.getByTestId('gif-card').first().getByRole('img')).toHaveAttribute('data-loaded', 'true');
  await screenshots(page, 'gallery-search');

  await page.getByRole('combobox', { name: 'Search GIFs' }).fill(`nothing${word}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('No GIFs found. Try different search terms.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page).toHaveURL(/\/gifs$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('All GIFs');

  // Tag gallery from a card's tag link.
  await page.goto(`/gifs?q=${word}`);
  await page.getByRole('link', { name: `stripes-${word}` }).click();
  await expect(page).toHaveURL(new RegExp(`/tags/stripes-${word}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`GIFs tagged with "stripes-${word}"`);
  await expect(page.getByTestId('gif-card')).toHaveCount(1);
  await expect(page.getByTestId('gif-card')).toContainText(first.title);
  await expect(page.getByRole('combobox', { name: 'Search GIFs' })).toHaveCount(0);
  await page.goto(`/tags/none-${word}`);
  await expect(page.getByText('Try a different tag.')).toBeVisible();

  // User gallery through "Mine".
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mine' }).click();
  await expect(page).toHaveURL(new RegExp(`/user/${username}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`GIFs by ${username}`);
  await expect(page.getByTestId('gif-card')).toHaveCount(2);
});

test('an empty gallery, and the file checks on selection', async ({ page }) => {
  const username = await registerAndLogIn(page, 'empty');
  await page.goto(`/user/${username}`);
  await expect(page.getByText('No GIFs uploaded yet.')).toBeVisible();
  await screenshots(page, 'gallery-empty');

  await page.goto('/upload');
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not an image'),
  });
  const invalid = toast(page, 'Please select a valid image file (GIF, PNG, JPEG, or WebP).');
  await expect(invalid).toBeVisible();
  await expect(invalid).toContainText('Invalid File Type');

  const big = Buffer.alloc(10 * 1024 * 1024 + 600 * 1024);
  animatedGif().copy(big);
  await page.getByLabel('Choose a file').setInputFiles({ name: 'huge.gif', mimeType: 'image/gif', buffer: big });
  const tooLarge = toast(page, 'File size exceeds 10MB limit. Your file is 10.59MB.');
  await expect(tooLarge).toBeVisible();
  await expect(tooLarge).toContainText('File Too Large');
  await expect(page.getByRole('button', { name: 'Upload GIF' })).toBeDisabled();
  await expect(page.getByText('Please select a file to upload.')).toBeVisible();
});

test("another user sees no Edit or Delete on someone else's GIF", async ({ page }) => {
  const owner = uniqueName('own');
  await register(page, owner);
  await logIn(page, owner);
  const gif = await apiUpload(page.request, await tokenOf(page), { title: `Owned ${owner}` }, 4);
  await page.goto(`/gifs/${gif.id}`);
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).first().click();

  await registerAndLogIn(page, 'other');
  await page.goto(`/gifs/${gif.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Owned ${owner}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to Gallery' }).click();
  await expect(page).toHaveURL(/\/gifs$/);
});

test('the detail page shows a square or tall GIF whole inside its frame, on a phone and on a desktop', async ({
  page,
}) => {
  await registerAndLogIn(page, 'frame');
  const token = await tokenOf(page);
  for (const [width, height] of [
    [120, 120],
    [60, 160],
  ]) {
    const title = uniqueName(`shape${width}x${height}`);
    const response = await page.request.post('/api/gifs', {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        file: { name: 'shape.gif', mimeType: 'image/gif', buffer: animatedGif({ width, height }) },
        gifData: { name: 'blob', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ title, tags: [] })) },
      },
    });
    expect(response.status()).toBe(201);
    const { id } = (await response.json()) as { id: number };
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`/gifs/${id}`);
      const picture = page.locator('.image-frame__img');
      await expect(picture).toHaveAttribute('data-loaded', 'true');
      const frame = await page.locator('.image-frame').boundingBox();
      const box = await picture.boundingBox();
      expect(frame && box).toBeTruthy();
      // The picture's box (its content is contained in it) lies within the frame that clips it.
      expect(box!.y).toBeGreaterThanOrEqual(frame!.y - 0.5);
      expect(box!.y + box!.height).toBeLessThanOrEqual(frame!.y + frame!.height + 0.5);
      expect(box!.x + box!.width).toBeLessThanOrEqual(frame!.x + frame!.width + 0.5);
    }
  }
  await screenshots(page, 'detail-tall');
});
