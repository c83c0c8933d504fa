/**
 * The GIF maker in Chromium with its fake camera (`--use-fake-device-for-media-stream` draws a
 * moving test pattern; `--use-fake-ui-for-media-stream` says yes to the permission prompt):
 * record a clip, trim, crop, caption, make, land on the new GIF, see it play in the gallery; then
 * "Edit a copy" of that captioned GIF. With the same flags `getDisplayMedia` shares a fake
 * 1280×720 "Entire screen" without asking, so "Record screen" runs headless too.
 */
import { expect, test, type Page } from '@playwright/test';
import type { GifDto } from '../src/api/generated/GifDto';
import { dismissToasts, registerAndLogIn, screenshots, takeFirstAccount, tokenOf, uniqueName } from './support';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
});

test.beforeAll(({ request }) => takeFirstAccount(request));

async function gifOf(page: Page, id: number): Promise<GifDto> {
  const response = await page.request.get(`/api/gifs/dto/${id}`, {
    headers: { Authorization: `Bearer ${await tokenOf(page)}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as GifDto;
}

const idInUrl = (page: Page) => Number(new URL(page.url()).pathname.split('/').pop());

/** Presses `key` on the trim handle `name` `times` times. */
async function pressOn(page: Page, name: 'Start' | 'End', key: string, times: number) {
  const handle = page.getByRole('slider', { name });
  await handle.focus();
  for (let i = 0; i < times; i += 1) await handle.press(key);
}

test('record a camera clip, trim, crop, caption, make it; then edit a copy of it', async ({ page }) => {
  test.setTimeout(240_000);
  await registerAndLogIn(page, 'maker');
  const title = `Standup wave ${uniqueName('m').toLowerCase()}`;

  await test.step('record about three seconds of the fake camera', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Make' }).click();
    await expect(page).toHaveURL(/\/make$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Make a GIF' })).toBeVisible();
    await screenshots(page, 'make-source');
    await page.getByRole('button', { name: 'Record camera' }).click();
    await expect(page.getByText(/Recording starts in [321]…/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop recording' })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByText('Recording: 3 s of 30 s')).toBeVisible({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await expect(page.getByRole('slider', { name: 'Start' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByLabel('Title *')).toHaveValue('Camera recording');
    // The filmstrip shows pictures of the recording (a WebM without a duration).
    await expect(page.getByTestId('filmstrip').locator('img')).toHaveCount(10, { timeout: 15_000 });
  });

  await test.step('trim by frames, crop 1:1, caption, title', async () => {
    await pressOn(page, 'Start', 'ArrowRight', 3); // 3 frames at 15 fps
    await expect(page.getByTestId('trim-start')).toHaveText('0.20 s');
    await page.getByLabel('Frames per second').selectOption('10');
    await expect(page.getByTestId('trim-start')).toHaveText('0.20 s');
    await pressOn(page, 'End', 'Home', 1); // one frame after the start: 0.3 s
    await pressOn(page, 'End', 'ArrowRight', 19); // a 2 s clip: 20 frames at 10 fps
    await expect(page.getByTestId('trim-end')).toHaveText('2.20 s');
    await page.getByRole('button', { name: '1:1' }).click();
    await expect(page.getByTestId('crop-value')).toHaveText('480 × 480 px at 80, 0');
    await page.getByLabel('Width').selectOption('240');
    await page.getByLabel('Caption', { exact: true }).fill('Ship it');
    await expect(page.getByTestId('caption-preview')).toHaveText('Ship it');
    await page.getByLabel('Title *').fill(title);
    await expect(page.getByTestId('estimate')).toHaveText(/^About [\d.]+ MB · 240 × 240 px · 20 frames$/);
    await screenshots(page, 'make-editing');
  });

  let madeId = 0;
  await test.step('make it and land on the new GIF, which plays in the gallery', async () => {
    await page.getByRole('button', { name: 'Make GIF' }).click();
    await expect(page.getByRole('progressbar', { name: 'Progress of the GIF' })).toBeVisible();
    await expect(page).toHaveURL(/\/gifs\/\d+$/, { timeout: 120_000 });
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    madeId = idInUrl(page);
    const made = await gifOf(page, madeId);
    expect(made).toMatchObject({ contentType: 'image/gif', contentWidth: 240, contentHeight: 240, madeFrom: null });
    expect(made.frameCount).toBeGreaterThanOrEqual(19);
    expect(made.frameCount).toBeLessThanOrEqual(21);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gifs' }).click();
    const card = page.getByTestId('gif-card').filter({ hasText: title });
    await expect(card).toHaveCount(1);
    // It plays: the card's video (the maker keeps its MP4) runs, or else its GIF has loaded.
    await expect
      .poll(() =>
        card.evaluate((element) => {
          const video = element.querySelector('video');
          if (video) return video.readyState >= 2 && !video.paused;
          return element.querySelector('img[data-loaded]')?.getAttribute('data-loaded') === 'true';
        }),
      )
      .toBe(true);
  });

  await test.step('"Edit a copy" of the captioned GIF makes a new GIF that says where it came from', async () => {
    await page.goto(`/gifs/${madeId}`);
    await page.getByRole('link', { name: 'Edit a copy' }).click();
    await expect(page).toHaveURL(new RegExp(`/make\\?gif=${madeId}$`));
    await expect(page.getByText(`Editing a copy of "${title}"`)).toBeVisible();
    await expect(page.getByRole('slider', { name: 'End' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByLabel('Title *')).toHaveValue(title);
    await page.getByLabel('Title *').fill(`${title} again`);
    await page.getByLabel('Direction').selectOption('boomerang');
    await page.getByLabel('Caption', { exact: true }).fill('Again!');
    await page.getByLabel('Caption position').selectOption('top');
    await page.getByRole('button', { name: 'Make GIF' }).click();
    await expect(page).toHaveURL(/\/gifs\/\d+$/, { timeout: 120_000 });
    const copyId = idInUrl(page);
    expect(copyId).not.toBe(madeId);
    await expect(page.getByRole('heading', { level: 1, name: `${title} again` })).toBeVisible();
    // Only the "Made from" line: the near-duplicates hint may link the same source too.
    const source = page.getByText('Made from').getByRole('link', { name: title, exact: true });
    await expect(source).toHaveAttribute('href', `/gifs/${madeId}`);
    expect((await gifOf(page, copyId)).madeFrom).toEqual({ id: madeId, title });
    // The source is never changed.
    expect((await gifOf(page, madeId)).title).toBe(title);
    await dismissToasts(page);
    await screenshots(page, 'make-copy-detail');
  });
});

test('record the screen, crop it 16:9, make it; the GIF keeps an MP4 of the recording', async ({ page }) => {
  test.setTimeout(180_000);
  await registerAndLogIn(page, 'screen');
  const title = `Bug repro ${uniqueName('s').toLowerCase()}`;

  await test.step('record about two seconds of the (fake) screen', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Make' }).click();
    await page.getByRole('button', { name: 'Record screen' }).click();
    await expect(page.getByText(/Recording starts in [321]…/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop recording' })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByText('Recording: 2 s of 30 s')).toBeVisible({ timeout: 10_000 });
    await screenshots(page, 'make-recording-screen');
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await expect(page.getByRole('slider', { name: 'Start' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByLabel('Title *')).toHaveValue('Screen recording');
    await expect(page.getByTestId('filmstrip').locator('img')).toHaveCount(10, { timeout: 15_000 });
  });

  await test.step('a 16:9 crop of the whole screen at 320 px, 10 fps, a second and a half', async () => {
    await page.getByRole('button', { name: '16:9' }).click();
    await expect(page.getByTestId('crop-value')).toHaveText('1280 × 720 px at 0, 0');
    await page.getByLabel('Frames per second').selectOption('10');
    await page.getByLabel('Width').selectOption('320');
    await pressOn(page, 'End', 'Home', 1); // one frame after the start: 0.1 s
    await pressOn(page, 'End', 'ArrowRight', 14); // 1.5 s: 15 frames at 10 fps
    await expect(page.getByTestId('trim-end')).toHaveText('1.50 s');
    await page.getByLabel('Title *').fill(title);
    await expect(page.getByTestId('estimate')).toHaveText(/^About [\d.]+ MB · 320 × 180 px · 15 frames$/);
  });

  await test.step('make it: the GIF, and an MP4 rendition cut from the recording', async () => {
    await page.getByRole('button', { name: 'Make GIF' }).click();
    await expect(page).toHaveURL(/\/gifs\/\d+$/, { timeout: 120_000 });
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const id = idInUrl(page);
    const made = await gifOf(page, id);
    expect(made).toMatchObject({ contentType: 'image/gif', contentWidth: 320, contentHeight: 180, madeFrom: null });
    expect(made.frameCount).toBeGreaterThanOrEqual(14);
    expect(made.frameCount).toBeLessThanOrEqual(16);
    const mp4 = made.renditions.find((rendition) => rendition.kind === 'mp4');
    expect(mp4).toMatchObject({ contentType: 'video/mp4', codec: 'h264', width: 320, height: 180 });
    await dismissToasts(page);
    await screenshots(page, 'make-screen-detail');
  });
});
