/**
 * Members, in the browser: an admin disables a member (their next request is refused), then
 * deletes them with their GIFs handed to another member, who now owns those GIFs; an admin makes a
 * password reset link, and the member sets a new password with it.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  PASSWORD,
  dismissToasts,
  grantAdmin,
  logIn,
  register,
  screenshots,
  takeFirstAccount,
  toast,
  tokenOf,
  uniqueName,
  uploadGifViaApi,
} from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

/** Registers a member through the API (the admin's page stays signed in). */
async function registerViaApi(request: APIRequestContext, username: string): Promise<void> {
  const response = await request.post('/api/auth/register', {
    data: { username, email: `${username}@example.com`, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(response.status()).toBe(201);
}

/** The member's row on the Members screen, found by searching their name. */
async function rowOf(page: Page, username: string) {
  await page.goto('/admin/members');
  await page.getByLabel('Search members').fill(username);
  const row = page.getByTestId('member-row').filter({ hasText: username });
  await expect(row).toHaveCount(1);
  return row;
}

test('an admin disables a member, then deletes them handing their GIFs to another', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const admin = uniqueName('adm');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);

  const leaver = uniqueName('leaver');
  const heir = uniqueName('heir');
  await registerViaApi(request, leaver);
  await registerViaApi(request, heir);
  const leaverPage = await browser.newPage();
  await logIn(leaverPage, leaver);
  const leaverToken = await tokenOf(leaverPage);
  const gifs = [
    await uploadGifViaApi(request, leaverToken, { title: 'Handed over one' }, 901),
    await uploadGifViaApi(request, leaverToken, { title: 'Handed over two' }, 902),
  ];
  let row = await rowOf(page, leaver);
  await expect(row).toContainText('GIFs2');
  await expect(row).toContainText(/Storage\d+\.\d\d MB/);
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(toast(page, `${leaver} is disabled and signed out everywhere`)).toBeVisible();
  const refused = await request.get('/api/gifs/dtos', { headers: { Authorization: `Bearer ${leaverToken}` } });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { code: string }).code).toBe('account_disabled');
  await leaverPage.goto('/gifs');
  await expect(leaverPage).toHaveURL(/\/login$/);
  await leaverPage.close();
  await dismissToasts(page);

  row = await rowOf(page, leaver);
  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${leaver}?` });
  await expect(dialog.getByLabel('Hand them to another member')).toBeChecked();
  await dialog.getByLabel('Find a member').fill(heir);
  await expect(dialog.getByLabel('New owner').getByRole('option', { name: new RegExp(heir) })).toHaveCount(1);
  await dialog.getByLabel('New owner').selectOption({ label: `${heir} (${heir}@example.com)` });
  await screenshots(page, 'members-delete');
  await dialog.getByRole('button', { name: 'Delete member' }).click();
  await expect(toast(page, `${leaver} was deleted`)).toBeVisible();
  await expect(page.getByTestId('member-row').filter({ hasText: leaver })).toHaveCount(0);
  await dismissToasts(page);
  row = await rowOf(page, heir);
  await expect(row).toContainText('GIFs2');
  await screenshots(page, 'members-storage');

  const heirPage = await browser.newPage();
  await logIn(heirPage, heir);
  await heirPage.goto(`/gifs/${gifs[0]!.id}`);
  await expect(heirPage.getByRole('link', { name: heir, exact: true })).toBeVisible();
  await expect(heirPage.getByRole('button', { name: 'Delete' })).toBeVisible();
  await heirPage.goto('/settings');
  await expect(heirPage.getByRole('heading', { name: 'Usage' })).toBeVisible();
  await expect(heirPage.getByText('2 of unlimited').or(heirPage.getByText(/^\d+ of \d+$/))).toHaveCount(1);
  await screenshots(heirPage, 'settings-usage');
  await heirPage.close();
});

test('an admin makes a reset link and the member sets a new password with it', async ({ page, browser, request }) => {
  test.setTimeout(90_000);
  const admin = uniqueName('adm');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);
  const forgetful = uniqueName('forgot');
  await registerViaApi(request, forgetful);

  const row = await rowOf(page, forgetful);
  await row.getByRole('button', { name: 'Reset password' }).click();
  const dialog = page.getByRole('dialog', { name: `Reset password for ${forgetful}` });
  const link = await dialog.getByLabel('Reset link').inputValue();
  expect(link).toMatch(/\/reset\/[A-Za-z0-9_-]{22,}$/);
  await screenshots(page, 'members-reset-link');

  const visitor = await browser.newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: 'Set a New Password' })).toBeVisible();
  await screenshots(visitor, 'reset-password');
  await visitor.getByLabel('New Password', { exact: true }).fill('a-new-secret');
  await visitor.getByLabel('Confirm New Password').fill('a-new-secret');
  await visitor.getByRole('button', { name: 'Set Password' }).click();
  await expect(visitor).toHaveURL(/\/login$/);
  await logIn(visitor, forgetful, 'a-new-secret');

  const again = await browser.newPage();
  await again.goto(link);
  await again.getByLabel('New Password', { exact: true }).fill('third-secret');
  await again.getByLabel('Confirm New Password').fill('third-secret');
  await again.getByRole('button', { name: 'Set Password' }).click();
  await expect(again.getByText(/invalid or has expired/)).toBeVisible();
  await visitor.close();
  await again.close();
});
