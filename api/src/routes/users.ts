import type Router from '@koa/router';
import { pageQuerySchema, profileUpdateSchema } from '@motoparts/contracts';
import type { AppState, RouteDeps } from '../context';
import { AppError } from '../errors';
import { setPageHeaders } from '../lib/paging';
import { bearer } from '../lib/tokens';
import { adminOnly, assertSelf, assertSelfOrAdmin, callerOf, signedIn } from '../middleware/auth';
import * as users from '../services/users';
import { emailParam, parseBody, parseQuery } from '../validate';

export function userRoutes(router: Router<AppState>, { env, limits }: RouteDeps): void {
  const auth = signedIn(env);
  const admin = adminOnly(env);

  // Token exchange: the bearer here is a Firebase ID token, not ours. The body (the spec sends
  // `{email}`) is ignored: identity and role come only from the verified token, the Firebase
  // account and the database.
  router.put('/user/:email', async (ctx) => {
    await limits.consume('exchangeIp', ctx.ip);
    const idToken = bearer(ctx.get('authorization'));
    if (!idToken) throw AppError.unauthenticated('Send the Firebase ID token as a bearer token.');
    const email = emailParam(ctx.params.email);
    ctx.body = await users.exchangeToken(env, ctx.state.log, idToken, email, (uid) =>
      limits.consume('exchangeUser', uid),
    );
  });

  // Sign-out: every API token of the account stops working, not only the one in this browser.
  router.delete('/session', auth, async (ctx) => {
    await users.endSessions(callerOf(ctx.state).uid);
    ctx.body = { success: true };
  });

  router.get('/user/:email', auth, async (ctx) => {
    const email = emailParam(ctx.params.email);
    const caller = callerOf(ctx.state);
    assertSelfOrAdmin(caller, email);
    ctx.body = await users.getUser(caller, email);
  });

  router.put('/userInfo/:email', auth, async (ctx) => {
    const email = emailParam(ctx.params.email);
    const caller = callerOf(ctx.state);
    assertSelf(caller, email);
    const user = await users.updateProfile(caller.uid, parseBody(profileUpdateSchema, ctx.state.body));
    ctx.body = { success: true, user };
  });

  router.get('/user', admin, async (ctx) => {
    const { page, limit } = parseQuery(pageQuerySchema, ctx.query);
    const { items, total } = await users.listUsers(page, limit);
    setPageHeaders(ctx, total, page, limit);
    ctx.body = items;
  });

  router.put('/user/admin/:email', admin, async (ctx) => {
    ctx.body = await users.makeAdmin(emailParam(ctx.params.email));
  });

  router.get('/admin/:email', auth, async (ctx) => {
    const email = emailParam(ctx.params.email);
    const caller = callerOf(ctx.state);
    assertSelfOrAdmin(caller, email);
    ctx.body = { admin: email === caller.email ? caller.admin : await users.isAdmin(email) };
  });
}
