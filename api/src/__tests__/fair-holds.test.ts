import type { ApiError } from '@motoparts/contracts';
import { holdExtended, orderRules } from '../orders/rules';
import { account, signIn, uniqueEmail, verifyEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

// Fair holds: an account whose email Firebase has not verified holds one unpaid order or checkout
// at a time (a throwaway address cannot empty the catalogue); verifying it, through the emulator's
// out-of-band code, lifts it to the cap every customer has. A hold is kept past its time only
// while Stripe reports its payment under way, up to the maximum hold.

let t: TestApp;
let part: string;

beforeAll(async () => {
  t = await startTestApp('fair_holds', {
    MAX_OPEN_ORDERS: '3',
    MAX_UNVERIFIED_OPEN_ORDERS: '1',
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_CHECKOUT: '0/60',
  });
  part = await insertPart({ availableQty: 100_000 });
});
afterAll(() => t.close());

const order = (who: Account) =>
  call<ApiError>(t.base, 'POST', '/order', { token: who.token, body: { partsId: part, qty: 100 } });

it('an unverified account holds one unpaid order or checkout; verifying the address lifts it to the cap', async () => {
  const email = uniqueEmail('unverified');
  const who = await account(t.base, email);
  expect((await order(who)).status).toBe(201);
  const second = await order(who);
  expect(second.status).toBe(409);
  expect(second.body.error.message).toMatch(/not verified yet, so you can hold one unpaid order or checkout/);
  expect(second.body.error.details).toEqual({ maxOpenOrders: 1, emailVerified: false });
  // A checkout is a hold too.
  await call(t.base, 'PUT', `/cart/lines/${part}`, { token: who.token, body: { qty: 100 } });
  const checkout = await call<ApiError>(t.base, 'POST', '/checkout', {
    token: who.token,
    body: { address: '1 Verify Lane', phone: '+1 555 0199' },
  });
  expect(checkout.status).toBe(409);

  // The owner verifies the address and signs in again: the account now has the usual cap.
  await verifyEmail(who.idToken, email);
  const idToken = await signIn(email, 'secret-pass-1');
  const again = await call<{ token: string }>(t.base, 'PUT', `/user/${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  expect(again.status).toBe(200);
  const verified = { ...who, token: again.body.token };
  expect((await order(verified)).status).toBe(201);
  expect(
    (
      await call(t.base, 'POST', '/checkout', {
        token: verified.token,
        body: { address: '1 Verify Lane', phone: '+1 555 0199' },
      })
    ).status,
  ).toBe(201);
  const fourth = await order(verified);
  expect(fourth.status).toBe(409);
  expect(fourth.body.error.details).toEqual({ maxOpenOrders: 3 });
});

it('a hold is kept past its time only while its payment is under way, and never past the maximum', () => {
  const rules = orderRules({ ORDER_HOLD_MINUTES: 15, MAX_OPEN_ORDERS: 5, ORDER_HOLD_MAX_MINUTES: 60 });
  const placed = Date.now() - 20 * 60_000;
  expect(holdExtended('processing', placed, rules)).toBe(true);
  expect(holdExtended('requires_action', placed, rules)).toBe(true);
  expect(holdExtended('requires_payment_method', placed, rules)).toBe(false);
  expect(holdExtended(undefined, placed, rules)).toBe(false);
  expect(holdExtended('processing', Date.now() - 61 * 60_000, rules)).toBe(false);
});
