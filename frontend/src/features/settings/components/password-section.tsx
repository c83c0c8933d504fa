import { useState, type FormEvent } from 'react';
import type { ChangePasswordRequest } from '@/api/generated/ChangePasswordRequest';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_MIN_CHARS } from '@/lib/limits';
import type { FieldErrors } from '@/lib/validation';
import { useChangePassword } from '../api/change-password';
import {
  MSG_NEW_PASSWORDS_DO_NOT_MATCH,
  validatePasswordChange,
  type PasswordField,
  type PasswordForm,
} from '../validation';

export const MSG_PASSWORD_CHANGED = 'Password changed successfully';

const empty: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** `hasPassword` false: an account made by a third-party sign-in sets its first password, and
 * has no current one to give. */
export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const change = useChangePassword();
  const [form, setForm] = useState<PasswordForm>(empty);
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
    const { fields, mismatch } = validatePasswordChange(form, hasPassword);
    setErrors(fields);
    if (Object.values(fields).some(Boolean)) return;
    if (mismatch) {
      setFormError(MSG_NEW_PASSWORDS_DO_NOT_MATCH);
      return;
    }
    setFormError(null);
    const request: ChangePasswordRequest = {
      newPassword: form.newPassword,
      confirmPassword: form.confirmPassword,
      ...(hasPassword ? { currentPassword: form.currentPassword } : {}),
    };
    change.mutate(request, {
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
        <PasswordFields hasPassword={hasPassword} form={form} errors={errors} set={set} />
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

type FieldsProps = {
  hasPassword: boolean;
  form: PasswordForm;
  errors: FieldErrors<PasswordField>;
  set: (field: PasswordField) => (value: string) => void;
};

/** The current password (only when the account has one), then the new one twice. */
function PasswordFields({ hasPassword, form, errors, set }: FieldsProps) {
  return (
    <>
      {hasPassword && (
        <TextField
          label="Current Password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          value={form.currentPassword}
          onValueChange={set('currentPassword')}
          error={errors.currentPassword}
        />
      )}
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
    </>
  );
}
