import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The webhook secret `npm start` generated for this checkout (scripts/services.mjs, localSecrets). */
function localWebhookSecret(): string {
  const file = path.join(__dirname, '..', '..', '.data', 'secrets.json');
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { STRIPE_WEBHOOK_SECRET: string })
      .STRIPE_WEBHOOK_SECRET;
  } catch {
    return ''; // no local stack here: set E2E_STRIPE_WEBHOOK_SECRET to the API's secret
  }
}

/**
 * Where the stack under test lives. `npm test` starts it on its own ports and sets these;
 * the defaults are `npm start`'s, so specs also run against a developer's running stack.
 */
export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://localhost:3000';
export const API_URL = process.env.E2E_API_URL ?? 'http://localhost:5000';
export const AUTH_EMULATOR_URL = process.env.E2E_AUTH_EMULATOR_URL ?? 'http://127.0.0.1:9099';
export const STRIPE_WEBHOOK_SECRET = process.env.E2E_STRIPE_WEBHOOK_SECRET ?? localWebhookSecret();
export const DASHBOARD_URL = process.env.E2E_DASHBOARD_URL ?? 'http://localhost:3003';
/** Mailpit's HTTP API: what the API under test sent (support/mailpit.ts). */
export const MAILPIT_URL = process.env.E2E_MAILPIT_URL ?? 'http://127.0.0.1:8025';
export const FIREBASE_PROJECT = 'demo-motoparts';

export const DEMO = {
  admin: { email: 'admin@motoparts.test', password: 'admin-pass-2026' },
  rider: { email: 'rider@motoparts.test', password: 'rider-pass-2026' },
} as const;
