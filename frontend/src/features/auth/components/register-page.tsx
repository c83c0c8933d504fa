import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_MIN_CHARS, REGISTER_USERNAME_MAX, USERNAME_MIN } from '@/lib/limits';
import { usePublicConfig } from '@/lib/public-config';
import { useGoogleSignIn } from '../google';
import { useRegisterForm } from '../hooks/use-register-form';
import { GoogleSignIn } from './login-page';
import './auth.css';

/**
 * Registration. With `invite` (the token of a /join link) the form and "Continue with Google" carry
 * the invitation; without one, a server that needs an invitation or is closed says so instead of
 * showing the form.
 */
export function RegisterPage({ invite }: { invite?: string }) {
  const { form, errors, set, onSubmit, register } = useRegisterForm(invite);
  const { google, googleClientId, mode } = useRegisterOptions(invite);
  const blocked = !invite && mode !== 'open';

  return (
    <section className="auth-card" aria-labelledby="register-title">
      <h1 id="register-title" className="auth-card__title">
        Create an Account
      </h1>
      <RegisterIntro invited={Boolean(invite)} blocked={blocked} mode={mode} />
      {!blocked && (
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          minLength={USERNAME_MIN}
          maxLength={REGISTER_USERNAME_MAX}
          help={`${USERNAME_MIN} to ${REGISTER_USERNAME_MAX} characters`}
          value={form.username}
          onValueChange={set('username')}
          error={errors.username}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onValueChange={set('email')}
          error={errors.email}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_CHARS}
          help={`At least ${PASSWORD_MIN_CHARS} characters`}
          value={form.password}
          onValueChange={set('password')}
          error={errors.password}
        />
        <TextField
          label="Confirm Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          value={form.confirmPassword}
          onValueChange={set('confirmPassword')}
          error={errors.confirmPassword}
        />
        {register.isError && (
          <FormMessage kind="error">
            {errorMessage(register.error, 'Registration failed')}
          </FormMessage>
        )}
        <button type="submit" className="btn btn--primary btn--block" disabled={register.isPending}>
          {register.isPending ? 'Creating account…' : 'Register'}
        </button>
      </form>
      )}
      {!blocked && googleClientId && <GoogleSignIn google={google} />}
      <p className="auth-card__switch">
        Already have an account? <Link to={paths.login}>Login</Link>
      </p>
    </section>
  );
}

/** The server's registration mode and "Continue with Google", carrying the invitation. */
function useRegisterOptions(invite: string | undefined) {
  const config = usePublicConfig();
  const navigate = useNavigate();
  const goHome = useCallback(() => {
    void navigate(paths.home, { replace: true });
  }, [navigate]);
  const googleClientId = config.data?.googleClientId ?? null;
  const google = useGoogleSignIn(googleClientId, goHome, invite);
  return { google, googleClientId, mode: config.data?.registration ?? 'open' };
}

/** The lead under the title, and why the form is hidden when registration needs an invitation. */
function RegisterIntro({ invited, blocked, mode }: { invited: boolean; blocked: boolean; mode: string }) {
  return (
    <>
      {invited ? (
        <p className="auth-card__lead">You were invited to join gifshelf. Create your account below.</p>
      ) : (
        <p className="auth-card__lead">Join gifshelf to upload, tag and share GIFs.</p>
      )}
      {blocked && (
        <FormMessage kind="error">
          {mode === 'closed'
            ? 'Registration is closed on this server. Ask an administrator for an invitation.'
            : 'You need an invitation to join this server. Open the invitation link you were sent.'}
        </FormMessage>
      )}
    </>
  );
}
