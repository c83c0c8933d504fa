import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ProfileDto } from '@/api/generated/ProfileDto';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { USERNAME_MAX, USERNAME_MIN } from '@/lib/limits';
import { logout } from '@/lib/session';
import { useUpdateProfile } from '../api/update-profile';
import { validateUsername } from '../validation';

export const MSG_PROFILE_UPDATED = 'Profile updated successfully';
export const MSG_PROFILE_UPDATED_RELOGIN =
  'Profile updated successfully. Please log in again with your new username.';
export const RELOGIN_DELAY_MS = 2000;

export function ProfileSection({ profile }: { profile: ProfileDto }) {
  const navigate = useNavigate();
  const toast = useToast();
  const update = useUpdateProfile();
  const [username, setUsername] = useState(profile.username);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    setSuccess(null);
    const problem = validateUsername(username);
    setFieldError(problem);
    if (problem) return;
    const next = username.trim();
    const renamed = next !== profile.username;
    update.mutate(
      { username: next, email: null },
      {
        onSuccess: () => {
          if (!renamed) {
            setSuccess(MSG_PROFILE_UPDATED);
            return;
          }
          setSuccess(MSG_PROFILE_UPDATED_RELOGIN);
          // The server has invalidated the old token: sign out once the message has been read.
          setTimeout(() => {
            logout();
            toast.success(MSG_PROFILE_UPDATED_RELOGIN);
            void navigate(paths.login);
          }, RELOGIN_DELAY_MS);
        },
      },
    );
  };

  return (
    <section className="settings-card" aria-labelledby="profile-settings-title">
      <h2 id="profile-settings-title" className="settings-card__title">
        Profile Settings
      </h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          minLength={USERNAME_MIN}
          maxLength={USERNAME_MAX}
          value={username}
          onValueChange={(value) => {
            setUsername(value);
            setFieldError(null);
          }}
          error={fieldError}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          readOnly
          value={profile.email}
          help="Beware: If Google Login is used, changing this Email will break it."
        />
        {update.isError && (
          <FormMessage kind="error">
            {errorMessage(update.error, 'Failed to update profile')}
          </FormMessage>
        )}
        {success && <FormMessage kind="success">{success}</FormMessage>}
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save Profile'}
          </button>
        </div>
      </form>
    </section>
  );
}
