import { useId, useState, type FormEvent } from 'react';
import type { IntegrationDto } from '@/api/generated/IntegrationDto';
import type { Rating } from '@/api/generated/Rating';
import { CopyField, copiedMessage } from '@/components/copy-field/copy-field';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { RATINGS, RatingField } from '@/features/gifs/components/rating-field';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { INTEGRATION_NAME_MAX, INTEGRATION_SECRET_MAX } from '@/lib/limits';
import {
  MSG_ADD_INTEGRATION_FAILED,
  MSG_LOAD_INTEGRATIONS_FAILED,
  MSG_REMOVE_INTEGRATION_FAILED,
  MSG_SAVE_RATING_FAILED,
  useAddIntegration,
  useIntegrations,
  useRemoveIntegration,
  useUpdateIntegration,
} from '../api/integrations';

type Platform = IntegrationDto['platform'];

export const COMMAND_PATH = '/api/chat/command';

/** The endpoint each platform calls: Slack, Mattermost and Zulip share one, the others have their own. */
export const REQUEST_PATHS: Record<Platform, string> = {
  slack: COMMAND_PATH,
  mattermost: COMMAND_PATH,
  zulip: COMMAND_PATH,
  discord: '/api/chat/discord',
  telegram: '/api/chat/telegram',
  teams: '/api/chat/teams',
  rocketchat: '/api/chat/rocketchat',
};

/** What the platform's admin screen calls the URL to paste. */
export const URL_LABELS: Record<Platform, string> = {
  slack: 'Request URL',
  mattermost: 'Request URL',
  zulip: 'Request URL',
  discord: 'Interactions Endpoint URL',
  telegram: 'Webhook URL',
  teams: 'Callback URL',
  rocketchat: 'Request URL',
};
export const MSG_INTEGRATION_ADDED = 'Integration added';
export const MSG_INTEGRATION_REMOVED = 'Integration removed';
export const MSG_NO_INTEGRATIONS = 'No integrations yet.';
export const ratingSavedMessage = (name: string) => `Maximum rating of ${name} saved`;
export const removeIntegrationConfirm = (name: string) =>
  `Remove integration ${name}? Its slash commands stop working at once.`;

export const PLATFORM_LABELS: Record<Platform, string> = {
  slack: 'Slack',
  mattermost: 'Mattermost',
  zulip: 'Zulip',
  discord: 'Discord',
  telegram: 'Telegram',
  teams: 'Microsoft Teams',
  rocketchat: 'Rocket.Chat',
};

/** Where each platform shows the secret to paste. */
export const SECRET_HELP: Record<Platform, string> = {
  slack: 'The Signing Secret of your Slack app (Basic Information, App Credentials).',
  mattermost: 'The token Mattermost shows when you save the slash command.',
  zulip: 'The token of the outgoing webhook bot (in its zuliprc file).',
  discord:
    'The Public Key of your Discord application (General Information). Then run gifshelf discord register on the server.',
  telegram:
    'The webhook secret you choose (letters, digits, _ and -); gifshelf telegram set-webhook gives it to Telegram.',
  teams: 'The security token Teams shows once when you create the outgoing webhook.',
  rocketchat: 'The token Rocket.Chat shows when you save the outgoing webhook (trigger word gif).',
};

const PLATFORMS = Object.keys(PLATFORM_LABELS) as Platform[];

/**
 * "Integrations" (admins): the secrets, keys and tokens with which slash commands (`/gif cats`),
 * bots and outgoing webhooks prove they come from your chat. The list never shows a secret, only
 * its last four characters. The URL to paste follows the platform chosen in the form.
 */
export function IntegrationsSection() {
  const toast = useToast();
  const [platform, setPlatform] = useState<Platform>('slack');
  const requestUrl = `${window.location.origin}${REQUEST_PATHS[platform]}`;
  const urlLabel = URL_LABELS[platform];

  return (
    <section className="settings-card" aria-labelledby="integrations-title">
      <h2 id="integrations-title" className="settings-card__title">
        Integrations
      </h2>
      <p className="settings-card__hint">
        Slash commands post the best-matching GIF into a chat channel: <code>/gif cats</code> in Slack,
        Mattermost, Discord or Telegram, a mention of a Zulip or Teams bot, or <code>gif cats</code> in
        Rocket.Chat. Anyone who can use the command can post any GIF of the library up to the
        integration&apos;s maximum rating, by its public share link.
      </p>
      <div className="integrations__url">
        <CopyField
          label={urlLabel}
          labelClassName="field__label"
          copyLabel={`Copy ${urlLabel.replace(/ URL$/, '').toLowerCase()} URL`}
          value={requestUrl}
          onCopied={() => toast.success(copiedMessage(urlLabel))}
        />
      </div>
      <AddIntegrationForm platform={platform} onPlatformChange={setPlatform} />
      <IntegrationList />
    </section>
  );
}

/** Platform, name and secret of a new integration; a failed add shows its error until an edit. */
function AddIntegrationForm({
  platform,
  onPlatformChange,
}: {
  platform: Platform;
  onPlatformChange: (platform: Platform) => void;
}) {
  const add = useAddIntegration();
  const toast = useToast();
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const [maxRating, setMaxRating] = useState<Rating | ''>('');

  /** A field's setter that also clears a failed add's message. */
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      if (add.isError) add.reset();
    };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    add.mutate(
      { platform, name, secret, ...(maxRating ? { maxRating } : {}) },
      {
        onSuccess: () => {
          setName('');
          setSecret('');
          setMaxRating('');
          toast.success(MSG_INTEGRATION_ADDED);
        },
      },
    );
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <PlatformField value={platform} onChange={edit(onPlatformChange)} />
      <TextField
        label="Name"
        name="integrationName"
        autoComplete="off"
        required
        maxLength={INTEGRATION_NAME_MAX}
        value={name}
        onValueChange={edit(setName)}
      />
      <TextField
        label="Secret"
        name="integrationSecret"
        type="password"
        autoComplete="off"
        spellCheck={false}
        required
        maxLength={INTEGRATION_SECRET_MAX}
        help={SECRET_HELP[platform]}
        value={secret}
        onValueChange={edit(setSecret)}
      />
      <RatingField
        label="Maximum rating"
        name="integrationMaxRating"
        allowDefault
        value={maxRating}
        onChange={edit(setMaxRating)}
      />
      {add.isError && <FormMessage kind="error">{errorMessage(add.error, MSG_ADD_INTEGRATION_FAILED)}</FormMessage>}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add integration'}
        </button>
      </div>
    </form>
  );
}

function PlatformField({ value, onChange }: { value: Platform; onChange: (platform: Platform) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Platform
      </label>
      <select
        id={id}
        name="integrationPlatform"
        className="field__input field__select"
        value={value}
        onChange={(event) => onChange(event.target.value as Platform)}
      >
        {PLATFORMS.map((platform) => (
          <option key={platform} value={platform}>
            {PLATFORM_LABELS[platform]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The integrations, each with the last characters of its secret and a Remove button. */
function IntegrationList() {
  const integrations = useIntegrations();
  const remove = useRemoveIntegration();
  const toast = useToast();

  const onRemove = (integration: IntegrationDto) => {
    if (remove.isPending || !window.confirm(removeIntegrationConfirm(integration.name))) return;
    remove.mutate(integration.id, {
      onSuccess: () => toast.success(MSG_INTEGRATION_REMOVED),
      onError: (error) => toast.error(errorMessage(error, MSG_REMOVE_INTEGRATION_FAILED)),
    });
  };

  return (
    <div className="api-keys">
      {integrations.isPending ? (
        <p className="state-line" role="status">
          Loading integrations...
        </p>
      ) : integrations.isError ? (
        <p className="form-message form-message--error" role="alert">
          {errorMessage(integrations.error, MSG_LOAD_INTEGRATIONS_FAILED)}
        </p>
      ) : integrations.data.length === 0 ? (
        <p className="settings-card__hint">{MSG_NO_INTEGRATIONS}</p>
      ) : (
        <ul className="identity-list" aria-label="Integrations">
          {integrations.data.map((integration) => (
            <li key={integration.id} className="identity-list__item">
              <div className="api-key">
                <span className="identity-list__provider api-key__name">{integration.name}</span>
                <span className="api-key__dates">
                  {PLATFORM_LABELS[integration.platform]} · secret{' '}
                  <code className="api-key__prefix">…{integration.secretHint}</code>
                </span>
                <span className="api-key__dates">Added {formatDate(integration.createdAt)}</span>
              </div>
              <MaxRatingForm integration={integration} />
              <button
                type="button"
                className="btn btn--ghost btn--small"
                aria-label={`Remove ${integration.name}`}
                onClick={() => onRemove(integration)}
                disabled={remove.isPending}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** An integration's maximum rating: a select and "Save" (enabled once it differs from the stored one). */
function MaxRatingForm({ integration }: { integration: IntegrationDto }) {
  const update = useUpdateIntegration();
  const toast = useToast();
  const [maxRating, setMaxRating] = useState<Rating>(integration.maxRating);
  const changed = maxRating !== integration.maxRating;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending || !changed) return;
    update.mutate(
      { id: integration.id, maxRating },
      {
        onSuccess: (saved) => toast.success(ratingSavedMessage(saved.name)),
        onError: (error) => toast.error(errorMessage(error, MSG_SAVE_RATING_FAILED)),
      },
    );
  };

  return (
    <form className="integration-rating" onSubmit={onSubmit}>
      <span className="integration-rating__label" aria-hidden="true">
        Maximum rating
      </span>
      <select
        className="field__input field__select integration-rating__select"
        aria-label={`Maximum rating of ${integration.name}`}
        value={maxRating}
        disabled={update.isPending}
        onChange={(event) => setMaxRating(event.target.value as Rating)}
      >
        {RATINGS.map((rating) => (
          <option key={rating.value} value={rating.value}>
            {rating.label}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="btn btn--secondary btn--small"
        aria-label={`Save the maximum rating of ${integration.name}`}
        disabled={update.isPending || !changed}
      >
        {update.isPending ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}
