import {
  adminLookupSchema,
  makeAdminResultSchema,
  pageQuerySchema,
  profileUpdateSchema,
  successSchema,
  tokenResponseSchema,
} from '@motoparts/contracts';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps';
import { adminOnly, assertSelf, assertSelfOrAdmin, callerOf, firebaseBearer, signedIn } from '../http/auth';
import type { ApiRoutes } from '../http/openapi';
import { rateLimited } from '../http/rate-limit';
import { validate, type Input } from '../http/validate';
import { pageHeaders } from '../lib/paging';
import * as users from './service';
import { emailParams, updatedProfileSchema, UserSchema } from './validators';

export function userRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, limits, userLookup, claimOrders } = deps;
  const auth = signedIn(deps);
  const admin = adminOnly(deps);
  const section = routes.section('users');

  // Token exchange: the bearer here is a Firebase ID token, not ours. A body (older clients send
  // `{email}`) is ignored: identity and role come only from the verified token, the Firebase
  // account and the database.
  section.put(
    '/user/:email',
    {
      operationId: 'exchangeToken',
      summary: 'Exchange a Firebase ID token for an API token',
      description:
        'The token must belong to the Firebase account of this email, and be issued after the account’s last sign-out (401 otherwise). Emails in ADMIN_EMAILS become admins here.',
      ok: { description: 'Our API token and whether the account is an admin.', body: tokenResponseSchema },
      errors: [403],
    },
    rateLimited(limits, 'exchangeIp', (_state, client) => client),
    firebaseBearer,
    validate({ params: emailParams }),
    async (ctx) => {
      const { idToken = '', log } = ctx.state;
      ctx.body = await users.exchangeToken(
        env,
        log,
        userLookup,
        idToken,
        ctx.state.input.params.email,
        (uid) => limits.consume('exchangeUser', uid),
        claimOrders,
      );
    },
  );

  // Sign-out: every API token of the account stops working, not only the one in this browser (a
  // copied token dies with it), and so does every Firebase ID token issued before it. Another
  // device's own Firebase session is not revoked: it signs in again, or renews with an ID token
  // its Firebase session issues after the sign-out.
  section.delete(
    '/session',
    {
      operationId: 'signOut',
      summary: 'Sign out: end every API token and Firebase ID token of this account issued so far',
      description:
        'Answers once the second of the sign-out is over, so a sign-in made after the answer is accepted.',
      ok: { description: 'Signed out.', body: successSchema },
    },
    auth,
    async (ctx) => {
      await users.endSessions(callerOf(ctx.state).uid);
      ctx.body = { success: true };
    },
  );

  section.get(
    '/user/:email',
    {
      operationId: 'getUser',
      summary: "An account's record",
      description: 'Your own, or anyone’s for an admin.',
      ok: { description: 'The record.', body: UserSchema },
      errors: [403, 404],
    },
    auth,
    validate({ params: emailParams }),
    async (ctx) => {
      const { email } = ctx.state.input.params;
      const caller = callerOf(ctx.state);
      assertSelfOrAdmin(caller, email);
      ctx.body = await users.getUser(userLookup, caller, email);
    },
  );

  // Whose data it is is checked before the body: someone else's address is a 403 whatever is sent.
  section.put<{ input: Input<{ params: typeof emailParams; body: typeof profileUpdateSchema }> }>(
    '/userInfo/:email',
    {
      operationId: 'updateProfile',
      summary: 'Update your own profile',
      description: 'Fields not sent are left unchanged.',
      ok: { description: 'The updated record.', body: updatedProfileSchema },
      errors: [403, 404],
    },
    auth,
    validate({ params: emailParams }),
    async (ctx, next) => {
      assertSelf(callerOf(ctx.state), ctx.state.input.params.email);
      await next();
    },
    validate({ body: profileUpdateSchema }),
    async (ctx) => {
      const user = await users.updateProfile(callerOf(ctx.state).uid, ctx.state.input.body);
      ctx.body = { success: true, user };
    },
  );

  section.get(
    '/user',
    {
      operationId: 'listUsers',
      summary: 'Every current account, by email',
      ok: { description: 'The page.', body: z.array(UserSchema), headers: ['X-Total-Count', 'Link'] },
    },
    admin,
    validate({ query: pageQuerySchema }),
    async (ctx) => {
      const { page, limit } = ctx.state.input.query;
      const { items, total } = await users.listUsers(userLookup, page, limit);
      ctx.set(pageHeaders(ctx.path, ctx.state.input.query, total));
      ctx.body = items;
    },
  );

  section.put(
    '/user/admin/:email',
    {
      operationId: 'makeAdmin',
      summary: 'Make an account an admin',
      ok: { description: 'How many records changed (0: already an admin).', body: makeAdminResultSchema },
      errors: [404],
    },
    admin,
    validate({ params: emailParams }),
    async (ctx) => {
      ctx.body = await users.makeAdmin(userLookup, ctx.state.input.params.email);
    },
  );

  section.delete(
    '/user/admin/:email',
    {
      operationId: 'removeAdmin',
      summary: "Take an account's admin role",
      description:
        'Never your own (409) and never the last admin’s (409); an address in ADMIN_EMAILS is refused (409), as its next sign-in would give the role back.',
      ok: { description: 'How many records changed (0: not an admin).', body: makeAdminResultSchema },
      errors: [404, 409],
    },
    admin,
    validate({ params: emailParams }),
    async (ctx) => {
      const { email } = ctx.state.input.params;
      ctx.body = await users.removeAdmin(env, userLookup, callerOf(ctx.state), email);
    },
  );

  for (const [method, disabled] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    section[method](
      '/user/disabled/:email',
      {
        operationId: disabled ? 'disableUser' : 'enableUser',
        summary: disabled ? 'Disable an account' : 'Enable a disabled account',
        description: disabled
          ? 'Its API tokens stop at their next request, its sessions end and Firebase disables it, so it cannot sign in. Never your own account, never an admin’s (409: remove the role first).'
          : 'Firebase enables it again; it signs in anew (its old sessions stay ended).',
        ok: { description: 'The account as it is now.', body: UserSchema },
        errors: [404, 409],
      },
      admin,
      validate({ params: emailParams }),
      async (ctx) => {
        const { email } = ctx.state.input.params;
        ctx.body = await users.setDisabled(env, userLookup, callerOf(ctx.state), email, disabled);
      },
    );
  }

  section.delete(
    '/session/:email',
    {
      operationId: 'endSessions',
      summary: "End an account's sessions on every device",
      description:
        'The sign-out of DELETE /session for this account, and Firebase revokes its refresh tokens: every device signs in again. 404 for an address no account has signed in with.',
      ok: { description: 'The sessions are ended.', body: successSchema },
      errors: [404],
    },
    admin,
    validate({ params: emailParams }),
    async (ctx) => {
      await users.endSessionsOf(env, userLookup, ctx.state.input.params.email);
      ctx.body = { success: true };
    },
  );

  section.get(
    '/admin/:email',
    {
      operationId: 'isAdmin',
      summary: 'Whether an account is an admin',
      description: 'Your own, or anyone’s for an admin.',
      ok: { description: 'The admin flag.', body: adminLookupSchema },
      errors: [403],
    },
    auth,
    validate({ params: emailParams }),
    async (ctx) => {
      const { email } = ctx.state.input.params;
      const caller = callerOf(ctx.state);
      assertSelfOrAdmin(caller, email);
      ctx.body = { admin: email === caller.email ? caller.admin : await users.isAdmin(userLookup, email) };
    },
  );
}
