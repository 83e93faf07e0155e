import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { selectAuthStatus, useAppSelector } from '@motoparts/state';
import { ensureAuthStyles } from '../../../styles';
import { AuthStatus } from '../components/auth-status';
import { OrGoogle } from '../components/google-button';
import { CredentialFields, TextField } from '../components/text-field';
import type { SignupFormValues } from '../schema';
import { loadSignIn, signInIntent, signupResolver } from '../load-sign-in';
import { useAuthAction, useReturnTo } from '../use-auth-action';

ensureAuthStyles();

export default function SignupPage() {
  const id = useId();
  const status = useAppSelector(selectAuthStatus);
  const location = useLocation();
  const back = useReturnTo();
  const { busy, error, run } = useAuthAction();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupFormValues>({
    resolver: signupResolver,
    defaultValues: { name: '', email: '', password: '' },
  });

  const onSubmit = handleSubmit(({ name, email, password }) =>
    run(async (dispatch) => (await loadSignIn()).signUpWithPassword(dispatch, name, email, password)),
  );

  // Only while idle: during sign-up the action itself navigates once the session is stored.
  if (status === 'signedIn' && !busy) return <Navigate to={back.path} replace state={back.state} />;

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="signup-heading">
        <h1 id="signup-heading">Sign Up</h1>
        <p className="auth-lead">Create an account to order parts in bulk and pay by card.</p>
        <form onSubmit={(e) => void onSubmit(e)} {...signInIntent} noValidate aria-busy={busy}>
          <TextField
            id={`${id}-name`}
            label="Name"
            type="text"
            autoComplete="name"
            registration={register('name')}
            error={errors.name}
          />
          <CredentialFields
            id={id}
            email={{ registration: register('email'), error: errors.email }}
            password={{ registration: register('password'), error: errors.password }}
            newPassword
          />
          <AuthStatus busy={busy} error={error} />
          <button type="submit" className="btn auth-submit" disabled={busy}>
            Sign Up
          </button>
        </form>
        <OrGoogle
          disabled={busy}
          onClick={() => void run(async (dispatch) => (await loadSignIn()).signInWithGoogle(dispatch))}
        />
        <p className="auth-switch">
          Already have an account?{' '}
          <Link to="/login" state={location.state}>
            Login
          </Link>
        </p>
      </section>
    </div>
  );
}
