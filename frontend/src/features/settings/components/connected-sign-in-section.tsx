import { useCallback } from 'react';
import type { IdentityDto } from '@/api/generated/IdentityDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { MSG_GOOGLE_LOGIN_FAILED, useGoogleCredential } from '@/lib/google-identity';
import {
  MSG_CONNECT_FAILED,
  MSG_DISCONNECT_FAILED,
  useConnectIdentity,
  useDisconnectIdentity,
  useIdentities,
} from '../api/identities';

export const MSG_CONNECTED = 'Google account connected';
export const MSG_DISCONNECTED = 'Google account disconnected';
export const DISCONNECT_CONFIRM =
  'Disconnect this Google account? You will sign in with your username and password.';

/** The provider a connected identity belongs to, as a person would name it. */
export function providerName(issuer: string): string {
  return issuer === 'https://accounts.google.com' ? 'Google' : new URL(issuer).host || issuer;
}

/**
 * "Connected sign-in": the Google (or other OpenID) identities that sign this account in. Linking
 * happens only here, by the signed-in owner; the server refuses to remove the only way in.
 */
export function ConnectedSignInSection({ googleClientId }: { googleClientId: string | null }) {
  const identities = useIdentities();
  const connect = useConnectIdentity();
  const disconnect = useDisconnectIdentity();
  const toast = useToast();

  const onCredential = useCallback(
    (credential: string) => {
      if (!credential) {
        toast.error(MSG_GOOGLE_LOGIN_FAILED);
        return;
      }
      connect.mutate(credential, {
        onSuccess: () => toast.success(MSG_CONNECTED),
        onError: (error) => toast.error(errorMessage(error, MSG_CONNECT_FAILED)),
      });
    },
    [connect, toast],
  );
  const onError = useCallback((error: unknown) => toast.error(errorMessage(error, MSG_GOOGLE_LOGIN_FAILED)), [toast]);
  const google = useGoogleCredential(googleClientId, onCredential, onError, 'signin_with');

  // The mutation lives here: unlinking the last identity unmounts the list before it settles.
  const onDisconnect = (issuer: string) => {
    if (disconnect.isPending || !window.confirm(DISCONNECT_CONFIRM)) return;
    disconnect.mutate(issuer, {
      onSuccess: () => toast.success(MSG_DISCONNECTED),
      onError: (error) => toast.error(errorMessage(error, MSG_DISCONNECT_FAILED)),
    });
  };

  const list = identities.data ?? [];
  // The server signs in with one provider, and an account connects at most one identity of it.
  const canConnect = Boolean(googleClientId) && list.length === 0;

  return (
    <section className="settings-card" aria-labelledby="connected-sign-in-title">
      <h2 id="connected-sign-in-title" className="settings-card__title">
        Connected sign-in
      </h2>
      {identities.isPending ? (
        <p className="state-line" role="status">
          Loading connected sign-in...
        </p>
      ) : identities.isError ? (
        <p className="form-message form-message--error" role="alert">
          {errorMessage(identities.error, 'Failed to load connected sign-in')}
        </p>
      ) : (
        <>
          {list.length === 0 ? (
            <p className="settings-card__hint">
              {googleClientId
                ? 'No Google account is connected. Connect one to sign in with Google too.'
                : 'Sign-in with Google is not enabled on this server.'}
            </p>
          ) : (
            <IdentityList identities={list} busy={disconnect.isPending} onDisconnect={onDisconnect} />
          )}
          {canConnect && (
            <div className="identity-connect">
              <button
                type="button"
                className="btn btn--primary"
                onClick={() => void google.start()}
                disabled={google.starting || connect.isPending}
              >
                {connect.isPending ? 'Linking…' : 'Link Google account'}
              </button>
              <div ref={google.fallbackRef} className="identity-connect__google" hidden={!google.fallbackShown} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

type IdentityListProps = {
  identities: IdentityDto[];
  busy: boolean;
  onDisconnect: (issuer: string) => void;
};

/** The connected identities, each with its provider, its email when known and an Unlink button. */
function IdentityList({ identities, busy, onDisconnect }: IdentityListProps) {
  return (
    <ul className="identity-list">
      {identities.map((identity) => (
        <li key={identity.issuer} className="identity-list__item">
          <span className="identity-list__provider">{providerName(identity.issuer)}</span>
          {identity.email && <span className="identity-list__email">{identity.email}</span>}
          <button
            type="button"
            className="btn btn--ghost btn--small"
            onClick={() => onDisconnect(identity.issuer)}
            disabled={busy}
          >
            Unlink
          </button>
        </li>
      ))}
    </ul>
  );
}
