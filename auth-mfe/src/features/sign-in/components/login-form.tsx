import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ensureAuthStyles } from '../../../styles';
import { loginFormSchema, type LoginFormValues } from '../schema';
import { signInWithGoogle, signInWithPassword } from '../sign-in';
import { useAuthAction } from '../use-auth-action';
import { AuthStatus } from './auth-status';
import { OrGoogle } from './google-button';
import { TextField } from './text-field';

ensureAuthStyles();

/** Email and password login plus Google: used by the login page and the home page's card. */
export function LoginForm() {
  const id = useId();
  const { busy, error, run } = useAuthAction();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(({ email, password }) =>
    run((dispatch) => signInWithPassword(dispatch, email, password)),
  );

  return (
    <>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
        <TextField
          id={`${id}-email`}
          label="Email"
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email}
        />
        <TextField
          id={`${id}-password`}
          label="Password"
          type="password"
          autoComplete="current-password"
          registration={register('password')}
          error={errors.password}
        />
        <AuthStatus busy={busy} error={error} />
        <button type="submit" className="btn auth-submit" disabled={busy}>
          Login
        </button>
      </form>
      <OrGoogle disabled={busy} onClick={() => void run(signInWithGoogle)} />
    </>
  );
}
