import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARS } from '@/lib/limits';
import { utf8ByteLength } from '@/lib/validation';
import { MSG_RESET_FAILED, useResetPassword } from '../api/reset-password';
import { MSG_PASSWORDS_DO_NOT_MATCH } from '../validation';
import './auth.css';

export const MSG_PASSWORD_RESET = 'Your password was changed. Please log in.';

type Errors = { password?: string; confirmPassword?: string };

function validate(password: string, confirm: string): Errors {
  const errors: Errors = {};
  if (password.length < PASSWORD_MIN_CHARS) errors.password = `Password must be at least ${PASSWORD_MIN_CHARS} characters`;
  else if (utf8ByteLength(password) > PASSWORD_MAX_BYTES) errors.password = `Password must be at most ${PASSWORD_MAX_BYTES} bytes`;
  if (password !== confirm) errors.confirmPassword = MSG_PASSWORDS_DO_NOT_MATCH;
  return errors;
}

/** /reset/:token: a password reset link an administrator made; the new password twice, then sign in. */
export function ResetPasswordPage({ token }: { token: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (reset.isPending) return;
    const found = validate(password, confirm);
    setErrors(found);
    if (found.password || found.confirmPassword) return;
    reset.mutate(
      { token, password },
      {
        onSuccess: () => {
          toast.success(MSG_PASSWORD_RESET);
          void navigate(paths.login);
        },
      },
    );
  };

  return (
    <section className="auth-card" aria-labelledby="reset-title">
      <h1 id="reset-title" className="auth-card__title">
        Set a New Password
      </h1>
      <p className="auth-card__lead">Choose a new password for your gifshelf account.</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="New Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_CHARS}
          help={`At least ${PASSWORD_MIN_CHARS} characters`}
          value={password}
          onValueChange={(v) => {
            setPassword(v);
            setErrors((e) => ({ ...e, password: undefined }));
          }}
          error={errors.password}
        />
        <TextField
          label="Confirm New Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onValueChange={(v) => {
            setConfirm(v);
            setErrors((e) => ({ ...e, confirmPassword: undefined }));
          }}
          error={errors.confirmPassword}
        />
        {reset.isError && <FormMessage kind="error">{errorMessage(reset.error, MSG_RESET_FAILED)}</FormMessage>}
        <button type="submit" className="btn btn--primary btn--block" disabled={reset.isPending}>
          {reset.isPending ? 'Saving…' : 'Set Password'}
        </button>
      </form>
      <p className="auth-card__switch">
        Remembered it? <Link to={paths.login}>Login</Link>
      </p>
    </section>
  );
}
