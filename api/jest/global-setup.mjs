// Uses the services the caller already started (root `npm test` passes MONGODB_URI,
// FIREBASE_AUTH_EMULATOR_HOST and STRIPE_API_BASE); otherwise starts its own on free ports so
// `npm test -w api` works alone. Each test file then uses its own database name.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureTools,
  freePort,
  serviceEnv,
  startAuthEmulator,
  startFerret,
  startStripeMock,
} from '../../scripts/services.mjs';

export default async function globalSetup() {
  process.env.NODE_ENV = 'test';
  // The tests' accounts are signed up in the emulator, unverified; the lower cap of unverified
  // accounts has its own tests, which set it (as `npm test`'s stack does, scripts/test.mjs).
  process.env.MAX_UNVERIFIED_OPEN_ORDERS ??= '0';
  const given = ['MONGODB_URI', 'FIREBASE_AUTH_EMULATOR_HOST', 'STRIPE_API_BASE'].every(
    (k) => process.env[k],
  );
  if (given) {
    // Fill in what the caller may have left out, without overriding anything it set.
    const defaults = serviceEnv({ db: 27017, authEmulator: 9099, stripe: 12111 });
    for (const [k, v] of Object.entries(defaults)) if (!process.env[k]) process.env[k] = v;
    return;
  }
  ensureTools();
  const ports = { db: await freePort(), stripe: await freePort(), authEmulator: await freePort() };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-api-test-'));
  const children = await Promise.all([
    startFerret({ port: ports.db, dataDir }),
    startStripeMock({ port: ports.stripe }),
    startAuthEmulator({ port: ports.authEmulator }),
  ]);
  globalThis.__MOTOPARTS_SERVICES__ = { children, dataDir };
  Object.assign(process.env, serviceEnv(ports));
}
