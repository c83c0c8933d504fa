import { useState, type FormEvent } from 'react';
import type { ApiKeyDto } from '@/api/generated/ApiKeyDto';
import type { CreatedApiKeyDto } from '@/api/generated/CreatedApiKeyDto';
import { CopyField, copiedMessage } from '@/components/copy-field/copy-field';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { API_KEY_NAME_MAX } from '@/lib/limits';
import {
  MSG_CREATE_KEY_FAILED,
  MSG_LOAD_KEYS_FAILED,
  MSG_REVOKE_KEY_FAILED,
  useApiKeys,
  useCreateApiKey,
  useRevokeApiKey,
} from '../api/api-keys';

export const MSG_KEY_REVOKED = 'API key revoked';
export const MSG_NO_KEYS = 'No API keys yet.';
export const MSG_KEY_SHOWN_ONCE = 'Copy this key now: it will not be shown again.';
export const revokeKeyConfirm = (name: string) =>
  `Revoke key ${name}? Programs using it stop working at once.`;

/**
 * "API keys": keys for the chat-compatible APIs (Tenor v2, GIPHY v1). A new key is shown once,
 * right after it is created; the list shows only each key's first characters.
 */
export function ApiKeysSection() {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKeyDto | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate(
      { name },
      {
        onSuccess: (key) => {
          setCreated(key);
          setName('');
        },
      },
    );
  };

  const onDone = () => {
    setCreated(null);
    create.reset();
  };

  return (
    <section className="settings-card" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title" className="settings-card__title">
        API keys
      </h2>
      <p className="settings-card__hint">
        Keys are for chat apps and other programs. A key can only read, and revoking it stops it at once.
      </p>
      {created ? (
        <CreatedKey created={created} onDone={onDone} />
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <TextField
            label="Key name"
            name="apiKeyName"
            autoComplete="off"
            required
            maxLength={API_KEY_NAME_MAX}
            value={name}
            onValueChange={(value) => {
              setName(value);
              if (create.isError) create.reset();
            }}
          />
          {create.isError && (
            <FormMessage kind="error">{errorMessage(create.error, MSG_CREATE_KEY_FAILED)}</FormMessage>
          )}
          <div className="form__actions">
            <button type="submit" className="btn btn--primary" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create key'}
            </button>
          </div>
        </form>
      )}
      <ApiKeyList />
    </section>
  );
}

/** The new key, shown once, with a Copy button; Done goes back to the form. */
function CreatedKey({ created, onDone }: { created: CreatedApiKeyDto; onDone: () => void }) {
  const toast = useToast();
  return (
    <div className="api-key-created">
      <CopyField
        label={`New key "${created.name}"`}
        labelClassName="field__label"
        value={created.key}
        onCopied={() => toast.success(copiedMessage('API key'))}
      />
      <p className="field__help">{MSG_KEY_SHOWN_ONCE}</p>
      <div className="form__actions">
        <button type="button" className="btn btn--secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** The keys by name and first characters, with when they were created and last used. */
function ApiKeyList() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const toast = useToast();

  const onRevoke = (key: ApiKeyDto) => {
    if (revoke.isPending || !window.confirm(revokeKeyConfirm(key.name))) return;
    revoke.mutate(key.id, {
      onSuccess: () => toast.success(MSG_KEY_REVOKED),
      onError: (error) => toast.error(errorMessage(error, MSG_REVOKE_KEY_FAILED)),
    });
  };

  return (
    <div className="api-keys">
      {keys.isPending ? (
        <p className="state-line" role="status">
          Loading API keys...
        </p>
      ) : keys.isError ? (
        <p className="form-message form-message--error" role="alert">
          {errorMessage(keys.error, MSG_LOAD_KEYS_FAILED)}
        </p>
      ) : keys.data.length === 0 ? (
        <p className="settings-card__hint">{MSG_NO_KEYS}</p>
      ) : (
        <ul className="identity-list" aria-label="API keys">
          {keys.data.map((key) => (
            <li key={key.id} className="identity-list__item">
              <div className="api-key">
                <span className="identity-list__provider api-key__name">{key.name}</span>
                <code className="api-key__prefix">{key.prefix}…</code>
                <span className="api-key__dates">
                  Created {formatDate(key.createdAt)} ·{' '}
                  {key.lastUsedAt ? `Last used ${formatDate(key.lastUsedAt)}` : 'Never used'}
                </span>
              </div>
              <button
                type="button"
                className="btn btn--ghost btn--small"
                aria-label={`Revoke ${key.name}`}
                onClick={() => onRevoke(key)}
                disabled={revoke.isPending}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
