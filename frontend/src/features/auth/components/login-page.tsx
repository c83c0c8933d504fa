import { useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { errorMessage } from '@/lib/api-client';
import { usePublicConfig } from '@/lib/public-config';
import { useLogin } from '../api/login';
import { useGoogleSignIn } from '../google';
import './auth.css';

export function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  const config = usePublicConfig();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const googleClientId = config.data?.googleClientId ?? null;
  const goHome = useCallback(() => {
    void navigate(paths.home, { replace: true });
  }, [navigate]);
  const google = useGoogleSignIn(googleClientId, goHome);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (login.isPending) return;
    login.mutate(
      { username: username.trim(), password },
      { onSuccess: goHome },
    );
  };

  return (
    <section className="auth-card" aria-labelledby="login-title">
      <h1 id="login-title" className="auth-card__title">
        Login
      </h1>
      <p className="auth-card__lead">Sign in to your gifshelf.</p>
      <form className="form" onSubmit={onSubmit}>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          // eslint-disable-next-line jsx-a11y/no-autofocus -- signing in is the page's one task
          autoFocus
          value={username}
          onValueChange={setUsername}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
        />
        {login.isError && (
          <FormMessage kind="error">{errorMessage(login.error, 'Login failed')}</FormMessage>
        )}
        <button type="submit" className="btn btn--primary btn--block" disabled={login.isPending}>
          {login.isPending ? 'Logging in…' : 'Login'}
        </button>
      </form>
      {googleClientId && <GoogleSignIn google={google} />}
      <p className="auth-card__switch">
        No account yet? <Link to={paths.register}>Register</Link>
      </p>
    </section>
  );
}

/** "or" and the Continue with Google button, with the place Google's own button falls back to. */
export function GoogleSignIn({ google }: { google: ReturnType<typeof useGoogleSignIn> }) {
  return (
    <>
      <div className="auth-card__divider" role="presentation">
        <span>or</span>
      </div>
      <button
        type="button"
        className="btn btn--secondary btn--block"
        onClick={() => void google.start()}
        disabled={google.pending}
        aria-busy={google.pending}
      >
        <span className="google-mark" aria-hidden="true">
          G
        </span>
        Continue with Google
      </button>
      <div
        ref={google.fallbackRef}
        className="auth-card__google-fallback"
        hidden={!google.fallbackShown}
        data-testid="google-fallback"
      />
    </>
  );
}
