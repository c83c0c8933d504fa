import { createHmac, randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
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

/** A `/gif {text}` slash command as Slack sends it, signed with `secret` now. */
function slackCommand(request: APIRequestContext, secret: string, text: string) {
  const body = new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: 'T1DC2JH3J',
    channel_id: 'G8PSS9T3V',
    user_name: 'roadrunner',
    command: '/gif',
    text,
    response_url: 'https://hooks.slack.com/commands/T1DC2JH3J/1/x',
  }).toString();
  const timestamp = Math.floor(Date.now() / 1000).toString();
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return request.post('/api/chat/command', {
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Slack-Request-Timestamp': timestamp,
      'X-Slack-Signature': signature,
    },
    data: body,
  });
}

test('an admin adds a Slack integration: signed commands post a GIF until it is removed', async ({
  page,
  request,
}) => {
  const admin = uniqueName('integ');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);
  const word = uniqueName('zebra').toLowerCase();
  const gif = await uploadGifViaApi(request, await tokenOf(page), { title: `Dancing ${word}` }, 41);

  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Integrations' });
  await expect(section.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  await expect(section.getByText('No integrations yet.')).toBeVisible();
  await expect(section.getByRole('textbox', { name: 'Request URL', exact: true })).toHaveValue(/\/api\/chat\/command$/);

  const secret = randomBytes(16).toString('hex');
  // Nothing configured for it yet: refused.
  expect((await slackCommand(request, secret, word)).status()).toBe(401);

  await section.getByLabel('Platform', { exact: true }).selectOption('slack');
  await section.getByLabel('Name', { exact: true }).fill('Team Slack');
  await section.getByLabel('Secret', { exact: true }).fill(secret);
  await section.getByRole('button', { name: 'Add integration' }).click();
  await expect(toast(page, 'Integration added')).toBeVisible();
  const list = section.getByRole('list', { name: 'Integrations' });
  const row = list.getByRole('listitem').filter({ hasText: 'Team Slack' });
  await expect(row).toContainText(`Slack · secret …${secret.slice(-4)}`);
  await expect(section.getByLabel('Secret', { exact: true })).toHaveValue('');
  expect(await page.content()).not.toContain(secret);
  await dismissToasts(page);
  await screenshots(page, 'settings-integrations');

  // A request signed with the secret gets the GIF in the channel, by its public share link.
  const answered = await slackCommand(request, secret, word);
  expect(answered.status()).toBe(200);
  const answer = (await answered.json()) as {
    response_type: string;
    blocks: { type: string; image_url?: string; alt_text?: string }[];
  };
  expect(answer.response_type).toBe('in_channel');
  const image = answer.blocks[0];
  expect(image?.type).toBe('image');
  expect(image?.alt_text).toBe(`Dancing ${word}`);
  expect(image?.image_url).toMatch(new RegExp(`/s/${gif.shareId}\\.gif$`));
  const bytes = await request.get(image!.image_url!);
  expect(bytes.status()).toBe(200);
  expect(bytes.headers()['content-type']).toBe('image/gif');

  // Its maximum rating (the library default, g): an r-rated GIF is not posted until it is raised.
  const strong = uniqueName('tiger').toLowerCase();
  const rated = await uploadGifViaApi(request, await tokenOf(page), { title: `Roaring ${strong}`, rating: 'r' }, 42);
  const mild = await slackCommand(request, secret, strong);
  expect(((await mild.json()) as { response_type: string }).response_type).toBe('ephemeral');
  const maxRating = row.getByRole('combobox', { name: 'Maximum rating of Team Slack' });
  await expect(maxRating).toHaveValue('g');
  const save = row.getByRole('button', { name: 'Save the maximum rating of Team Slack' });
  await expect(save).toBeDisabled();
  await maxRating.selectOption('r');
  await save.click();
  await expect(toast(page, 'Maximum rating of Team Slack saved')).toBeVisible();
  await expect(save).toBeDisabled();
  await dismissToasts(page);
  await screenshots(page, 'settings-integrations-rating');
  const raised = (await (await slackCommand(request, secret, strong)).json()) as {
    response_type: string;
    blocks: { image_url?: string }[];
  };
  expect(raised.response_type).toBe('in_channel');
  expect(raised.blocks[0]?.image_url).toMatch(new RegExp(`/s/${rated.shareId}\\.gif$`));
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Maximum rating of Team Slack' })).toHaveValue('r');

  // Removed: the same request is refused.
  let confirmText = '';
  page.once('dialog', (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await row.getByRole('button', { name: 'Remove Team Slack' }).click();
  await expect(toast(page, 'Integration removed')).toBeVisible();
  expect(confirmText).toBe('Remove integration Team Slack? Its slash commands stop working at once.');
  await expect(section.getByText('No integrations yet.')).toBeVisible();
  const refused = await slackCommand(request, secret, word);
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ code: 'unauthorized' });
});

/** A Telegram update carrying `/gif {text}` to the bot's webhook, with `secret` in its header. */
function telegramCommand(request: APIRequestContext, secret: string, text: string) {
  return request.post('/api/chat/telegram', {
    headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': secret },
    data: {
      update_id: 10001,
      message: { message_id: 1365, chat: { id: 1111111, type: 'private' }, date: 1441645532, text: `/gif ${text}` },
    },
  });
}

test('an admin adds a Telegram bot: its updates are answered with the GIF; the URL follows the platform', async ({
  page,
  request,
}) => {
  const admin = uniqueName('integ');
  await register(page, admin);
  grantAdmin(admin);
  await logIn(page, admin);
  const word = uniqueName('okapi').toLowerCase();
  const gif = await uploadGifViaApi(request, await tokenOf(page), { title: `Running ${word}` }, 43);

  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Integrations' });
  const platform = section.getByLabel('Platform', { exact: true });
  await platform.selectOption('discord');
  await expect(section.getByRole('textbox', { name: 'Interactions Endpoint URL', exact: true })).toHaveValue(
    /\/api\/chat\/discord$/,
  );
  await expect(section.getByText('The Public Key of your Discord application', { exact: false })).toBeVisible();
  await screenshots(page, 'settings-integrations-discord');

  const secret = `tg_${randomBytes(12).toString('hex')}`;
  expect((await telegramCommand(request, secret, word)).status()).toBe(401);
  await platform.selectOption('telegram');
  await expect(section.getByRole('textbox', { name: 'Webhook URL', exact: true })).toHaveValue(/\/api\/chat\/telegram$/);
  await section.getByLabel('Name', { exact: true }).fill('Family bot');
  await section.getByLabel('Secret', { exact: true }).fill(secret);
  await section.getByRole('button', { name: 'Add integration' }).click();
  await expect(toast(page, 'Integration added')).toBeVisible();
  const row = section.getByRole('list', { name: 'Integrations' }).getByRole('listitem').filter({ hasText: 'Family bot' });
  await expect(row).toContainText(`Telegram · secret …${secret.slice(-4)}`);

  const answered = await telegramCommand(request, secret, word);
  expect(answered.status()).toBe(200);
  const answer = (await answered.json()) as { method: string; chat_id: number; animation: string; caption: string };
  expect(answer.method).toBe('sendAnimation');
  expect(answer.chat_id).toBe(1111111);
  expect(answer.animation).toContain(`/s/${gif.shareId}`);
  expect(answer.caption).toContain(`Running ${word}`);
  expect((await request.get(answer.animation)).status()).toBe(200);

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Remove Family bot' }).click();
  await expect(toast(page, 'Integration removed')).toBeVisible();
  expect((await telegramCommand(request, secret, word)).status()).toBe(401);
});

test('a plain user sees no Integrations section and cannot list them', async ({ page }) => {
  await registerAndLogIn(page, 'plain');
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Integrations' })).toHaveCount(0);
  const response = await page.request.get('/api/integrations', {
    headers: { Authorization: `Bearer ${await tokenOf(page)}` },
  });
  expect(response.status()).toBe(403);
});
