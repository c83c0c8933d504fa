import { expect, test, type Page } from '@playwright/test';
import { screenshots, uniqueName } from './support';

// A second server runs with a Google client id, configured against the fake OpenID provider
// (see playwright.config.ts); the page's Google script is replaced by a test double that hands
// the app an ID token the fake provider minted.
const googleUrl = process.env.E2E_GOOGLE_URL!;
const issuer = process.env.E2E_OIDC_ISSUER!;
const clientId = process.env.E2E_GOOGLE_CLIENT_ID!;
const GIS = 'https://accounts.google.com/gsi/client';

async function mint(params: Record<string, string>): Promise<string> {
  const response = await fetch(`${issuer}/mint?${new URLSearchParams(params).toString()}`);
  expect(response.ok).toBe(true);
  const { credential } = (await response.json()) as { credential: string };
  return credential;
}

/** Serves a stand-in for Google's script that answers the prompt with `credential`. */
async function fakeGoogle(page: Page, credential: string): Promise<void> {
  const body = `
    window.google = { accounts: { id: {
      initialize(config) { window.__gis = config; },
      prompt() {
        setTimeout(() => window.__gis.callback({ credential: ${JSON.stringify(credential)}, select_by: 'btn' }), 50);
      },
      renderButton() {},
    } } };`;
  await page.route(GIS, (route) => route.fulfill({ contentType: 'text/javascript', body }));
}

test('without a client id there is no Google button', async ({ page }) => {
  let loadedGoogle = false;
  page.on('request', (request) => {
    if (request.url().startsWith('https://accounts.google.com')) loadedGoogle = true;
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Continue with Google/ })).toHaveCount(0);
  expect(loadedGoogle).toBe(false);
});

test('Continue with Google signs in and lands on / with the greeting', async ({ page }) => {
  const username = uniqueName('gg');
  const credential = await mint({ aud: clientId, sub: `sub-${username}`, email: `${username}@example.com` });
  await fakeGoogle(page, credential);
  await page.goto(`${googleUrl}/login`);
  const button = page.getByRole('button', { name: /Continue with Google/ });
  await expect(button).toBeVisible();
  await screenshots(page, 'login-google');
  await button.click();
  await expect(page).toHaveURL(`${googleUrl}/`);
  await expect(page.getByText(`Hello, ${username}`)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __gis: { client_id: string } }).__gis.client_id)).toBe(
    clientId,
  );
  expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(username);

  // Signing out and in again with the same Google identity finds the same account.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${googleUrl}/login`);
  await page.getByRole('button', { name: /Continue with Google/ }).click();
  await expect(page.getByText(`Hello, ${username}`)).toBeVisible();
});

test('a token the server refuses shows "Google login failed" and stays on Login', async ({ page }) => {
  const credential = await mint({ aud: 'someone-else', sub: 'sub-x', email: 'x@example.com' });
  await fakeGoogle(page, credential);
  await page.goto(`${googleUrl}/login`);
  await page.getByRole('button', { name: /Continue with Google/ }).click();
  await expect(page.getByText('Google login failed')).toBeVisible();
  await expect(page).toHaveURL(`${googleUrl}/login`);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('a signed-in person links Google in Settings, then Google signs them in', async ({ page }) => {
  const username = uniqueName('link');
  // A password account on the Google-enabled server.
  await page.goto(`${googleUrl}/register`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret123');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(`${googleUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('secret123');
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByText(`Hello, ${username}`)).toBeVisible();

  // Settings → Connected sign-in → Link: the identity Google vouches for joins this account.
  const credential = await mint({ aud: clientId, sub: `sub-${username}`, email: `${username}@gmail.example` });
  await fakeGoogle(page, credential);
  await page.goto(`${googleUrl}/settings`);
  await expect(page.getByRole('heading', { name: 'Connected sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Link Google account' }).click();
  await expect(page.getByText('Google account connected')).toBeVisible();
  await expect(page.getByText(`${username}@gmail.example`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unlink' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Link Google account' })).toHaveCount(0);
  await screenshots(page, 'settings-connected-sign-in');

  // Signed out, "Continue with Google" now opens the same account.
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.goto(`${googleUrl}/login`);
  await page.getByRole('button', { name: /Continue with Google/ }).click();
  await expect(page.getByText(`Hello, ${username}`)).toBeVisible();
});
