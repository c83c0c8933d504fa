import { expect, test } from '@playwright/test';
import { PASSWORD, logIn, registerAndLogIn, screenshots, uniqueName } from './support';

test('settings shows the profile; password change, then log in with the new password', async ({ page }) => {
  const username = await registerAndLogIn(page, 'pw');
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await expect(page.getByLabel('Email')).toHaveValue(`${username}@example.com`);
  await expect(page.getByText('Beware: If Google Login is used, changing this Email will break it.')).toBeVisible();
  await screenshots(page, 'settings');

  await page.getByLabel('Current Password').fill('wrong-password');
  await page.getByLabel('New Password', { exact: true }).fill('newsecret1');
  await page.getByLabel('Confirm New Password').fill('newsecret2');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('New passwords do not match')).toBeVisible();
  await screenshots(page, 'settings-password-mismatch');

  await page.getByLabel('Confirm New Password').fill('newsecret1');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.locator('.form-message--error')).toHaveText('Current password is incorrect');

  await page.getByLabel('Current Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.locator('.form-message--success')).toHaveText('Password changed successfully');
  await expect(page.getByLabel('Current Password')).toHaveValue('');
  await expect(page.getByLabel('New Password', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Confirm New Password')).toHaveValue('');

  // This session goes on with the fresh token the server issued; the profile still loads.
  await page.reload();
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page.locator('.form-message--error')).toBeVisible();
  await logIn(page, username, 'newsecret1');
});

test('a username change logs out to /login; the new name works', async ({ page }) => {
  await registerAndLogIn(page, 'ren');
  const renamed = uniqueName('new');
  await page.goto('/settings');
  await page.getByLabel('Username').fill('ab');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByText('Username must be between 3 and 50 characters')).toBeVisible();

  await page.getByLabel('Username').fill(renamed);
  await page.getByLabel('Username').press('Enter');
  await expect(
    page.locator('.form-message--success', {
      hasText: 'Profile updated successfully. Please log in again with your new username.',
    }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
  await screenshots(page, 'login-after-rename');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await logIn(page, renamed);
});
