import Stripe from 'stripe';
import type { Env } from './env';

/** The Stripe client; with STRIPE_API_BASE it talks to stripe-mock (plain http) instead of Stripe. */
export function createStripe(env: Env): Stripe {
  if (!env.STRIPE_API_BASE)
    return new Stripe(env.STRIPE_SECRET_KEY, { maxNetworkRetries: 1, timeout: 10_000 });
  const base = new URL(env.STRIPE_API_BASE);
  const protocol = base.protocol === 'https:' ? 'https' : 'http';
  return new Stripe(env.STRIPE_SECRET_KEY, {
    host: base.hostname,
    port: Number(base.port || (protocol === 'https' ? 443 : 80)),
    protocol,
    maxNetworkRetries: 0,
    timeout: 10_000,
  });
}
