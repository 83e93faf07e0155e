import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Our Stripe.js stand-in, served where the browser asks for Stripe's script (offline here). */
export const STRIPE_STAND_IN = path.join(__dirname, '..', 'tests', 'fixtures', 'stripe-stand-in.js');

export async function serveStripeStandIn(page: Page): Promise<void> {
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ path: STRIPE_STAND_IN, contentType: 'text/javascript; charset=utf-8' }),
  );
}

/** Serious and critical axe violations (WCAG 2.1 A and AA) of the page as it is, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
