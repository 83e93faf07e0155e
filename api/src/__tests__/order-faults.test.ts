import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import {
  buildApi,
  customerTokens,
  seedCustomers,
  eventually,
  freePort,
  got,
  invariantProblems,
  kill,
  readStock,
  send,
  startApi,
  seedParts,
  startFerret,
  type ApiProcess,
  type Outcome,
} from './support/faults';

// Each test runs its OWN FerretDB and API process (free ports, temp dirs) and breaks them:
// kill -9 of the API, the database stopped mid-load, SIGTERM mid-load. Afterwards the stock
// invariant must hold for every part and no acknowledged order may be lost.

jest.setTimeout(240_000);

let dbPort: number;
let dataDir: string;
let ferret: ChildProcess;
let api: ApiProcess | undefined;

beforeAll(() => buildApi());

beforeEach(async () => {
  dbPort = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-faults-'));
  ferret = await startFerret(dbPort, dataDir);
});

afterEach(async () => {
  if (api) await kill(api.child);
  api = undefined;
  await kill(ferret);
  rmSync(dataDir, { recursive: true, force: true });
});

const uri = (name: string) => `mongodb://127.0.0.1:${dbPort}/${name}`;

/** Sends SIGTERM; resolves with the exit code and how long after the signal the process exited. */
function terminate(proc: ApiProcess): Promise<{ code: number | null; ms: number }> {
  const signalledAt = Date.now();
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) =>
    proc.child.once('exit', (code) => resolve({ code, ms: Date.now() - signalledAt })),
  );
  proc.child.kill('SIGTERM');
  return exited;
}

/** A deterministic pseudo-random sequence (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Ledger {
  /** Orders answered 201 and never answered as cancelled. */
  acknowledged: Set<string>;
  cancelled: Set<string>;
  outcomes: Outcome[];
}

/**
 * 50 customers, each ordering and sometimes cancelling one of its own orders, until `stop()`.
 * Every answer is recorded; a request that got no answer (killed API) ends that customer's loop.
 */
function load(
  base: () => string,
  partIds: string[],
  seed: number,
): { ledger: Ledger; stop: () => Promise<void>; answered: () => number } {
  const ledger: Ledger = { acknowledged: new Set(), cancelled: new Set(), outcomes: [] };
  const customers = customerTokens(50, `fault-${seed}`);
  let stopped = false;
  const loops = customers.map(async (c, i) => {
    const random = rng(seed * 1000 + i);
    const mine: string[] = [];
    while (!stopped) {
      if (mine.length > 0 && random() < 0.4) {
        const id = got(mine.splice(Math.floor(random() * mine.length), 1)[0]);
        const res = await send(base(), 'DELETE', `/order/${id}`, c.token);
        ledger.outcomes.push(res);
        if (res.status === 200) {
          ledger.acknowledged.delete(id);
          ledger.cancelled.add(id);
        } else if (res.status === undefined || res.status >= 500) {
          // No answer (or a 503 mid-cancel): it may or may not have been cancelled; either is fine.
          ledger.acknowledged.delete(id);
        }
      } else {
        const partsId = got(partIds[Math.floor(random() * partIds.length)]);
        const qty = 100 + Math.floor(random() * 3) * 50;
        const res = await send(base(), 'POST', '/order', c.token, { partsId, qty });
        ledger.outcomes.push(res);
        if (res.status === 201) {
          const id = (res.body as { _id: string })._id;
          ledger.acknowledged.add(id);
          mine.push(id);
        }
      }
      if (ledger.outcomes.at(-1)?.error) await new Promise((r) => setTimeout(r, 50));
    }
  });
  return {
    ledger,
    answered: () => ledger.outcomes.filter((o) => o.status !== undefined).length,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

async function expectInvariantAfterRecovery(dbUri: string, received: Map<string, number>, ledger: Ledger) {
  let problems: string[] = ['not checked'];
  const held = await eventually(async () => {
    problems = invariantProblems(await readStock(dbUri), received);
    return problems.length === 0;
  }, 120);
  expect({ held, problems }).toEqual({ held: true, problems: [] });
  const { orders } = await readStock(dbUri);
  const present = new Map(orders.map((o) => [String(o._id), o]));
  const lost = [...ledger.acknowledged].filter((id) => {
    const o = present.get(id);
    // Acknowledged and not cancelled by a 200: still there and still holding its pieces.
    return !o || o.hold === 'released';
  });
  expect(lost).toEqual([]);
  // Cancelled by a 200: gone, not even a tombstone under its id (the document is shown if not).
  expect([...ledger.cancelled].flatMap((id) => present.get(id) ?? [])).toEqual([]);
}

it('kill -9 of the API while 50 customers order and cancel: after a restart the stock invariant holds and no acknowledged order is lost', async () => {
  const dbUri = uri('faults_kill');
  const received = await seedParts(dbUri);
  await seedCustomers(dbUri, customerTokens(50, 'fault-1'));
  api = await startApi(dbUri, { MAX_OPEN_ORDERS: '3' });
  const port = api.port;
  const running = load(() => got(api).base, [...received.keys()], 1);
  expect(await eventually(async () => running.answered() >= 150, 600, 50)).toBe(true);
  await kill(api.child, 'SIGKILL');
  await running.stop();
  expect(running.ledger.outcomes.filter((o) => o.status === 500)).toEqual([]);

  // Whatever the crash left half done is repaired by the restarted API, with no operator action.
  api = await startApi(dbUri, { MAX_OPEN_ORDERS: '3' }, port);
  await expectInvariantAfterRecovery(dbUri, received, running.ledger);
  expect(running.ledger.acknowledged.size).toBeGreaterThan(0);
});

it('the open-order cap still counts after kill -9 and a restart, and a cancelled order frees its slot', async () => {
  // The embedded database's API counts the cap from the customer's orders as read at start, so
  // what the killed process knew is not lost with it.
  const dbUri = uri('faults_cap');
  const received = await seedParts(dbUri);
  const [customer] = customerTokens(1, 'cap');
  await seedCustomers(dbUri, [got(customer)]);
  const partsId = [...received.keys()][0];
  const order = () => send(got(api).base, 'POST', '/order', got(customer).token, { partsId, qty: 100 });
  api = await startApi(dbUri, { MAX_OPEN_ORDERS: '2' });
  const placed = [await order(), await order()];
  expect(placed.map((o) => o.status)).toEqual([201, 201]);
  expect((await order()).status).toBe(409);

  await kill(api.child, 'SIGKILL');
  api = await startApi(dbUri, { MAX_OPEN_ORDERS: '2' });
  const refused = await order();
  expect(refused.status).toBe(409);
  expect((refused.body as { error: { message: string } }).error.message).toBe(
    'You already have 2 unpaid orders. Pay or cancel one of them in My Order before placing another.',
  );
  const first = (got(placed[0]).body as { _id: string })._id;
  expect((await send(got(api).base, 'DELETE', `/order/${first}`, got(customer).token)).status).toBe(200);
  expect((await order()).status).toBe(201);
  expect(invariantProblems(await readStock(dbUri), received)).toEqual([]);
});

it('the database stopped and restarted mid-load: clients get 503 (never a 500 or a hang) and the invariant holds afterwards', async () => {
  const dbUri = uri('faults_db');
  const received = await seedParts(dbUri);
  await seedCustomers(dbUri, customerTokens(50, 'fault-2'));
  api = await startApi(dbUri, { MAX_OPEN_ORDERS: '3' });
  const running = load(() => got(api).base, [...received.keys()], 2);
  expect(await eventually(async () => running.answered() >= 100, 600, 50)).toBe(true);

  await kill(ferret, 'SIGKILL');
  const before = running.ledger.outcomes.length;
  // Keep the load on while the database is away, until some requests were refused with 503.
  expect(
    await eventually(
      async () => running.ledger.outcomes.slice(before).filter((o) => o.status === 503).length >= 20,
      400,
      50,
    ),
  ).toBe(true);
  ferret = await startFerret(dbPort, dataDir);
  expect(await eventually(async () => (await fetch(`${got(api).base}/health`)).status === 200)).toBe(true);
  const afterBack = running.answered();
  expect(await eventually(async () => running.answered() >= afterBack + 50, 600, 50)).toBe(true);
  await running.stop();

  const statuses = new Set(running.ledger.outcomes.map((o) => o.status ?? o.error));
  for (const s of statuses) expect([200, 201, 400, 404, 409, 503]).toContain(s);
  await expectInvariantAfterRecovery(dbUri, received, running.ledger);
});

it('SIGTERM mid-load: every accepted request gets its answer and the API exits cleanly', async () => {
  const dbUri = uri('faults_term');
  const received = await seedParts(dbUri);
  const customers = customerTokens(100, 'term');
  await seedCustomers(dbUri, customers);
  // A deadline no machine reaches: how long a hundred orders take depends on how busy the host is,
  // and past the deadline the rest are cut on purpose (the stalled-database test below).
  api = await startApi(dbUri, { MAX_OPEN_ORDERS: '0', SHUTDOWN_TIMEOUT_MS: '120000' });
  const partIds = [...received.keys()];
  let firstAnswer: () => void = () => undefined;
  const answered = new Promise<void>((r) => (firstAnswer = r));
  const requests = customers.map((c, i) =>
    send(got(api).base, 'POST', '/order', c.token, { partsId: partIds[i % partIds.length], qty: 100 }).then(
      (res) => {
        firstAnswer();
        return res;
      },
    ),
  );
  await answered;
  const stopped = terminate(got(api));
  const outcomes = await Promise.all(requests);
  const { code } = await stopped;

  const unanswered = outcomes.filter((o) => o.status === undefined);
  if (unanswered.length > 0)
    throw new Error(
      `${unanswered.length} requests got no answer: ${JSON.stringify(unanswered)}\n${api.output()}`,
    );
  expect(outcomes.filter((o) => o.status !== 201 && o.status !== 409)).toEqual([]);
  expect(outcomes.filter((o) => o.status === 201).length).toBeGreaterThan(0);
  expect(code).toBe(0);
  expect(api.output()).not.toMatch(/shutdown timeout/);

  // Nothing to repair: a graceful stop leaves no half-done order.
  const acknowledged = new Set(
    outcomes.filter((o) => o.status === 201).map((o) => (o.body as { _id: string })._id),
  );
  expect(invariantProblems(await readStock(dbUri), received)).toEqual([]);
  const { orders } = await readStock(dbUri);
  expect(orders.map((o) => String(o._id)).sort()).toEqual([...acknowledged].sort());
});

it('with the database stalled, SIGTERM still ends the process; a restart repairs what was left', async () => {
  const dbUri = uri('faults_stalled');
  const received = await seedParts(dbUri);
  const customers = customerTokens(10, 'stall');
  await seedCustomers(dbUri, customers);
  api = await startApi(dbUri, { SHUTDOWN_TIMEOUT_MS: '1000' });
  const partIds = [...received.keys()];
  // A database that stops answering (a frozen VM, a network partition): every order queues on
  // the API's one connection, so closing it would wait for ever.
  ferret.kill('SIGSTOP');
  const outcomes: Promise<Outcome>[] = [];
  try {
    for (const [i, c] of customers.entries()) {
      outcomes.push(
        send(got(api).base, 'POST', '/order', c.token, { partsId: partIds[i % partIds.length], qty: 100 }),
      );
    }
    // Let the requests reach the API and queue on its connection.
    await new Promise((r) => setTimeout(r, 500));
    const stopped = await Promise.race([
      terminate(got(api)),
      new Promise<'hung'>((r) => setTimeout(() => r('hung'), 60_000)),
    ]);
    if (stopped === 'hung') throw new Error('the API did not exit after SIGTERM');
    expect(stopped.code).toBe(0);
    // Draining and closing share the one 1 s deadline; 10 s is the stop grace period it must beat.
    expect(stopped.ms).toBeLessThan(10_000);
    expect(api.output()).toMatch(/the database did not close in time/);
  } finally {
    ferret.kill('SIGCONT');
  }
  // No request got a 201 (the database never answered), and none hung without an answer.
  const answered = await Promise.all(outcomes);
  expect(answered.filter((o) => o.status === 201)).toEqual([]);
  api = await startApi(dbUri);
  await expectInvariantAfterRecovery(dbUri, received, {
    acknowledged: new Set(),
    cancelled: new Set(),
    outcomes: answered,
  });
});

it('while draining new connections are refused, a held request keeps the process up, and a second signal exits at once', async () => {
  const dbUri = uri('faults_drain');
  await seedParts(dbUri);
  api = await startApi(dbUri, { SHUTDOWN_TIMEOUT_MS: '60000' });
  // Hold one request open so the drain cannot finish: a body that never completes.
  const http = await import('node:http');
  const held = http.request(`${api.base}/order`, {
    method: 'POST',
    agent: new http.Agent({ keepAlive: true }),
    headers: { 'content-type': 'application/json', 'content-length': '1000' },
  });
  held.on('error', () => undefined);
  held.write('{"partsId":');
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (p: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(`${got(api).base}${p}`, { agent: keepAlive }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
  expect(await get('/livez')).toBe(200);
  const exited = new Promise<number | null>((r) => got(api).child.once('exit', (code) => r(code)));
  api.child.kill('SIGTERM');
  expect(await eventually(async () => /draining/.test(got(api).output()), 200, 50)).toBe(true);
  // The listener is closed: a new connection is refused, while the held request keeps it draining.
  // (A connection made in the instant before the close may be reset instead, hence the polling.)
  expect(
    await eventually(
      async () => (await send(got(api).base, 'GET', '/livez', '')).error === 'ECONNREFUSED',
      40,
      50,
    ),
  ).toBe(true);
  expect(api.child.exitCode).toBeNull();
  api.child.kill('SIGTERM');
  expect(await exited).toBe(1);
  held.destroy();
  keepAlive.destroy();
});
