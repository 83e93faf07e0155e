import type { Middleware } from 'koa';
import { AppError } from '../lib/app-error';
import type { Env } from '../lib/env';
import { bearer, verifyApiToken } from '../lib/tokens';
import type { AppState, Caller } from './context';

/** Who a token's account is now, as the auth middleware needs it (users/callers.ts provides it). */
export interface Callers {
  load(uid: string): Promise<(Caller & { sessionEpoch: number; disabled: boolean }) | null>;
}

/** What the auth middleware needs: the token secret and where accounts are read. */
export interface AuthDeps {
  env: Env;
  callers: Callers;
}
import { documented } from './route-docs';

/**
 * Requires our API token and an account that still accepts it; sets ctx.state.caller from the
 * database (one exact `_id` read, kept a few seconds on the embedded database and dropped by any
 * write to the account: users/callers.ts), so a sign-out or a role change counts from the next
 * request.
 */
export function signedIn({ env, callers }: AuthDeps): Middleware<AppState> {
  return documented<Middleware<AppState>>(
    async (ctx, next) => {
      const token = bearer(ctx.get('authorization'));
      if (!token) throw AppError.unauthenticated();
      const { uid, epoch } = verifyApiToken(env, token);
      const caller = await callers.load(uid);
      if (!caller) throw AppError.unauthenticated('This account no longer exists; sign in again.');
      if (caller.disabled) throw AppError.unauthenticated('This account is disabled.');
      if (caller.sessionEpoch !== epoch) throw AppError.unauthenticated('You signed out; sign in again.');
      ctx.state.caller = {
        uid: caller.uid,
        email: caller.email,
        name: caller.name,
        admin: caller.admin,
        verified: caller.verified,
      };
      await next();
    },
    { security: 'apiToken', errors: [401] },
  );
}

/** Requires an API token whose account is an admin in the database right now. */
export function adminOnly(deps: AuthDeps): Middleware<AppState> {
  const auth = signedIn(deps);
  return documented<Middleware<AppState>>(
    (ctx, next) =>
      auth(ctx, async () => {
        if (!callerOf(ctx.state).admin) throw AppError.forbidden('Only admins may do this.');
        await next();
      }),
    { security: 'apiToken', adminOnly: true, errors: [401, 403] },
  );
}

/**
 * Requires a bearer token without checking it here: the token exchange verifies it as a
 * Firebase ID token (users/service.ts) and finds it in ctx.state.idToken.
 */
export const firebaseBearer = documented<Middleware<AppState>>(
  async (ctx, next) => {
    const idToken = bearer(ctx.get('authorization'));
    if (!idToken) throw AppError.unauthenticated('Send the Firebase ID token as a bearer token.');
    ctx.state.idToken = idToken;
    await next();
  },
  { security: 'firebaseIdToken', errors: [401] },
);

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
