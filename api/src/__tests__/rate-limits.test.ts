import mongoose from 'mongoose';
import type { ApiError } from '@motoparts/contracts';
import { AppError } from '../lib/app-error';
import { createRateLimits } from '../lib/rate-limits';
import { account, signIn, uniqueEmail } from './support/auth';
import { call, insertPart, startTestApp, type Res, type TestApp } from './support/harness';

// Abuse limits: over budget → 429, the usual error shape and a Retry-After in seconds. Budgets
// are made small here through the same RATE_LIMIT_* switches an operator has.

let t: TestApp;
let partId: string;
const adminEmail = uniqueEmail('rladmin');
const SERVICE_TOKEN = 'shop-server-token-0123456789-abcdefghij';

beforeAll(async () => {
  t = await startTestApp('rate_limits', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_EXCHANGE_USER: '3/60',
    RATE_LIMIT_ORDER: '2/60',
    RATE_LIMIT_REVIEW: '2/3600',
    RATE_LIMIT_LISTING: '40/60',
    RATE_LIMIT_LISTING_ACCOUNT: '30/60',
    RATE_LIMIT_STRIPE: '3/60',
    SERVICE_TOKEN: SERVICE_TOKEN,
  });
  partId = await insertPart({ availableQty: 1_000_000 });
});
afterAll(() => t.close());

function expectLimited(res: Res, maxSeconds: number): void {
  expect(res.status).toBe(429);
  expect((res.body as ApiError).error.code).toBe('TOO_MANY_REQUESTS');
  expect((res.body as ApiError).error.message).toMatch(/try again in \d+ s/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

it('token exchange: the fourth in a minute for one account is refused, another account is not', async () => {
  const who = await account(t.base, uniqueEmail('eager')); // exchange 1
  const path = `/user/${encodeURIComponent(who.email)}`;
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await call(t.base, 'PUT', path, { token: who.idToken })).status);
  expect(statuses).toEqual([200, 200, 429]);
  expectLimited(await call(t.base, 'PUT', path, { token: who.idToken }), 60);
  await account(t.base, uniqueEmail('calm'));
  // The refused exchanges did not sign anyone in, and a fresh ID token changes nothing.
  expectLimited(await call(t.base, 'PUT', path, { token: await signIn(who.email, 'secret-pass-1') }), 60);
});

it('parallel exchanges from one account: exactly the budget succeeds', async () => {
  const who = await account(t.base, uniqueEmail('burst')); // 1 of 3
  const path = `/user/${encodeURIComponent(who.email)}`;
  const results = await Promise.all(
    Array.from({ length: 10 }, () => call(t.base, 'PUT', path, { token: who.idToken })),
  );
  expect(results.filter((r) => r.status === 200)).toHaveLength(2);
  expect(results.filter((r) => r.status === 429)).toHaveLength(8);
});

it('order placement and review posting are limited per account', async () => {
  const who = await account(t.base, uniqueEmail('buyer'));
  const order = () =>
    call(t.base, 'POST', '/order', { token: who.token, body: { partsId: partId, qty: 100 } });
  expect([(await order()).status, (await order()).status]).toEqual([201, 201]);
  expectLimited(await order(), 60);
  // Invalid input does not use the budget, and is still told what is wrong.
  expect((await call(t.base, 'POST', '/order', { token: who.token, body: { partsId: partId } })).status).toBe(
    400,
  );

  const review = () =>
    call(t.base, 'POST', '/review', {
      token: who.token,
      body: { img: '/images/reviewers/1.svg', review: 'Again and again.', rating: 4 },
    });
  expect([(await review()).status, (await review()).status]).toEqual([201, 201]);
  expectLimited(await review(), 3600);
  const other = await account(t.base, uniqueEmail('neighbour'));
  expect(
    (await call(t.base, 'POST', '/order', { token: other.token, body: { partsId: partId, qty: 100 } }))
      .status,
  ).toBe(201);
});

it('anonymous list paging is limited per client address', async () => {
  const results: Res[] = [];
  for (let i = 1; i <= 45; i++) {
    results.push(await call(t.base, 'GET', i % 2 ? `/review?page=${i}` : `/parts?page=${i}&limit=5`, {}));
  }
  const firstRefused = results.findIndex((r) => r.status === 429);
  expect(firstRefused).toBeGreaterThan(0);
  expect(results.slice(0, firstRefused).every((r) => r.status === 200)).toBe(true);
  const refused = results[firstRefused];
  if (!refused) throw new Error('unreachable');
  expectLimited(refused, 60);
});

it('signed-in callers page the lists on their account’s budget, not their address’s', async () => {
  // The anonymous listing budget of this address is spent by the test above.
  expect((await call(t.base, 'GET', '/parts?limit=5', {})).status).toBe(429);
  const admin = await account(t.base, adminEmail);
  const asAdmin = { headers: { authorization: `Bearer ${admin.token}` } };
  // Cached answers (sent before the router) and the routes themselves count alike.
  const statuses = [];
  for (const path of ['/parts?limit=5', '/parts?limit=5', '/review?page=1', '/parts?limit=7&page=3']) {
    statuses.push((await call(t.base, 'GET', path, asAdmin)).status);
  }
  expect(statuses).toEqual([200, 200, 200, 200]);
  // A token that is not ours, or not valid, counts as anonymous.
  const forged = `${admin.token.slice(0, -4)}AAAA`;
  for (const authorization of [`Bearer ${forged}`, 'Bearer not-a-token', `Bearer ${admin.idToken}`]) {
    expect((await call(t.base, 'GET', '/parts?limit=5', { headers: { authorization } })).status).toBe(429);
  }
  // The account's own budget is limited too, and per account.
  let refused: Res | undefined;
  for (let i = 0; i < 40 && !refused; i++) {
    const res = await call(t.base, 'GET', `/parts?limit=5&page=${(i % 3) + 1}`, asAdmin);
    if (res.status !== 200) refused = res;
  }
  if (!refused) throw new Error('the account budget was never reached');
  expectLimited(refused, 60);
  const other = await account(t.base, uniqueEmail('reader'));
  const res = await call(t.base, 'GET', '/parts?limit=5', {
    headers: { authorization: `Bearer ${other.token}` },
  });
  expect(res.status).toBe(200);
});

it('the shop’s own servers are recognised by their service token and not limited as anonymous', async () => {
  const asShop = { headers: { 'x-service-token': SERVICE_TOKEN } };
  for (let i = 0; i < 50; i++) {
    expect((await call(t.base, 'GET', `/parts?limit=5&page=${(i % 3) + 1}`, asShop)).status).toBe(200);
  }
  const wrong = { headers: { 'x-service-token': SERVICE_TOKEN.replace(/.$/, '!') } };
  expect((await call(t.base, 'GET', '/parts?limit=5', wrong)).status).toBe(429);
});

it('routes that call Stripe are limited per customer', async () => {
  const buyer = await account(t.base, uniqueEmail('payer'));
  const placed = await call<{ _id: string }>(t.base, 'POST', '/order', {
    token: buyer.token,
    body: { partsId: partId, qty: 100 },
  });
  expect(placed.status).toBe(201);
  const orderId = placed.body._id;
  const intent = () =>
    call(t.base, 'POST', '/create-payment-intent', { token: buyer.token, body: { orderId } });
  const claim = () =>
    call(t.base, 'PATCH', `/order/${orderId}`, { token: buyer.token, body: { transactionId: 'pi_x' } });
  // One budget for every Stripe-calling route: intents, claims and cancellations together.
  expect([(await intent()).status, (await intent()).status, (await claim()).status]).toEqual([200, 200, 409]);
  expectLimited(await intent(), 60);
  expectLimited(await claim(), 60);
  expectLimited(await call(t.base, 'DELETE', `/order/${orderId}`, { token: buyer.token }), 60);
  // The refused cancellation changed nothing: the order is still there, unpaid.
  const order = await call<{ paid: boolean }>(t.base, 'GET', `/order/${orderId}`, { token: buyer.token });
  expect(order.status).toBe(200);
  expect(order.body.paid).toBe(false);
  // Another customer's payments are not held up.
  const other = await account(t.base, uniqueEmail('payer2'));
  const theirs = await call<{ _id: string }>(t.base, 'POST', '/order', {
    token: other.token,
    body: { partsId: partId, qty: 100 },
  });
  expect(
    (
      await call(t.base, 'POST', '/create-payment-intent', {
        token: other.token,
        body: { orderId: theirs.body._id },
      })
    ).status,
  ).toBe(200);
});

it('with the MongoDB store, API processes share one budget per key', async () => {
  // Two limit sets on the same database behave as two API processes would.
  const env = { ...t.env, RATE_LIMIT_STORE: 'mongo' as const };
  env.RATE_LIMITS = { ...env.RATE_LIMITS, review: { points: 3, seconds: 60 } };
  const a = createRateLimits(env);
  const b = createRateLimits(env);
  const key = `shared-${Date.now()}`;
  await a.consume('review', key);
  await b.consume('review', key);
  await a.consume('review', key);
  const refused = await b.consume('review', key).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(AppError);
  expect((refused as AppError).status).toBe(429);
  expect((refused as AppError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  // The counter is in the database, not in either process.
  expect(
    await mongoose.connection.collection('rate_limits').countDocuments({ key: `rl_review:${key}` }),
  ).toBe(1);
  await expect(a.consume('review', `${key}-other`)).resolves.toBeUndefined();
});

it('without a declared proxy, X-Forwarded-For buys no fresh budget', async () => {
  // The listing budget of this address is spent by the paging test above.
  for (let i = 0; i < 5; i++) {
    const res = await call(t.base, 'GET', `/review?page=${i + 1}`, {
      headers: { 'x-forwarded-for': `203.0.113.${i}` },
    });
    expect(res.status).toBe(429);
  }
});
