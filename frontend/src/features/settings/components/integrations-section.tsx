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
};

/** Where each platform shows the secret to paste. */
export const SECRET_HELP: Record<Platform, string> = {
  slack: 'The Signing Secret of your Slack app (Basic Information, App Credentials).',
  mattermost: 'The token Mattermost shows when you save the slash command.',
  zulip: 'The token of the outgoing webhook bot (in its zuliprc file).',
};

const PLATFORMS = Object.keys(PLATFORM_LABELS) as Platform[];

/**
 * "Integrations" (admins): the Slack signing secrets and the Mattermost and Zulip tokens with which
 * slash commands (`/gif cats`) prove they come from your chat. The list never shows a secret,
 * only its last four characters.
 */
export function IntegrationsSection() {
  const toast = useToast();
  const commandUrl = `${window.location.origin}${COMMAND_PATH}`;

  return (
    <section className="settings-card" aria-labelledby="integrations-title">
      <h2 id="integrations-title" className="settings-card__title">
        Integrations
      </h2>
      <p className="settings-card__hint">
        Slash commands post the best-matching GIF into a chat channel: <code>/gif cats</code> in Slack or
        Mattermost, or a mention of a Zulip bot. Anyone who can use the command can post any GIF of the library up to the
        integration&apos;s maximum rating, by its public share link.
      </p>
      <div className="integrations__url">
        <CopyField
          label="Request URL"
          labelClassName="field__label"
          copyLabel="Copy request URL"
          value={commandUrl}
          onCopied={() => toast.success(copiedMessage('Request URL'))}
        />
      </div>
      <AddIntegrationForm />
      <IntegrationList />
    </section>
  );
}

/** Platform, name and secret of a new integration; a failed add shows its error until an edit. */
function AddIntegrationForm() {
  const add = useAddIntegration();
  const toast = useToast();
  const [platform, setPlatform] = useState<Platform>('slack');
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
      <PlatformField value={platform} onChange={edit(setPlatform)} />
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
