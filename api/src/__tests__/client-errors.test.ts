import { ClientErrorModel } from '../client-errors/model';
import { cast, uniqueEmail, type Account } from './support/auth';
import { call, startTestApp, type TestApp } from './support/harness';

// The shell reports remotes that failed to load: anyone may report, each client address within
// its budget, the reports are kept as a bounded set of counters per remote version, and only
// admins read them. Behind one declared proxy, each test speaks from its own address.

const adminEmail = uniqueEmail('ceadmin');
let t: TestApp;
let people: { customer: Account; admin: Account };
beforeAll(async () => {
  t = await startTestApp('client_errors', {
    ADMIN_EMAILS: adminEmail,
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_CLIENT_ERRORS: '5/60',
    CLIENT_ERRORS_MAX: '3',
  });
  people = await cast(t.base, adminEmail);
});
afterAll(() => t.close());
beforeEach(() => ClientErrorModel.deleteMany({}));

const report = (over: Record<string, unknown> = {}) => ({
  remote: 'dashboard',
  version: '2.2.0',
  url: 'https://shop.example/admin/overview',
  message: 'Loading script failed',
  ...over,
});
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const post = (ip: string, body: unknown) =>
  call<{ error: { code: string; details?: { path: string }[] } }>(t.base, 'POST', '/client-errors', {
    body,
    headers: from(ip),
  });
const counts = async () => {
  const res = await call<{ remote: string; version: string; count: number; lastMessage: string }[]>(
    t.base,
    'GET',
    '/client-errors',
    { token: people.admin.token },
  );
  expect(res.status).toBe(200);
  return res.body.map(({ remote, version, count, lastMessage }) => ({ remote, version, count, lastMessage }));
};

it('counts anonymous reports per remote version; admins read the counts, others may not', async () => {
  expect((await post('198.51.100.1', report())).status).toBe(201);
  expect((await post('198.51.100.1', report({ message: 'again' }))).status).toBe(201);
  expect((await post('198.51.100.1', report({ version: '2.1.0' }))).status).toBe(201);
  expect((await post('198.51.100.1', report({ remote: 'auth', version: '1.0.0' }))).status).toBe(201);
  expect(await counts()).toEqual([
    { remote: 'auth', version: '1.0.0', count: 1, lastMessage: 'Loading script failed' },
    { remote: 'dashboard', version: '2.1.0', count: 1, lastMessage: 'Loading script failed' },
    { remote: 'dashboard', version: '2.2.0', count: 2, lastMessage: 'again' },
  ]);
  expect((await call(t.base, 'GET', '/client-errors')).status).toBe(401);
  expect((await call(t.base, 'GET', '/client-errors', { token: people.customer.token })).status).toBe(403);
});

it('refuses malformed reports with the field named, and stores nothing of them', async () => {
  const bad: [Record<string, unknown>, string][] = [
    [report({ remote: 'payments' }), 'remote'],
    [report({ version: '' }), 'version'],
    [report({ version: 'x'.repeat(65) }), 'version'],
    [report({ version: '1.0 <script>' }), 'version'],
    [report({ url: 'javascript:alert(1)' }), 'url'],
    [report({ url: `https://shop.example/${'a'.repeat(2100)}` }), 'url'],
    [report({ message: 'm'.repeat(1001) }), 'message'],
    [report({ message: undefined }), 'message'],
  ];
  for (const [i, [body, field]] of bad.entries()) {
    const res = await post(`198.51.100.${100 + i}`, body);
    expect({ field, status: res.status }).toEqual({ field, status: 400 });
    expect(res.body.error.details?.map((d) => d.path)).toContain(field);
  }
  expect(await counts()).toEqual([]);
});

it('keeps at most CLIENT_ERRORS_MAX counters, dropping the least recently seen', async () => {
  for (const [i, version] of ['1.0.0', '1.1.0', '1.2.0'].entries()) {
    expect((await post(`198.51.100.${10 + i}`, report({ version }))).status).toBe(201);
  }
  // 1.0.0 is seen again, so 1.1.0 is now the least recent.
  expect((await post('198.51.100.13', report({ version: '1.0.0' }))).status).toBe(201);
  expect((await post('198.51.100.14', report({ version: '1.3.0' }))).status).toBe(201);
  expect((await counts()).map((c) => `${c.version}×${c.count}`)).toEqual(['1.0.0×2', '1.2.0×1', '1.3.0×1']);
  expect(await ClientErrorModel.countDocuments({})).toBe(3);
});

it('limits each client address: over budget is a 429 with Retry-After, malformed reports count too', async () => {
  const statuses: number[] = [];
  statuses.push((await post('203.0.113.7', report({ remote: 'nope' }))).status);
  for (let i = 0; i < 5; i++) statuses.push((await post('203.0.113.7', report())).status);
  expect(statuses).toEqual([400, 201, 201, 201, 201, 429]);
  const refused = await post('203.0.113.7', report());
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('TOO_MANY_REQUESTS');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // Refused reports are not counted; another address has its own budget.
  expect(await counts()).toEqual([
    { remote: 'dashboard', version: '2.2.0', count: 4, lastMessage: 'Loading script failed' },
  ]);
  expect((await post('203.0.113.8', report())).status).toBe(201);
});
