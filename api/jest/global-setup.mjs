// Uses the services the caller already started (root `npm test` passes MONGODB_URI,
// FIREBASE_AUTH_EMULATOR_HOST and STRIPE_API_BASE, and its Mailpit as SMTP_URL and MAILPIT_URL);
// otherwise starts its own on free ports so `npm test -w api` works alone, beside any other stack.
// Each test file then uses its own database name; test files share the one Mailpit, so each reads
// only the messages sent to its own addresses (src/__tests__/support/mailpit.ts).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureTools,
  freePort,
  serviceEnv,
  startAuthEmulator,
  startFerret,
  startMailpit,
  startStripeMock,
} from '../../scripts/services.mjs';

/** Two distinct free ports (the OS may hand out the same one twice once the first is closed). */
async function freePorts(count) {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

export default async function globalSetup() {
  process.env.NODE_ENV = 'test';
  // The tests' accounts are signed up in the emulator, unverified; the lower cap of unverified
  // accounts has its own tests, which set it (as `npm test`'s stack does, scripts/test.mjs).
  process.env.MAX_UNVERIFIED_OPEN_ORDERS ??= '0';
  const children = [];
  let dataDir;
  const given = ['MONGODB_URI', 'FIREBASE_AUTH_EMULATOR_HOST', 'STRIPE_API_BASE'].every(
    (k) => process.env[k],
  );
  const mailGiven = Boolean(process.env.SMTP_URL && process.env.MAILPIT_URL);
  if (!given || !mailGiven) ensureTools();
  if (given) {
    // Fill in what the caller may have left out, without overriding anything it set.
    const defaults = serviceEnv({ db: 27017, authEmulator: 9099, stripe: 12111 });
    for (const [k, v] of Object.entries(defaults)) if (!process.env[k]) process.env[k] = v;
  } else {
    const [db, stripe, authEmulator] = await freePorts(3);
    const ports = { db, stripe, authEmulator };
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-api-test-'));
    children.push(
      ...(await Promise.all([
        startFerret({ port: ports.db, dataDir }),
        startStripeMock({ port: ports.stripe }),
        startAuthEmulator({ port: ports.authEmulator }),
      ])),
    );
    Object.assign(process.env, serviceEnv(ports));
  }
  if (!mailGiven) {
    // A Mailpit of this run's own: the API under test sends to SMTP_URL, the tests read what it
    // received at MAILPIT_URL (its HTTP API).
    const [smtpPort, uiPort] = await freePorts(2);
    children.push(await startMailpit({ smtpPort, uiPort }));
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    process.env.MAILPIT_URL = `http://127.0.0.1:${uiPort}`;
  }
  if (children.length > 0) globalThis.__MOTOPARTS_SERVICES__ = { children, dataDir };
}
