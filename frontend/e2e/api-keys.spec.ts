import { expect, test, type Page } from '@playwright/test';
import type { ApiKeyDto } from '../src/api/generated/ApiKeyDto';
import {
  registerAndLogIn,
  screenshots,
  takeFirstAccount,
  toast,
  tokenOf,
} from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

/** GET /api/keys from the page's context, with the bearer token the app keeps for the session. */
async function listKeys(page: Page): Promise<ApiKeyDto[]> {
  const response = await page.request.get('/api/keys', {
    headers: { Authorization: `Bearer ${await tokenOf(page)}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiKeyDto[];
}

test('an API key is created in Settings, shown once and copied, listed by its prefix, and revoked', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await registerAndLogIn(page, 'keys');
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  expect(await listKeys(page)).toEqual([]);

  // Create: the key is shown once, in a read-only field with a Copy button.
  await page.getByLabel('Key name').fill('Team chat');
  await page.getByRole('button', { name: 'Create key' }).click();
  const field = page.getByLabel('New key "Team chat"');
  await expect(field).toBeVisible();
  await expect(field).not.toBeEditable();
  const key = await field.inputValue();
  expect(key).toMatch(/^gs_/);
  await expect(page.getByText('Copy this key now: it will not be shown again.')).toBeVisible();

  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(toast(page, 'API key copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // The server lists it by its first characters, never the key itself; the screen does too.
  const keys = await listKeys(page);
  expect(keys).toHaveLength(1);
  const [listed] = keys;
  expect(listed?.name).toBe('Team chat');
  expect(listed?.prefix).toMatch(/^gs_/);
  expect(key.startsWith(listed!.prefix)).toBe(true);
  expect(listed?.prefix.length).toBeLessThan(key.length);
  expect(listed?.lastUsedAt).toBeNull();
  const list = page.getByRole('list', { name: 'API keys' });
  const row = list.getByRole('listitem').filter({ hasText: 'Team chat' });
  await expect(row).toContainText(`${listed!.prefix}…`);
  await expect(row).toContainText('Never used');
  await expect(list).not.toContainText(key);
  await screenshots(page, 'settings-api-key-created');

  // "Done" puts the form back; after a reload the key is nowhere on the page.
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(field).toBeHidden();
  await expect(page.getByLabel('Key name')).toHaveValue('');
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByLabel('New key "Team chat"')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);
  await screenshots(page, 'settings-api-keys');

  // Revoke asks first, then the key leaves the list and the server.
  let confirmText = '';
  page.once('dialog', (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await row.getByRole('button', { name: 'Revoke Team chat' }).click();
  await expect(toast(page, 'API key revoked')).toBeVisible();
  expect(confirmText).toBe('Revoke key Team chat? Programs using it stop working at once.');
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  await expect(list).toHaveCount(0);
  expect(await listKeys(page)).toEqual([]);
});
