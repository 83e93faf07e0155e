import { defineConfig, devices } from '@playwright/test';
import { BASE_URL } from './support/env';

/**
 * Drives Debian's Chromium (no downloaded browsers here) against the stack that `npm test`
 * (scripts/test.mjs) starts; run alone with `npm start` already up: `npx playwright test -c e2e`.
 */
export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // E2E_JOURNEYS_FILE: a JSON record of every journey's outcome, which `npm run compat` reports from.
  reporter: [
    ['list'],
    ['./support/summary-reporter.ts'],
    ...(process.env.E2E_JOURNEYS_FILE
      ? [['json', { outputFile: process.env.E2E_JOURNEYS_FILE }] as ['json', { outputFile: string }]]
      : []),
  ],
  outputDir: './test-results',
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
});
