import { PASSWORD_MIN_CHARS, USERNAME_MAX, USERNAME_MIN } from '@/lib/limits';
import type { FieldErrors } from '@/lib/validation';

export const MSG_NEW_PASSWORDS_DO_NOT_MATCH = 'New passwords do not match';

export function validateUsername(value: string): string | null {
  const username = value.trim();
  if (!username) return 'Username is required';
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX)
    return `Username must be between ${USERNAME_MIN} and ${USERNAME_MAX} characters`;
  return null;
}

/** The password form: the current password is asked only of accounts that have one. */
export type PasswordForm = { currentPassword: string; newPassword: string; confirmPassword: string };
export type PasswordField = keyof PasswordForm;

/** Field errors for the password form; a mismatch is reported separately (nothing is sent). */
export function validatePasswordChange(
  form: PasswordForm,
  hasPassword: boolean,
): {
  fields: FieldErrors<PasswordField>;
  mismatch: boolean;
} {
  const fields: FieldErrors<PasswordField> = {};
  if (hasPassword && !form.currentPassword) fields.currentPassword = 'Current password is required';
  if (!form.newPassword) fields.newPassword = 'New password is required';
  else if (form.newPassword.length < PASSWORD_MIN_CHARS)
    fields.newPassword = `Password must be at least ${PASSWORD_MIN_CHARS} characters`;
  if (!form.confirmPassword) fields.confirmPassword = 'Please confirm the new password';
  else if (form.confirmPassword.length < PASSWORD_MIN_CHARS)
    fields.confirmPassword = `Password must be at least ${PASSWORD_MIN_CHARS} characters`;
  return { fields, mismatch: form.newPassword !== form.confirmPassword };
}
