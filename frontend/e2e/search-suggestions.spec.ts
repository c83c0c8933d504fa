import { expect, test, type Page } from '@playwright/test';
import {
  dismissToasts,
  registerAndLogIn,
  screenshots,
  takeFirstAccount,
  tokenOf,
  toast,
  uniqueName,
  uploadGifViaApi,
} from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search GIFs' });
/** The live region of the search box that says how many suggestions there are. */
const suggestionCount = (page: Page) => page.getByRole('search').getByRole('status');

/** Presses ArrowDown until the suggestion named `name` is the highlighted one (the list opens on the first). */
async function arrowTo(page: Page, name: string): Promise<void> {
  const option = page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option', { name, exact: true });
  // At most eight suggestions: once round the list is enough.
  for (let i = 0; i < 8; i += 1) {
    await searchBox(page).press('ArrowDown');
    if ((await option.getAttribute('aria-selected')) === 'true') break;
  }
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await expect(searchBox(page)).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
}

test('two letters typed propose suggestions; one picked with the keyboard lands on its results', async ({ page }) => {
  await registerAndLogIn(page, 'sugg');
  const token = await tokenOf(page);
  // Words starting "qx" are this test's own: nothing else in the library begins with them.
  const tag = uniqueName('qx').toLowerCase();
  const tagged = await uploadGifViaApi(page.request, token, { title: `Tagged one ${tag}`, tags: [tag] }, 4);
  await uploadGifViaApi(page.request, token, { title: `Qxylophone parade ${tag.slice(2)}` }, 5);

  await page.goto('/gifs');
  const box = searchBox(page);
  await expect(box).toHaveAttribute('placeholder', 'Search GIFs by title, description, or tags...');
  await box.click();
  await box.pressSequentially('q');
  await page.waitForTimeout(400);
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.pressSequentially('x');

  await expect(box).toHaveAttribute('aria-expanded', 'true');
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(listbox).toBeVisible();
  await expect(listbox.getByRole('option', { name: `${tag}, tag`, exact: true })).toBeVisible();
  await expect(suggestionCount(page)).toHaveText(/^\d+ suggestions?$/);
  await screenshots(page, 'search-suggestions');

  // Escape closes the list and keeps the letters; ArrowDown opens it again.
  await box.press('Escape');
  await expect(listbox).toBeHidden();
  await expect(box).toHaveValue('qx');
  await arrowTo(page, `${tag}, tag`);
  await box.press('Enter');

  await expect(page).toHaveURL(new RegExp(`/gifs\\?q=${tag}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search results for "${tag}"`);
  await expect(page.getByTestId('gif-card')).toHaveCount(1);
  await expect(page.getByTestId('gif-card')).toContainText(tagged.title);
  await expect(box).toHaveValue(tag);
  await expect(listbox).toBeHidden();
});

test('the detail page shows "Text in this GIF" after an edit, and search finds the GIF by it', async ({ page }) => {
  await registerAndLogIn(page, 'gtxt');
  const token = await tokenOf(page);
  const word = uniqueName('qz').toLowerCase();
  const gif = await uploadGifViaApi(page.request, token, { title: `Plain title ${word.slice(2)}` }, 6);

  await page.goto(`/gifs/${gif.id}`);
  await expect(page.getByRole('heading', { level: 1, name: gif.title })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  const field = page.getByLabel('Text in this GIF');
  await expect(field).toHaveAttribute('maxlength', '500');
  await field.fill(`THIS IS FINE\n${word}`);
  await expect(page.getByText(`${13 + word.length}/500`)).toBeVisible();
  await page.getByRole('button', { name: 'Update GIF' }).click();
  await expect(toast(page, 'GIF updated successfully')).toBeVisible();

  const section = page.getByRole('region', { name: 'Text in this GIF' });
  await expect(section).toContainText('THIS IS FINE');
  await expect(section).toContainText(word);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Text in this GIF' })).toContainText(word);
  await dismissToasts(page);
  await screenshots(page, 'gif-text');

  // The text is searched: its word finds the GIF, and is proposed as a caption word.
  await page.goto('/gifs');
  await searchBox(page).fill(word);
  await expect(
    page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option', { name: `${word}, caption`, exact: true }),
  ).toBeVisible();
  await searchBox(page).press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search results for "${word}"`);
  await expect(page.getByTestId('gif-card')).toHaveCount(1);
  await expect(page.getByTestId('gif-card')).toContainText(gif.title);
});
