import { expect, test } from '@playwright/test';
import { registerAndLogIn, tokenOf, uploadGifViaApi } from './support';

/** Whether an <img> finished loading real pixels (a refused image has no natural width). */
const loaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;

test('media need a session: images show after sign-in, a copied URL gives 401 after logout, a share link works for anyone', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const username = await registerAndLogIn(page, 'private');
  const token = await tokenOf(page);
  const title = `Private ${username}`;
  const gif = await uploadGifViaApi(request, token, { title });

  // Signed in: the gallery and the detail page show the images (the session cookie goes along).
  await page.goto('/gifs');
  const cardImage = page.getByTestId('gif-card').filter({ hasText: title }).getByRole('img', { name: title });
  await expect.poll(() => cardImage.evaluate(loaded)).toBe(true);
  await page.goto(`/gifs/${gif.id}`);
  const main = page.getByRole('img', { name: title });
  await expect(main).toHaveAttribute('src', `/api/gifs/content/${gif.id}`);
  await expect.poll(() => main.evaluate(loaded)).toBe(true);
  const mediaUrl = `${baseURL}/api/gifs/content/${gif.id}`;
  expect((await page.request.get(mediaUrl)).status()).toBe(200);

  // Someone without the session gets nothing, in a fresh browser.
  const stranger = await browser.newContext();
  const refused = await stranger.request.get(mediaUrl);
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ code: 'unauthorized' });

  // Logging out clears the cookie: the same browser cannot load the URL any more.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Login' }).first()).toBeVisible();
  await expect.poll(async () => (await page.request.get(mediaUrl)).status()).toBe(401);

  // The share link is public on purpose, with its image, for anyone.
  const shared = await stranger.newPage();
  await shared.goto(`/s/${gif.shareId}`);
  await expect(shared.getByRole('heading', { name: title })).toBeVisible();
  const sharedImage = shared.getByRole('img', { name: title });
  await expect(sharedImage).toHaveAttribute('src', `/s/${gif.shareId}.gif`);
  await expect.poll(() => sharedImage.evaluate(loaded)).toBe(true);
  await stranger.close();
});
