import { expect, test, type Page } from '@playwright/test';
import {
  dismissToasts,
  registerAndLogIn,
  screenshots,
  takeFirstAccount,
  toast,
  tokenOf,
  uniqueName,
  uploadGifViaApi,
} from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

const orderSaved = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/order') && r.request().method() === 'PUT');

const titlesInCollection = (page: Page) =>
  page.getByTestId('collection-gif').locator('.collection-gif__title').allTextContents();

test('a collection is created, filled from the detail page, reordered by drag and shared', async ({ page, request }) => {
  test.setTimeout(120_000);
  await registerAndLogIn(page, 'curator');
  const token = await tokenOf(page);
  const word = uniqueName('c').toLowerCase();
  const gifs = [];
  for (const [seed, title] of [`First ${word}`, `Second ${word}`, `Third ${word}`].entries()) {
    gifs.push(await uploadGifViaApi(request, token, { title }, seed + 1));
  }

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
  await page.getByRole('button', { name: 'New collection' }).click();
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByText('Please enter a name for the collection.')).toBeVisible();
  const name = `Reactions ${word}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('The ones we reach for');
  await page.getByRole('button', { name: 'Create collection' }).click();
  await expect(toast(page, `Collection "${name}" created`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('No GIFs in this collection yet.')).toBeVisible();

  // "Add to collection" on each GIF's detail page.
  for (const gif of gifs) {
    await page.goto(`/gifs/${gif.id}`);
    await page.getByRole('button', { name: 'Add to collection' }).click();
    await page.getByRole('menu', { name: 'Collections' }).getByRole('menuitem', { name: new RegExp(name) }).click();
    await expect(toast(page, `Added to ${name}`)).toBeVisible();
  }
  await dismissToasts(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
  const card = page.getByTestId('collection-card').filter({ hasText: name });
  await expect(card).toContainText('3 GIFs');
  await screenshots(page, 'collections');
  await card.getByRole('link', { name }).click();
  await expect.poll(() => titlesInCollection(page)).toEqual(gifs.map((g) => g.title));

  // Drag the third GIF onto the first; the order is saved and survives a reload.
  const items = page.getByTestId('collection-gif');
  let saved = orderSaved(page);
  await items.nth(2).dragTo(items.nth(0));
  const dragged = [gifs[2]!.title, gifs[0]!.title, gifs[1]!.title];
  await expect.poll(() => titlesInCollection(page)).toEqual(dragged);
  expect((await saved).status()).toBe(204);
  await page.reload();
  await expect.poll(() => titlesInCollection(page)).toEqual(dragged);

  // The keyboard way: move the last one up.
  saved = orderSaved(page);
  await page.getByRole('button', { name: `Move ${gifs[1]!.title} up` }).click();
  const moved = [gifs[2]!.title, gifs[1]!.title, gifs[0]!.title];
  await expect.poll(() => titlesInCollection(page)).toEqual(moved);
  expect((await saved).status()).toBe(204);
  await page.reload();
  await expect.poll(() => titlesInCollection(page)).toEqual(moved);

  // Sharing on: the public page works without a session.
  await page.getByLabel(/Public link — anyone/).click();
  await expect(toast(page, 'Public link created')).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Public link' }).inputValue();
  expect(link).toMatch(/\/c\/[A-Za-z0-9_-]{16,}$/);
  await dismissToasts(page);
  await screenshots(page, 'collection');

  const stranger = await page.context().browser()!.newContext();
  const anonymous = await stranger.newPage();
  await anonymous.goto(link);
  await expect(anonymous.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(anonymous.getByText('The ones we reach for')).toBeVisible();
  const images = anonymous.locator('.grid img');
  await expect(images).toHaveCount(3);
  await expect(images.first()).toHaveAttribute('alt', gifs[2]!.title);
  await expect.poll(() => images.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Sharing off: the page is gone.
  await page.getByLabel(/Public link — anyone/).click();
  await expect(toast(page, 'Public link turned off')).toBeVisible();
  const gone = await anonymous.goto(link);
  expect(gone?.status()).toBe(404);
  await stranger.close();
});

test('three selected cards get a tag in one go and the tag page lists them', async ({ page, request }) => {
  test.setTimeout(90_000);
  await registerAndLogIn(page, 'bulker');
  const token = await tokenOf(page);
  const word = uniqueName('b').toLowerCase();
  const titles = [`Alpha ${word}`, `Beta ${word}`, `Gamma ${word}`, `Delta ${word}`];
  for (const [seed, title] of titles.entries()) await uploadGifViaApi(request, token, { title }, seed + 10);

  await page.goto(`/gifs?q=${word}`);
  const cards = page.getByTestId('gif-card');
  await expect(cards).toHaveCount(4);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  const bar = page.getByRole('toolbar', { name: 'Selected GIFs' });
  await expect(bar).toContainText('0 selected');

  // Newest first: Delta, Gamma, Beta, Alpha. Click Delta, shift-click Beta: three cards.
  await page.getByRole('button', { name: `Select ${titles[3]}` }).click();
  await page.getByRole('button', { name: `Select ${titles[1]}` }).click({ modifiers: ['Shift'] });
  await expect(bar).toContainText('3 selected');
  await expect(page.getByRole('button', { name: `Select ${titles[0]}` })).toHaveAttribute('aria-pressed', 'false');
  await screenshots(page, 'gallery-select');

  const tag = `bulk-${word}`;
  await bar.getByRole('button', { name: 'Add tags' }).click();
  await bar.getByRole('textbox', { name: 'Tags to add' }).fill(tag);
  await bar.getByRole('button', { name: 'Add to selected' }).click();
  await expect(toast(page, 'Tagged 3 GIFs')).toBeVisible();
  await bar.getByRole('button', { name: 'Done' }).click();

  await page.goto(`/tags/${tag}`);
  const tagged = page.getByTestId('gif-card');
  await expect(tagged).toHaveCount(3);
  await expect(tagged.filter({ hasText: titles[0]! })).toHaveCount(0);
  for (const title of titles.slice(1)) await expect(tagged.filter({ hasText: title })).toHaveCount(1);
});
