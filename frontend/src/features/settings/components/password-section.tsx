import { useState, type FormEvent } from 'react';
import type { ChangePasswordRequest } from '@/api/generated/ChangePasswordRequest';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_MIN_CHARS } from '@/lib/limits';
import type { FieldErrors } from '@/lib/validation';
import { useChangePassword } from '../api/change-password';
import { MSG_NEW_PASSWORDS_DO_NOT_MATCH, validatePasswordChange, type PasswordField } from '../validation';

export const MSG_PASSWORD_CHANGED = 'Password changed successfully';

const empty: ChangePasswordRequest = { newPassword: '', confirmPassword: '' };

export function PasswordSection() {
  const change = useChangePassword();
  const [form, setForm] = useState<ChangePasswordRequest>(empty);
  const [errors, setErrors] = useState<FieldErrors<PasswordField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const set = (field: PasswordField) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    setFormError(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    setSuccess(null);
    change.reset();
    const { fields, mismatch } = validatePasswordChange(form);
    setErrors(fields);
    if (Object.values(fields).some(Boolean)) return;
    if (mismatch) {
      setFormError(MSG_NEW_PASSWORDS_DO_NOT_MATCH);
      return;
    }
    setFormError(null);
    change.mutate(form, {
      onSuccess: () => {
        setSuccess(MSG_PASSWORD_CHANGED);
        setForm(empty);
      },
    });
  };

  return (
    <section className="settings-card" aria-labelledby="change-password-title">
      <h2 id="change-password-title" className="settings-card__title">
        Change Password
      </h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="New Password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_CHARS}
          value={form.newPassword}
          onValueChange={set('newPassword')}
          error={errors.newPassword}
        />
        <TextField
          label="Confirm New Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_CHARS}
          value={form.confirmPassword}
          onValueChange={set('confirmPassword')}
          error={errors.confirmPassword}
        />
        {formError && <FormMessage kind="error">{formError}</FormMessage>}
        {change.isError && (
          <FormMessage kind="error">
            {errorMessage(change.error, 'Failed to change password')}
          </FormMessage>
        )}
        {success && <FormMessage kind="success">{success}</FormMessage>}
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={change.isPending}>
            {change.isPending ? 'Saving…' : 'Change Password'}
          </button>
        </div>
      </form>
    </section>
  );
}
