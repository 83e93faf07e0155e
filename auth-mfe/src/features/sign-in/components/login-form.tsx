import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { ensureAuthStyles } from '../../../styles';
import type { LoginFormValues } from '../schema';
import { loadSignIn, loginResolver, signInIntent } from '../load-sign-in';
import { useAuthAction } from '../use-auth-action';
import { AuthStatus } from './auth-status';
import { OrGoogle } from './google-button';
import { CredentialFields } from './text-field';

ensureAuthStyles();

/**
 * docs/product.md, Login: what "Forgot password?" says once the mail is sent. Kept here, with the
 * one page that shows it, rather than in the contracts' texts, which every page's first load carries.
 */
export const PASSWORD_RESET_SENT =
  'Password reset email sent. Follow its link to choose a new password, then log in.';

/**
 * Email and password login plus Google: used by the login page and the home page's card. The
 * login page also offers "Forgot password?" (`passwordReset`), which mails a reset link to the
 * email typed, checked by the same rule as a sign-in.
 */
export function LoginForm({ passwordReset = false }: { passwordReset?: boolean }) {
  const id = useId();
  const { busy, error, notice, run, runHere } = useAuthAction();
  const {
    register,
    handleSubmit,
    trigger,
    getValues,
    formState: { errors },
  } = useForm<LoginFormValues>({
    resolver: loginResolver,
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(({ email, password }) =>
    run(async (dispatch) => (await loadSignIn()).signInWithPassword(dispatch, email, password)),
  );

  async function onForgotPassword() {
    // Only the email matters here; a wrong one gets its message and the focus.
    if (!(await trigger('email', { shouldFocus: true }))) return;
    const email = getValues('email');
    await runHere(async () => (await loadSignIn()).sendPasswordReset(email), PASSWORD_RESET_SENT);
  }

  return (
    <>
      <form onSubmit={(e) => void onSubmit(e)} {...signInIntent} noValidate aria-busy={busy}>
        <CredentialFields
          id={id}
          email={{ registration: register('email'), error: errors.email }}
          password={{ registration: register('password'), error: errors.password }}
        />
        {passwordReset && (
          <p className="auth-forgot">
            <button
              type="button"
              className="auth-link-button"
              disabled={busy}
              onClick={() => void onForgotPassword()}
            >
              Forgot password?
            </button>
          </p>
        )}
        <AuthStatus busy={busy} error={error} notice={notice} />
        <button type="submit" className="btn auth-submit" disabled={busy}>
          Login
        </button>
      </form>
      <OrGoogle
        disabled={busy}
        onClick={() => void run(async (dispatch) => (await loadSignIn()).signInWithGoogle(dispatch))}
      />
    </>
  );
}
