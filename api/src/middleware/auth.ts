import type { Middleware } from 'koa';
import type { AppState, Caller } from '../context';
import type { Env } from '../env';
import { AppError } from '../errors';
import { bearer, verifyApiToken } from '../lib/tokens';
import { isAdmin } from '../services/users';

/** Requires our API token; sets ctx.state.caller. */
export function signedIn(env: Env): Middleware<AppState> {
  return async (ctx, next) => {
    const token = bearer(ctx.get('authorization'));
    if (!token) throw AppError.unauthenticated();
    ctx.state.caller = verifyApiToken(env, token);
    await next();
  };
}

/** Requires an API token whose user is an admin in the database right now. */
export function adminOnly(env: Env): Middleware<AppState> {
  const auth = signedIn(env);
  return (ctx, next) =>
    auth(ctx, async () => {
      if (!(await isAdmin(callerOf(ctx.state).email))) throw AppError.forbidden('Only admins may do this.');
      await next();
    });
}

export function callerOf(state: AppState): Caller {
  if (!state.caller) throw AppError.unauthenticated();
  return state.caller;
}

/** Self, or an admin (for reads of other users' data). */
export async function assertSelfOrAdmin(caller: Caller, email: string): Promise<void> {
  if (caller.email === email) return;
  if (await isAdmin(caller.email)) return;
  throw AppError.forbidden('You can only access your own data.');
}

export function assertSelf(caller: Caller, email: string): void {
  if (caller.email !== email) throw AppError.forbidden('You can only change your own data.');
}
