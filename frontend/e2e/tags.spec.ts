import { expect, test, type Locator, type Page } from '@playwright/test';
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

const fontSize = (link: Locator) =>
  link.evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));

const cloudLink = (page: Page, name: string, count: number) =>
  page
    .getByRole('list', { name: 'Tags by number of GIFs' })
    .getByRole('link', { name: `${name}: ${count} ${count === 1 ? 'GIF' : 'GIFs'}`, exact: true });

async function createTagInForm(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Tag name' }).fill(`  ${name} `);
  await page.getByRole('button', { name: 'Create Tag' }).click();
  await expect(toast(page, `Tag "${name}" created`)).toBeVisible();
}

test('a user creates a tag, tags GIFs with it and watches it grow in the cloud', async ({ page, request }) => {
  test.setTimeout(90_000);
  await registerAndLogIn(page, 'tagger');
  const word = uniqueName('t').toLowerCase();
  const big = `grow-${word}`;
  const small = `stay-${word}`;

  // "/" signed in is the tag cloud.
  await expect(page.getByRole('heading', { level: 1, name: 'Tag Cloud' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
  await expect(page).toHaveURL(/\/tags$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Browse by Tags' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create a New Tag' })).toBeVisible();

  // A blank name is refused without a call; a new name joins the list as "{name} (0)".
  await page.getByRole('button', { name: 'Create Tag' }).click();
  await expect(page.getByText('Please enter a tag name.')).toBeVisible();
  await createTagInForm(page, big);
  await expect(page.getByRole('link', { name: `${big} (0)`, exact: true })).toHaveAttribute('href', `/tags/${big}`);
  await createTagInForm(page, small);
  await expect(page.getByRole('link', { name: `${small} (0)`, exact: true })).toBeVisible();

  // An existing name shows the server's error.
  await page.getByRole('textbox', { name: 'Tag name' }).fill(big);
  await page.getByRole('button', { name: 'Create Tag' }).click();
  await expect(page.getByRole('alert')).toHaveText(`The tag "${big}" already exists`);

  // A plain user has no manage controls.
  await expect(page.getByRole('heading', { name: 'Manage Tags' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete Empty Tags' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Rename / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete Tag / })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Tag name' }).fill('');
  await dismissToasts(page);
  await screenshots(page, 'tags-browse');

  // Tags with 0 GIFs stay out of the cloud.
  await page.goto('/tags/cloud');
  await expect(page.getByRole('heading', { level: 1, name: 'Tag Cloud' })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^${big}: `) })).toHaveCount(0);

  // One GIF each: the same count.
  const token = await tokenOf(page);
  await uploadGifViaApi(request, token, { title: `First ${word}`, tags: [big, small] }, 1);
  await page.goto('/');
  const bigLink = cloudLink(page, big, 1);
  await expect(bigLink).toBeVisible();
  await expect(cloudLink(page, small, 1)).toBeVisible();
  const before = await fontSize(bigLink);
  expect(before).toBe(await fontSize(cloudLink(page, small, 1)));

  // Two more GIFs for one of them: it grows, the other does not.
  await uploadGifViaApi(request, token, { title: `Second ${word}`, tags: [big] }, 2);
  await uploadGifViaApi(request, token, { title: `Third ${word}`, tags: [big] }, 3);
  await page.goto('/tags/cloud');
  const grown = cloudLink(page, big, 3);
  await expect(grown).toBeVisible();
  const after = await fontSize(grown);
  const other = await fontSize(cloudLink(page, small, 1));
  expect(after).toBeGreaterThan(before);
  expect(after).toBeGreaterThan(other);
  expect(after).toBeLessThanOrEqual(72);
  expect(other).toBeGreaterThanOrEqual(14);

  // Bigger first, never shuffled: the order follows the counts.
  const names = await page
    .getByRole('list', { name: 'Tags by number of GIFs' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => Number(link.getAttribute('data-count'))));
  expect(names).toEqual([...names].sort((a, b) => b - a));

  // The list shows the new counts too.
  await page.goto('/tags');
  await expect(page.getByRole('link', { name: `${big} (3)`, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: `${small} (1)`, exact: true })).toBeVisible();

  // Click through to the tag's gallery.
  await page.goto('/tags/cloud');
  await cloudLink(page, big, 3).click();
  await expect(page).toHaveURL(new RegExp(`/tags/${big}$`));
  await expect(page.getByRole('heading', { level: 1, name: `GIFs tagged with "${big}"` })).toBeVisible();
  await expect(page.getByTestId('gif-card')).toHaveCount(3);

  // A fuller cloud for the screenshots: ten tags with counts from 8 down to 1.
  const palette = ['reaction', 'cats', 'funny', 'dance', 'wow', 'party', 'facepalm', 'thumbs-up', 'excited', 'sad'];
  const counts = [8, 7, 6, 5, 4, 3, 3, 2, 1, 1];
  for (let g = 0; g < 8; g += 1) {
    const tags = palette.filter((_, i) => g < (counts[i] ?? 0));
    await uploadGifViaApi(request, token, { title: `Cloud filler ${g} ${word}`, tags }, 10 + g);
  }
  await page.goto('/');
  await expect(cloudLink(page, 'reaction', 8)).toBeVisible();
  expect(await fontSize(cloudLink(page, 'reaction', 8))).toBeGreaterThan(await fontSize(cloudLink(page, 'sad', 1)));
  await screenshots(page, 'tag-cloud');
  await cloudLink(page, 'funny', 6).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await screenshots(page, 'tag-cloud-focus');
});

test('an admin renames, deletes and deletes the empty tags', async ({ page, request }) => {
  test.setTimeout(90_000);
  const admin = uniqueName('boss');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);
  const token = await tokenOf(page);
  const word = uniqueName('m').toLowerCase();
  const [renameMe, deleteMe, emptyOne, kept] = ['ren', 'del', 'emp', 'keep'].map((p) => `${p}-${word}`) as [
    string,
    string,
    string,
    string,
  ];
  const gif = await uploadGifViaApi(request, token, { title: `Managed ${word}`, tags: [renameMe, deleteMe, kept] }, 4);
  const created = await request.post(`/api/tags?name=${emptyOne}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(created.status()).toBe(201);

  // A fresh load: the cloud after login cached the tags before the API calls above.
  await page.goto('/tags');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Tags' })).toBeVisible();
  await expect(page.getByRole('link', { name: `${emptyOne} (0)`, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete Empty Tags' })).toBeVisible();
  await screenshots(page, 'tags-manage');

  // Escape cancels a rename.
  await page.getByRole('button', { name: `Rename ${renameMe}` }).click();
  const input = page.getByRole('textbox', { name: `New name for ${renameMe}` });
  await expect(input).toBeFocused();
  await input.fill(`nope-${word}`);
  await screenshots(page, 'tags-manage-rename');
  await input.press('Escape');
  await expect(input).toHaveCount(0);
  await expect(page.getByRole('link', { name: `${renameMe} (1)`, exact: true })).toBeVisible();

  // Enter saves the trimmed new name.
  const renamed = `renamed-${word}`;
  await page.getByRole('button', { name: `Rename ${renameMe}` }).click();
  await page.getByRole('textbox', { name: `New name for ${renameMe}` }).fill(`  ${renamed} `);
  await page.getByRole('textbox', { name: `New name for ${renameMe}` }).press('Enter');
  await expect(toast(page, `Tag "${renameMe}" renamed to "${renamed}"`)).toBeVisible();
  await expect(page.getByRole('link', { name: `${renamed} (1)`, exact: true })).toHaveAttribute('href', `/tags/${renamed}`);
  await expect(page.getByRole('link', { name: `${renameMe} (1)`, exact: true })).toHaveCount(0);

  // Blur saves too.
  const blurred = `blurred-${word}`;
  await page.getByRole('button', { name: `Rename ${renamed}` }).click();
  await page.getByRole('textbox', { name: `New name for ${renamed}` }).fill(blurred);
  await page.getByRole('heading', { level: 1 }).click();
  await expect(page.getByRole('link', { name: `${blurred} (1)`, exact: true })).toBeVisible();

  // Delete asks "Delete Tag ..." first; the GIF keeps existing without the tag.
  let confirmText = '';
  page.once('dialog', (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: `Delete Tag ${deleteMe}` }).click();
  await expect(toast(page, `Tag "${deleteMe}" deleted`)).toBeVisible();
  expect(confirmText).toContain('Delete Tag');
  expect(confirmText).toContain(deleteMe);
  await expect(page.getByRole('link', { name: `${deleteMe} (1)`, exact: true })).toHaveCount(0);
  const detail = await request.get(`/api/gifs/dto/${gif.id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(detail.status()).toBe(200);
  const tagNames = ((await detail.json()) as { tags: { name: string }[] }).tags.map((t) => t.name).sort();
  expect(tagNames).toEqual([blurred, kept].sort());

  // Delete Empty Tags: only the tags with 0 GIFs go.
  page.once('dialog', (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Delete Empty Tags' }).click();
  await expect(toast(page, 'empty tag')).toBeVisible();
  expect(confirmText).toBe('Are you sure you want to delete all tags with 0 GIFs?');
  await expect(page.getByRole('link', { name: `${emptyOne} (0)`, exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `${kept} (1)`, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: / \(0\)$/ })).toHaveCount(0);

  // The gallery of the GIF shows the renamed tag.
  await page.goto(`/gifs/${gif.id}`);
  await expect(page.getByRole('link', { name: blurred, exact: true })).toBeVisible();
});
