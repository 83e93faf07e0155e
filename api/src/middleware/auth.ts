import type { Middleware } from 'koa';
import type { AppState, Caller } from '../context';
import type { Env } from '../env';
import { AppError } from '../errors';
import { bearer, verifyApiToken } from '../lib/tokens';
import { loadCaller } from '../services/users';

/**
 * Requires our API token and an account that still accepts it; sets ctx.state.caller from the
 * database (one exact `_id` read), so a sign-out or a role change counts from the next request.
 */
export function signedIn(env: Env): Middleware<AppState> {
  return async (ctx, next) => {
    const token = bearer(ctx.get('authorization'));
    if (!token) throw AppError.unauthenticated();
    const { uid, epoch } = verifyApiToken(env, token);
    const caller = await loadCaller(uid);
    if (!caller) throw AppError.unauthenticated('This account no longer exists; sign in again.');
    if (caller.sessionEpoch !== epoch) throw AppError.unauthenticated('You signed out; sign in again.');
    ctx.state.caller = { uid: caller.uid, email: caller.email, name: caller.name, admin: caller.admin };
    await next();
  };
}

/** Requires an API token whose account is an admin in the database right now. */
export function adminOnly(env: Env): Middleware<AppState> {
  const auth = signedIn(env);
  return (ctx, next) =>
    auth(ctx, async () => {
      if (!callerOf(ctx.state).admin) throw AppError.forbidden('Only admins may do this.');
      await next();
    });
}

export function callerOf(state: AppState): Caller {
  if (!state.caller) throw AppError.unauthenticated();
  return state.caller;
}

/** Self (the account holding this email now), or an admin (for reads of other users' data). */
export function assertSelfOrAdmin(caller: Caller, email: string): void {
  if (caller.email === email || caller.admin) return;
  throw AppError.forbidden('You can only access your own data.');
}

export function assertSelf(caller: Caller, email: string): void {
  if (caller.email !== email) throw AppError.forbidden('You can only change your own data.');
}
