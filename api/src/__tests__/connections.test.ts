import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { trackConnections } from '../lib/connections';
import { got } from './support/faults';

// The shutdown's sweep (server.ts): which connections it closes while the API drains. In process,
// over real sockets: each case waits for the server's side to reach the state under test first.

let server: http.Server;
let port: number;
const serverSockets: net.Socket[] = [];
const clients: net.Socket[] = [];

/** A server whose `/slow` answers when `release` is called; every other path at once. */
async function start(graceMs: number, clock?: () => number) {
  let release = () => undefined as void;
  const released = new Promise<void>((r) => (release = r));
  server = http.createServer((req, res) => {
    if (req.url === '/slow') void released.then(() => res.end('slow'));
    else res.end('ok');
  });
  server.on('connection', (s: net.Socket) => serverSockets.push(s));
  const tracker = trackConnections(server, graceMs, clock);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  return { tracker, release };
}

afterEach(async () => {
  for (const c of clients) c.destroy();
  clients.length = 0;
  serverSockets.length = 0;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error('the server never got there');
}

/** A client connection, once the server has accepted it. */
async function connect(): Promise<{ client: net.Socket; accepted: net.Socket; received: () => string }> {
  const before = serverSockets.length;
  const client = net.connect(port, '127.0.0.1');
  clients.push(client);
  let text = '';
  client.on('data', (d: Buffer) => (text += d.toString()));
  client.on('error', () => undefined);
  await until(() => serverSockets.length > before);
  return { client, accepted: got(serverSockets[before]), received: () => text };
}

/** Runs the sweep twice, as the draining server does every 250 ms, letting each deferred pass happen. */
async function sweep(tracker: { closeResting: () => void }): Promise<void> {
  for (let i = 0; i < 2; i++) {
    tracker.closeResting();
    await new Promise((r) => setTimeout(r, 50));
  }
}

const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`;

it('keeps a connection that has sent nothing yet within the grace: its request is answered', async () => {
  const { tracker } = await start(60_000);
  const fresh = await connect();
  await sweep(tracker);
  expect(fresh.accepted.destroyed).toBe(false);
  fresh.client.write(request('/'));
  await until(() => fresh.received().includes('ok'));
});

it('closes a connection that has sent nothing for the whole grace', async () => {
  const { tracker } = await start(0);
  const silent = await connect();
  await sweep(tracker);
  expect(silent.accepted.destroyed).toBe(true);
});

it('closes a keep-alive connection once it has rested for the grace, never one with an answer under way', async () => {
  // The sweep's clock is the test's: a second of rest is a step of `now`, whatever the machine's speed.
  let now = 0;
  const { tracker, release } = await start(1_000, () => now);
  const idle = await connect();
  idle.client.write(request('/'));
  await until(() => idle.received().includes('ok'));

  const waiting = await connect();
  waiting.client.write(request('/slow'));
  await until(() => waiting.accepted.bytesRead > 0);

  const partial = await connect();
  partial.client.write('GET / HTTP/1.1\r\nHo');
  await until(() => partial.accepted.bytesRead > 0);

  now = 500;
  await sweep(tracker);
  for (const c of [idle, waiting, partial]) expect(c.accepted.destroyed).toBe(false);
  // The half-sent request is finished and answered.
  partial.client.write('st: x\r\n\r\n');
  await until(() => partial.received().includes('ok'));
  await sweep(tracker);

  now = 5_000;
  await sweep(tracker);
  // Both keep-alive connections rested since the last sweeps; the slow answer keeps its own.
  expect(idle.accepted.destroyed).toBe(true);
  expect(partial.accepted.destroyed).toBe(true);
  expect(waiting.accepted.destroyed).toBe(false);
  release();
  await until(() => waiting.received().includes('slow'));
});
