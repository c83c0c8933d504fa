import { errorMessage } from '@/lib/api-client';
import { useProfile } from '../api/get-profile';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import './settings.css';

export function SettingsPage() {
  const profile = useProfile();
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
          <PasswordSection />
        </div>
      )}
    </div>
  );
}
