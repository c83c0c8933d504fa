import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { FormMessage } from '@/components/form/form-message';
import { TextField } from '@/components/form/text-field';
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_MIN_CHARS, REGISTER_USERNAME_MAX, USERNAME_MIN } from '@/lib/limits';
import { useRegisterForm } from '../hooks/use-register-form';
import './auth.css';

export function RegisterPage() {
  const { form, errors, set, onSubmit, register } = useRegisterForm();

  return (
    <section className="auth-card" aria-labelledby="register-title">
      <h1 id="register-title" className="auth-card__title">
        Create an Account
      </h1>
      <p className="auth-card__lead">Join gifshelf to upload, tag and share GIFs.</p>
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
      <p className="auth-card__switch">
        Already have an account? <Link to={paths.login}>Login</Link>
      </p>
    </section>
  );
}
