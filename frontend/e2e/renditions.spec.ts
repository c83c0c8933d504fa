import { expect, test, type Page } from '@playwright/test';
import type { RenditionDto } from '../src/api/generated/RenditionDto';
import { photoLikeGif } from './gif-encoder';
import { registerAndLogIn, screenshots, takeFirstAccount, tokenOf, uniqueName, uploadGifViaApi } from './support';

test.beforeAll(({ request }) => takeFirstAccount(request));

const SMALL_VIDEOS = ['mp4_small', 'webm_small'];
const FULL_VIDEOS = ['mp4', 'webm'];
const LABELS: Record<string, string> = {
  mp4: 'MP4',
  webm: 'WebM',
  mp4_small: 'MP4 (small)',
  webm_small: 'WebM (small)',
  webp: 'WebP',
};

async function renditionsOf(page: Page, token: string, id: number): Promise<RenditionDto[]> {
  const response = await page.request.get(`/api/gifs/${id}/renditions`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as RenditionDto[];
}

test('a photo-like GIF plays as a video once its renditions exist; reduced motion shows the still; the detail page lists the videos', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await registerAndLogIn(page, 'rend');
  const token = await tokenOf(page);
  const title = `Sunset pan ${uniqueName('r').toLowerCase()}`;

  const { id } = await uploadGifViaApi(page.request, token, { title, description: 'Smooth gradients, panning.' }, photoLikeGif());

  // The videos come from a background job a few seconds after the upload.
  let renditions: RenditionDto[] = [];
  await expect
    .poll(
      async () => {
        renditions = await renditionsOf(page, token, id);
        return renditions.map((r) => r.kind);
      },
      {
        message: 'mp4_small within 60 s of the upload (is ffmpeg available to the e2e server?)',
        timeout: 60_000,
        intervals: [500, 1000, 2000],
      },
    )
    .toContain('mp4_small');
  // The job may write its files one by one: wait until the list stays the same for two reads.
  let seen = '';
  await expect
    .poll(
      async () => {
        renditions = await renditionsOf(page, token, id);
        const now = renditions.map((r) => `${r.kind}:${r.size}:${r.preferred}`).sort().join(',');
        const stable = now === seen;
        seen = now;
        return stable;
      },
      { message: 'the renditions stop changing', timeout: 30_000, intervals: [2000] },
    )
    .toBe(true);

  const still = renditions.find((r) => r.kind === 'still');
  expect(still, 'a still rendition').toBeDefined();
  const stillUrl = still!.url;
  const thumbnail = renditions.find((r) => r.kind === 'thumbnail')!;
  const smallVideos = renditions
    .filter((r) => SMALL_VIDEOS.includes(r.kind) && r.size < thumbnail.size)
    .sort((a, b) => a.size - b.size);
  // The premise: for a photo-like GIF a small video beats the animated thumbnail.
  expect(renditions.find((r) => r.preferred && SMALL_VIDEOS.includes(r.kind))?.kind).toMatch(/^(mp4|webm)_small$/);
  expect(smallVideos.length).toBeGreaterThan(0);

  // Gallery: the card plays the smallest small video, the still as its poster.
  await page.goto('/gifs');
  const card = page.getByTestId('gif-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  const video = card.locator('video');
  await expect(video).toHaveAttribute('poster', stillUrl);
  await expect(video).toHaveAttribute('autoplay', '');
  await expect(video.locator('source')).toHaveCount(smallVideos.length);
  await expect(video.locator('source').first()).toHaveAttribute('src', smallVideos[0]!.url);
  // The browser loads one of them through the session cookie and plays it.
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => new URL(v.currentSrc || 'about:blank').pathname))
    .toMatch(/^\/api\/gifs\/\d+\/files\/(mp4|webm)_small\.(mp4|webm)$/);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  await screenshots(page, 'gallery-video');

  // Reduced motion: the still until hover or focus.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  const stillImage = card.getByRole('img', { name: title });
  await expect(stillImage).toHaveAttribute('src', stillUrl);
  await expect(card.locator('video')).toHaveCount(0);
  await expect.poll(() => stillImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await card.hover();
  await expect(card.locator('video')).toHaveAttribute('poster', stillUrl);
  await page.mouse.move(0, 0);
  await expect(card.locator('video')).toHaveCount(0);
  await expect(card.getByRole('img', { name: title })).toHaveAttribute('src', stillUrl);
  await card.getByRole('link', { name: title }).focus();
  await expect(card.locator('video')).toHaveCount(1);
  await page.emulateMedia({ reducedMotion: 'no-preference' });

  // Detail: the Files section lists every video with its size, each a working link.
  const videos = renditions.filter((r) => [...FULL_VIDEOS, ...SMALL_VIDEOS].includes(r.kind));
  expect(videos.length).toBeGreaterThan(0);
  await page.goto(`/gifs/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const files = page.locator('section', { has: page.getByRole('heading', { name: 'Files', exact: true }) });
  await expect(files).toBeVisible();
  for (const rendition of videos) {
    const label = LABELS[rendition.kind]!;
    const link = files.getByRole('link', { name: label, exact: true });
    await expect(link).toHaveAttribute('href', rendition.url);
    await expect(files.getByRole('listitem').filter({ has: page.getByRole('link', { name: label, exact: true }) })).toHaveText(
      `${label} · ${rendition.width} × ${rendition.height} · ${(rendition.size / 1024).toFixed(2)} KB`,
    );
    const file = await page.request.get(rendition.url);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toContain(rendition.contentType);
  }
  // The main picture is a video too when the server prefers one at full size, its poster the
  // first frame at display size (made with the videos).
  if (videos.some((r) => r.preferred && FULL_VIDEOS.includes(r.kind))) {
    const poster = renditions.find((r) => r.kind === 'poster');
    expect(poster?.contentType).toBe('image/webp');
    await expect(page.locator('.gif-detail__figure video')).toHaveAttribute('poster', poster!.url);
  }
  await screenshots(page, 'detail-files');
});

test('a transparent animation plays from its animated WebP on the detail page, fitted in its frame', async ({ page }) => {
  test.setTimeout(150_000);
  await registerAndLogIn(page, 'webp');
  const token = await tokenOf(page);
  const title = `Spinning sticker ${uniqueName('w').toLowerCase()}`;
  const sticker = photoLikeGif({ width: 300, height: 300, sticker: true });
  const { id } = await uploadGifViaApi(page.request, token, { title, description: 'A disc of gradients, the rest clear.' }, sticker);

  // The WebP comes from the renditions job; it is then the preferred full-size file.
  let renditions: RenditionDto[] = [];
  await expect
    .poll(
      async () => {
        renditions = await renditionsOf(page, token, id);
        return renditions.find((r) => r.preferred && ['original', 'medium', 'webp'].includes(r.kind))?.kind;
      },
      { message: 'the WebP preferred within 60 s (is ffmpeg with libwebp_anim available?)', timeout: 60_000, intervals: [500, 1000, 2000] },
    )
    .toBe('webp');
  const webp = renditions.find((r) => r.kind === 'webp')!;
  expect(webp.size).toBeLessThan(renditions.find((r) => r.kind === 'original')!.size);
  expect(renditions.some((r) => r.preferred && FULL_VIDEOS.includes(r.kind))).toBe(false);

  // The poster (the first frame, a still WebP at the frame's size) is painted first; the animation
  // is asked for only once it shows.
  await expect
    .poll(async () => (await renditionsOf(page, token, id)).find((r) => r.kind === 'poster')?.width, { timeout: 60_000 })
    .toBe(300);
  const poster = (await renditionsOf(page, token, id)).find((r) => r.kind === 'poster')!;
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`/gifs/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const image = page.locator('.gif-detail__figure').getByRole('img', { name: title });
  await expect(image).toHaveAttribute('src', `/api/gifs/content/${id}`);
  expect(await image.evaluate((img) => img.parentElement?.tagName)).toBe('PICTURE');
  // Chromium takes the WebP source, through the session cookie, and draws it.
  // Until the picture has chosen its source, currentSrc is empty.
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => (img.currentSrc ? new URL(img.currentSrc).pathname : '')), { timeout: 20_000 })
    .toBe(new URL(webp.url, page.url()).pathname);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
  const [posterAt, webpAt] = [asked.indexOf(new URL(poster.url, page.url()).pathname), asked.indexOf(new URL(webp.url, page.url()).pathname)];
  expect(posterAt, `requests: ${asked.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(posterAt).toBeLessThan(webpAt);
  // The square picture fits inside the 4:3 frame (contained, not overflowing it).
  const frame = (await page.locator('.gif-detail__figure .image-frame').boundingBox())!;
  const box = (await image.boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(frame.height + 1);
  expect(box.width).toBeLessThanOrEqual(frame.width + 1);
  // The Files list names it.
  const files = page.locator('section', { has: page.getByRole('heading', { name: 'Files', exact: true }) });
  await expect(files.getByRole('link', { name: 'WebP', exact: true })).toHaveAttribute('href', webp.url);
  await screenshots(page, 'detail-webp');
});
