import { errorMessage } from '@/lib/api-client';
import { usePublicConfig } from '@/lib/public-config';
import type { ReactNode } from 'react';
import { useIsAdmin } from '@/lib/session';
import { useProfile } from '../api/get-profile';
import { ApiKeysSection } from './api-keys-section';
import { ConnectedSignInSection } from './connected-sign-in-section';
import { IntegrationsSection } from './integrations-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { UsageSection } from './usage-section';
import './settings.css';

/**
 * /settings. `invitations`: the members' "Invitations" section, composed by the app from the join
 * feature and shown when this server lets members invite (admins invite from Members).
 */
export function SettingsPage({ invitations }: { invitations?: ReactNode }) {
  const profile = useProfile();
  const config = usePublicConfig();
  const isAdmin = useIsAdmin();
  return (
    <div className="settings">
      <h1 className="page-title">Settings</h1>
      {profile.isPending ? (
        <p className="state-line" role="status">
          Loading user profile...
        </p>
      ) : profile.isError ? (
        <p className="form-message form-message--error" role="alert">
          Failed to load user profile: {errorMessage(profile.error, 'Unknown error')}
        </p>
      ) : (
        <div className="settings__sections">
          <ProfileSection profile={profile.data} />
          <PasswordSection hasPassword={profile.data.hasPassword} />
          <ConnectedSignInSection googleClientId={config.data?.googleClientId ?? null} />
          <UsageSection />
          <ApiKeysSection />
          {!isAdmin && config.data?.membersMayInvite ? invitations : null}
          {isAdmin && <IntegrationsSection />}
          <section className="settings-card" aria-labelledby="download-heading">
            <h2 id="download-heading" className="settings-card__title">
              Download my GIFs
            </h2>
            <p>
              Every GIF you uploaded, as you uploaded it, with a manifest.json of titles, descriptions,
              tags and dates, in one ZIP file.
            </p>
            <a className="btn" href="/api/settings/export.zip" download>
              Download my GIFs
            </a>
          </section>
        </div>
      )}
    </div>
  );
}
