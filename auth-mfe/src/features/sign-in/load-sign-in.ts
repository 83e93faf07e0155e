import type { FieldValues, Resolver } from 'react-hook-form';
import type * as SignInModule from './sign-in';
import type * as ValidationModule from './validation';
import type { LoginFormValues, SignupFormValues } from './schema';

/** `load`, asked for once; a load that failed is asked for again next time. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}

/**
 * The sign-in actions with Firebase Auth under them, and the forms' validation with zod: the
 * largest part of the sign-in pages' code (≈ 500 KB of the 600 KB the login page ran before it
 * answered), which their first view, an empty form, does not run. Each is asked for when the
 * visitor starts on a form (preloadSignIn: focus, a pointer over it, a touch) and awaited by
 * whatever needs it first, so compiling them does not hold up the page's start.
 */
export const loadSignIn: () => Promise<typeof SignInModule> = once(() => import('./sign-in'));
const loadValidation: () => Promise<typeof ValidationModule> = once(() => import('./validation'));

/** A resolver that loads the real one (and zod) when a form is first validated. */
function lazyResolver<T extends FieldValues>(pick: (m: typeof ValidationModule) => Resolver<T>): Resolver<T> {
  return async (values, context, options) => pick(await loadValidation())(values, context, options);
}

export const loginResolver = lazyResolver<LoginFormValues>((m) => m.loginResolver);
export const signupResolver = lazyResolver<SignupFormValues>((m) => m.signupResolver);

/** Starts loading both; for the intent events of a form. */
export function preloadSignIn(): void {
  // Whatever needs them reports a failed load.
  loadValidation().catch(() => undefined);
  loadSignIn().catch(() => undefined);
}

/** What an element listens to for the visitor starting on a sign-in form: each starts loading. */
export const signInIntent = {
  onFocus: preloadSignIn,
  onPointerEnter: preloadSignIn,
  onTouchStart: preloadSignIn,
} as const;
