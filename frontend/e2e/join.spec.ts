/**
 * Who may join, in the browser: an admin makes registration invitation-only and creates an
 * invitation on the Members screen; a visitor opens the /join link and registers; a visitor
 * without one is told an invitation is needed. Registration is opened again at the end (the e2e
 * server is shared by every spec).
 */
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, dismissToasts, grantAdmin, logIn, register, screenshots, takeFirstAccount, uniqueName } from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

async function setMode(page: Page, label: RegExp) {
  await page.goto('/admin/members');
  await page.getByRole('radio', { name: label }).check();
  await page.getByRole('region', { name: 'Registration' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Registration settings saved')).toBeVisible();
  await dismissToasts(page);
}

test('an admin invites, the invited visitor joins, an uninvited one is refused', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const admin = uniqueName('adm');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);
  await setMode(page, /Invitation only/);
  try {
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const link = await page.getByLabel('Invitation link', { exact: true }).inputValue();
    expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{22,}$/);
    await expect(page.getByText('Copy this link now: it will not be shown again.')).toBeVisible();
    await screenshots(page, 'members');

    const visitor = await browser.newPage();
    await visitor.goto(link);
    await expect(visitor.getByText('You were invited to join gifshelf.')).toBeVisible();
    await screenshots(visitor, 'join');
    const username = uniqueName('inv');
    await visitor.getByLabel('Username').fill(username);
    await visitor.getByLabel('Email').fill(`${username}@example.com`);
    await visitor.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await visitor.getByLabel('Confirm Password').fill(PASSWORD);
    await visitor.getByRole('button', { name: 'Register' }).click();
    await expect(visitor).toHaveURL(/\/login$/);
    await logIn(visitor, username);
    await visitor.close();

    const stranger = await browser.newPage();
    await stranger.goto(new URL('/register', link).href);
    await expect(stranger.getByRole('alert')).toHaveText(/You need an invitation to join this server/);
    await expect(stranger.getByLabel('Username')).toHaveCount(0);
    await screenshots(stranger, 'register-invite-only');
    await stranger.close();

    await page.goto('/admin/members');
    await expect(page.getByText(/1 of 1 used/)).toBeVisible();
  } finally {
    await setMode(page, /^Open/);
  }
});
