/**
 * Moderation against the real server: a member reports a GIF, an admin hides it on the Moderation
 * screen, its share link answers 404, and its owner sees it hidden with the reason.
 */
import { expect, test } from '@playwright/test';
import {
  dismissToasts,
  grantAdmin,
  logIn,
  register,
  registerAndLogIn,
  screenshots,
  takeFirstAccount,
  toast,
  tokenOf,
  uniqueName,
  uploadGifViaApi,
} from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

test('a member reports a GIF, an admin hides it, its share link is gone, its owner sees why', async ({
  browser,
  request,
}) => {
  // The owner uploads a GIF.
  const ownerPage = await (await browser.newContext()).newPage();
  const owner = await registerAndLogIn(ownerPage, 'owner');
  const gif = await uploadGifViaApi(request, await tokenOf(ownerPage), { title: 'Reported dance' }, 7);
  expect((await request.get(`/s/${gif.shareId}`)).status()).toBe(200);

  // A member reports it from its detail page.
  const memberPage = await (await browser.newContext()).newPage();
  await registerAndLogIn(memberPage, 'reporter');
  await memberPage.goto(`/gifs/${gif.id}`);
  await memberPage.getByRole('button', { name: 'Report' }).click();
  const dialog = memberPage.getByRole('dialog', { name: 'Report GIF' });
  await dialog.getByRole('radio', { name: 'Offensive content' }).check();
  await dialog.getByLabel('Note (optional)').fill('Not for a team channel');
  await screenshots(memberPage, 'report-dialog');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(toast(memberPage, 'Report sent. An administrator will look at it.')).toBeVisible();
  await expect(dialog).toBeHidden();

  // An admin hides it on the Moderation screen, reached from Statistics.
  const adminPage = await (await browser.newContext()).newPage();
  const admin = uniqueName('mod');
  await register(adminPage, admin);
  grantAdmin(admin);
  await logIn(adminPage, admin);
  await adminPage.goto('/statistics');
  await adminPage.getByRole('link', { name: 'Moderation' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/moderation$/);
  const row = adminPage.getByTestId('report-row').filter({ hasText: 'Reported dance' });
  await expect(row).toContainText('Offensive content');
  await expect(row).toContainText('Not for a team channel');
  await expect(row.getByRole('img', { name: 'Reported dance' })).toHaveJSProperty('complete', true);
  await screenshots(adminPage, 'moderation');
  await row.getByRole('button', { name: 'Hide Reported dance' }).click();
  await expect(toast(adminPage, 'GIF hidden')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(adminPage.getByTestId('hidden-row').filter({ hasText: 'Reported dance' })).toBeVisible();
  await dismissToasts(adminPage);
  await screenshots(adminPage, 'moderation-hidden');

  // Its share link answers 404; the reporter no longer finds it.
  expect((await request.get(`/s/${gif.shareId}`)).status()).toBe(404);
  expect((await request.get(`/s/${gif.shareId}.gif`)).status()).toBe(404);
  await memberPage.goto(`/gifs/${gif.id}`);
  await expect(memberPage.getByText('GIF not found')).toBeVisible();

  // Its owner still sees it, marked, with the reason.
  await ownerPage.goto('/gifs');
  const card = ownerPage.getByTestId('gif-card').filter({ hasText: 'Reported dance' });
  await expect(card.getByText('Hidden', { exact: true })).toBeVisible();
  await ownerPage.goto(`/gifs/${gif.id}`);
  await expect(ownerPage.getByText('Hidden by a moderator: Offensive content')).toBeVisible();
  await screenshots(ownerPage, 'hidden-gif-owner');
  expect(owner).toBeTruthy();
});
