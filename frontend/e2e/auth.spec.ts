import { expect, test } from '@playwright/test';
import { PASSWORD, logIn, register, registerAndLogIn, screenshots, uniqueName } from './support';

test('signed-out welcome page makes no API call', async ({ page }) => {
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Login' })).toBeVisible();
  expect(apiCalls).toEqual([]);
  await screenshots(page, 'welcome');
});

test('register: mismatch message, then success to /login', async ({ page }) => {
  const username = uniqueName('reg');
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
  await screenshots(page, 'register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(`${PASSWORD}x`);
  await page.getByLabel('Confirm Password').press('Enter');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
  await screenshots(page, 'register-mismatch');

  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(`Hello, ${username}`)).toHaveCount(0);
});

test('register: a taken username shows the server error', async ({ page }) => {
  const username = uniqueName('dup');
  await register(page, username);
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`other-${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test('log in lands on / with the greeting; wrong password shows an error', async ({ page }) => {
  const username = uniqueName('login');
  await register(page, username);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await screenshots(page, 'login');

  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.locator('.form-message--error')).toBeVisible();
  await screenshots(page, 'login-error');

  await logIn(page, username);
  await expect(page.getByRole('heading', { level: 1, name: 'Tag Cloud' })).toBeVisible();
  await screenshots(page, 'home-signed-in');

  // A signed-in user is sent away from /login.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('logout clears the session and goes to /', async ({ page }) => {
  await registerAndLogIn(page, 'out');
  await page.goto('/settings');
  await page.setViewportSize({ width: 390, height: 844 });
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await screenshots(page, 'mobile-menu');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('username')])).toEqual([null, null]);
});

test('signed-out visitors are redirected', async ({ page }) => {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/statistics');
  await expect(page).toHaveURL(/\/(login)?$/);
});

test('an expired stored session is forced out on start', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => {
    const b64 = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, '');
    localStorage.setItem('token', `${b64({ alg: 'HS256' })}.${b64({ sub: 'ghost', roles: 'ROLE_USER', exp: 1 })}.x`);
    localStorage.setItem('username', 'ghost');
  });
  await page.reload();
  await expect(page.getByText('Session expired on app start')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await screenshots(page, 'toast-session-expired');
});
