import { signUp, uniqueEmail } from './support/auth';
import { call, startTestApp, type TestApp } from './support/harness';

// Behind one declared proxy (TRUST_PROXY_HOPS=1), a client is the address that proxy saw: the
// last X-Forwarded-For entry. Whatever the client itself wrote before it buys no fresh budget.

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp('proxy_trust', {
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_LISTING: '3/60',
    RATE_LIMIT_EXCHANGE_IP: '2/60',
    RATE_LIMIT_EXCHANGE_USER: '100/60',
  });
});
afterAll(() => t.close());

const via = (forged: string, seenByProxy: string) => ({
  headers: { 'x-forwarded-for': `${forged}, ${seenByProxy}` },
});

it('list paging: forged leading entries share the budget of the address the proxy saw', async () => {
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push(
      (await call(t.base, 'GET', `/review?page=${i + 1}`, via(`203.0.113.${i}`, '198.51.100.1'))).status,
    );
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
  // Another client behind the same proxy has a budget of its own.
  expect((await call(t.base, 'GET', '/review?page=2', via('203.0.113.99', '198.51.100.2'))).status).toBe(200);
});

it('IPv6 clients are one client per /64: another address of the prefix buys no fresh budget', async () => {
  const statuses = [];
  for (const address of [
    '2001:db8:7:1::1',
    '2001:db8:7:1::2',
    '2001:db8:7:1:ffff:ffff:ffff:ffff',
    '2001:db8:7:1::3',
  ]) {
    statuses.push((await call(t.base, 'GET', '/review?page=1', via('203.0.113.5', address))).status);
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
  // The next /64 is another client; an IPv4-mapped address is its IPv4 address.
  expect((await call(t.base, 'GET', '/review?page=1', via('203.0.113.5', '2001:db8:7:2::1'))).status).toBe(
    200,
  );
  for (let i = 0; i < 3; i++) await call(t.base, 'GET', '/review?page=1', via('x', '198.51.100.77'));
  expect((await call(t.base, 'GET', '/review?page=1', via('x', '::ffff:198.51.100.77'))).status).toBe(429);
});

it('token exchange: limited per client address, whichever accounts it signs in', async () => {
  const exchange = async (label: string, forged?: string) => {
    const email = uniqueEmail(label);
    const idToken = await signUp(email);
    return call(t.base, 'PUT', `/user/${encodeURIComponent(email)}`, {
      headers: {
        authorization: `Bearer ${idToken}`,
        ...(forged ? via(forged, '198.51.100.7').headers : {}),
      },
    });
  };
  const statuses = [
    (await exchange('addr1', '10.9.9.1')).status,
    (await exchange('addr2', '10.9.9.2')).status,
  ];
  const third = await exchange('addr3', '10.9.9.3');
  expect(statuses).toEqual([200, 200]);
  expect(third.status).toBe(429);
  expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // The budget was the proxied client's, not the socket's: a request without the header is
  // counted by its own address and still goes through.
  expect((await exchange('addr4')).status).toBe(200);
});
