import { expect, test } from '@playwright/test';
import { animatedGif } from './gif-encoder';
import { registerAndLogIn, screenshots, takeFirstAccount, tokenOf } from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

test('four files at once: per-file progress and results, one a duplicate, one refused by the server', async ({
  page,
  request,
}) => {
  await registerAndLogIn(page, 'multi');
  // A GIF already in the library, sent again in the batch.
  const known = animatedGif({ seed: 3, width: 120, height: 90 });
  const token = await tokenOf(page);
  const stored = await request.post('/api/gifs', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      file: { name: 'known.gif', mimeType: 'image/gif', buffer: known },
      gifData: { name: 'blob', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ title: 'Known one', description: '', tags: [] })) },
    },
  });
  expect(stored.status()).toBe(201);
  const knownId = ((await stored.json()) as { id: number }).id;
  // Slow the uploads down so the progress bars can be seen moving.
  await page.route('**/api/gifs', async (route) => {
    if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/upload');
  await page.getByLabel('Choose a file').setInputFiles([
    { name: 'dancing_cat.gif', mimeType: 'image/gif', buffer: animatedGif({ seed: 1, width: 120, height: 90 }) },
    { name: 'happy-dog.gif', mimeType: 'image/gif', buffer: animatedGif({ seed: 2, width: 120, height: 90 }) },
    { name: 'again.gif', mimeType: 'image/gif', buffer: known },
    // Named like a GIF, so only the server can tell it is text.
    { name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('just some text, not an image') },
  ]);

  const rows = page.getByTestId('batch-row');
  await expect(rows).toHaveCount(4);
  await expect(page.getByLabel('Title for dancing_cat.gif')).toHaveValue('dancing cat');
  await expect(page.getByLabel('Title for happy-dog.gif')).toHaveValue('happy dog');
  await page.getByLabel('Title for happy-dog.gif').fill('A very happy dog');
  await page.getByLabel('Description').fill('Uploaded together');
  await screenshots(page, 'multi-upload-ready');

  await page.getByRole('button', { name: 'Upload 4 GIFs' }).click();
  // Two run at once; the others wait.
  await expect(page.getByRole('progressbar')).toHaveCount(4);
  await expect(rows.filter({ hasText: 'Uploading' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Waiting' })).toHaveCount(2);
  await screenshots(page, 'multi-upload-running');

  const cat = rows.filter({ hasText: 'dancing_cat.gif' });
  const dog = rows.filter({ hasText: 'happy-dog.gif' });
  const notes = rows.filter({ hasText: 'notes.gif' });
  await expect(cat.getByText('Uploaded')).toBeVisible({ timeout: 20_000 });
  await expect(dog.getByText('Uploaded')).toBeVisible({ timeout: 20_000 });
  await expect(notes.getByText('Refused')).toBeVisible({ timeout: 20_000 });
  await expect(notes).toContainText('The file is not a supported image');
  await expect(notes.getByRole('button', { name: 'Retry' })).toBeVisible();
  const again = rows.filter({ hasText: 'again.gif' });
  await expect(again.getByText('Duplicate')).toBeVisible({ timeout: 20_000 });
  await expect(again).toContainText('This GIF is already in the library');
  await expect(again.getByRole('link', { name: 'View the GIF you already have' })).toHaveAttribute(
    'href',
    `/gifs/${knownId}`,
  );
  await expect(page.getByText('2 of 4 GIFs uploaded.')).toBeVisible();
  await screenshots(page, 'multi-upload-done');

  await dog.getByRole('link', { name: 'View GIF' }).click();
  await expect(page.getByRole('heading', { name: 'A very happy dog' })).toBeVisible();
});

test('leaving the page while uploads run asks first', async ({ page }) => {
  await registerAndLogIn(page, 'leave');
  await page.route('**/api/gifs', async (route) => {
    if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, 4000));
    await route.continue();
  });
  await page.goto('/upload');
  await page.getByLabel('Choose a file').setInputFiles([
    { name: 'one.gif', mimeType: 'image/gif', buffer: animatedGif({ seed: 3, width: 60, height: 40 }) },
    { name: 'two.gif', mimeType: 'image/gif', buffer: animatedGif({ seed: 4, width: 60, height: 40 }) },
  ]);
  await page.getByRole('button', { name: 'Upload 2 GIFs' }).click();
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags', exact: true }).click();
  await expect.poll(() => asked).toContain('Uploads are still running');
  await expect(page).toHaveURL(/\/upload$/);
});

test('embeds: each code has its own Copy button and toast', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await registerAndLogIn(page, 'embeds');
  await page.goto('/upload');
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'embed.gif',
    mimeType: 'image/gif',
    buffer: animatedGif({ seed: 5, width: 160, height: 120 }),
  });
  await page.getByLabel('Title *').fill('Embed me');
  await page.getByRole('button', { name: 'Upload GIF' }).click();
  await expect(page).toHaveURL(/\/gifs$/);
  await page.getByRole('link', { name: /Embed me/ }).first().click();

  const link = await page.getByLabel('Share this GIF').inputValue();
  expect(link).toMatch(new RegExp(`^${baseURL}/s/[A-Za-z0-9_-]+$`));
  const direct = `${link}.gif`;
  const expected: Record<string, string> = {
    'Direct link': direct,
    Markdown: `![Embed me](${direct})`,
    HTML: `<img src="${direct}" width="160" height="120" alt="Embed me">`,
    BBCode: `[img]${direct}[/img]`,
  };
  for (const [label, value] of Object.entries(expected)) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
    await page.getByRole('button', { name: `Copy ${label}` }).click();
    await expect(page.getByText(`${label} copied to the clipboard.`)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  }
  await screenshots(page, 'detail-embeds');

  // The direct link is the public image.
  const image = await page.request.get(direct);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/gif');
});
