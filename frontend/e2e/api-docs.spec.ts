import { expect, test } from '@playwright/test';
import { screenshots } from './support';

test('the API reference at /api/docs renders the OpenAPI document', async ({ page }) => {
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(message.text());
  });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /gifshelf API/ })).toBeVisible();
  await expect(page.getByText('/api/auth/login', { exact: true })).toBeVisible();
  await expect(page.getByText('/api/gifs', { exact: true }).first()).toBeVisible();
  await screenshots(page, 'api-docs');
  expect(failures).toEqual([]);
});
