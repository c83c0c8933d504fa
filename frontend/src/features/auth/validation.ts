import type { RegisterRequest } from '@/api/generated/RegisterRequest';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARS, REGISTER_USERNAME_MAX, USERNAME_MIN } from '@/lib/limits';
import { isEmail, utf8ByteLength, type FieldErrors } from '@/lib/validation';

export const MSG_PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

export type RegisterField = keyof RegisterRequest;

/** Client-side checks of spec §5; an empty result means the form may be sent. */
export function validateRegister(form: RegisterRequest): FieldErrors<RegisterField> {
  const errors: FieldErrors<RegisterField> = {};
  const username = form.username.trim();
  if (!username) errors.username = 'Username is required';
  else if (username.length < USERNAME_MIN || username.length > REGISTER_USERNAME_MAX)
    errors.username = `Username must be between ${USERNAME_MIN} and ${REGISTER_USERNAME_MAX} characters`;

  const email = form.email.trim();
  if (!email) errors.email = 'Email is required';
  else if (!isEmail(email)) errors.email = 'Please enter a valid email address';

  if (form.password.length < PASSWORD_MIN_CHARS)
    errors.password = `Password must be at least ${PASSWORD_MIN_CHARS} characters`;
  else if (utf8ByteLength(form.password) > PASSWORD_MAX_BYTES)
    errors.password = `Password must be at most ${PASSWORD_MAX_BYTES} bytes`;

  if (form.password !== form.confirmPassword) errors.confirmPassword = MSG_PASSWORDS_DO_NOT_MATCH;
  return errors;
}
