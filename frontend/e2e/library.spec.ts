import { expect, test, type Page } from '@playwright/test';
import {
  grantAdmin,
  logIn,
  register,
  registerAndLogIn,
  screenshots,
  takeFirstAccount,
  tokenOf,
  uniqueName,
  uploadGifViaApi,
} from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('a star puts a GIF on /favourites and unstarring takes it off', async ({ page, request }) => {
  test.setTimeout(90_000);
  const username = await registerAndLogIn(page, 'fan');
  const token = await tokenOf(page);
  const word = uniqueName('f').toLowerCase();
  const liked = await uploadGifViaApi(request, token, { title: `Liked ${word}` }, 1);
  await uploadGifViaApi(request, token, { title: `Other ${word}` }, 2);

  await nav(page).getByRole('link', { name: 'Favourites' }).click();
  await expect(page).toHaveURL(/\/favourites$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Favourites' })).toBeVisible();
  await expect(page.getByText('No favourites yet.')).toBeVisible();

  await page.goto(`/user/${username}`);
  const card = page.getByTestId('gif-card').filter({ hasText: liked.title });
  const star = card.getByRole('button', { name: 'Add to favourites' });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(card.getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('aria-pressed', 'true');
  await screenshots(page, 'library-stars');

  await nav(page).getByRole('link', { name: 'Favourites' }).click();
  const cards = page.getByTestId('gif-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(liked.title);

  // The detail page shows the count and the same star.
  await cards.first().getByRole('link', { name: liked.title }).click();
  await expect(page.getByTestId('favourite-count')).toHaveText('1 favourite');
  await page.goBack();

  await cards.first().getByRole('button', { name: 'Remove from favourites' }).click();
  await expect(page.getByText('No favourites yet.')).toBeVisible();
  await page.reload();
  await expect(page.getByText('No favourites yet.')).toBeVisible();
});

test('the gallery sorts by the select, kept in the URL, and Random opens a GIF of the page', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const username = await registerAndLogIn(page, 'sorter');
  const token = await tokenOf(page);
  const word = uniqueName('s').toLowerCase();
  for (const [i, title] of [`b ${word}`, `a ${word}`, `c ${word}`].entries()) {
    await uploadGifViaApi(request, token, { title, tags: [`tag-${word}`] }, i);
  }

  await page.goto(`/user/${username}`);
  const titles = page.getByTestId('gif-card').getByRole('heading');
  await expect(titles).toHaveText([`c ${word}`, `a ${word}`, `b ${word}`]);
  await page.getByLabel('Sort', { exact: true }).selectOption({ label: 'Title A–Z' });
  await expect(page).toHaveURL(/\?sort=title$/);
  await expect(titles).toHaveText([`a ${word}`, `b ${word}`, `c ${word}`]);
  await page.reload();
  await expect(page.getByLabel('Sort', { exact: true })).toHaveValue('title');
  await expect(titles).toHaveText([`a ${word}`, `b ${word}`, `c ${word}`]);
  await screenshots(page, 'library-sorted');

  await page.goto(`/tags/tag-${word}`);
  await nav(page).getByRole('button', { name: 'Random' }).click();
  await expect(page).toHaveURL(/\/gifs\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(word);
});

test('an admin switches /tags between browsing and managing', async ({ page }) => {
  const admin = uniqueName('boss');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);
  await page.goto('/tags');
  const modes = page.getByRole('group', { name: 'Tags page mode' });
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Tags' })).toBeVisible();
  await expect(modes.getByRole('button', { name: 'Manage Tags' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Delete Empty Tags' })).toBeVisible();

  await modes.getByRole('button', { name: 'Browse by Tags' }).click();
  await expect(page).toHaveURL(/\/tags\?mode=browse$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Browse by Tags' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete Empty Tags' })).toHaveCount(0);
  await screenshots(page, 'library-tags-browse');
});
