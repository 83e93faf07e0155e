import type { Caller } from '../http/context';
import type { Env } from '../lib/env';

/** What the order rules need from the environment. */
export interface OrderRules {
  /** How long an unpaid order holds its stock. */
  holdMs: number;
  /** How long a hold may run while its payment is under way at Stripe (from the placing). */
  maxHoldMs: number;
  /** Open orders (a checkout counts once) per customer; 0 = no cap. */
  maxOpen: number;
  /** The same for an account whose email is not verified; 0 = as verified ones. */
  maxOpenUnverified: number;
}

export function orderRules(
  env: Pick<Env, 'ORDER_HOLD_MINUTES' | 'MAX_OPEN_ORDERS'> &
    Partial<Pick<Env, 'ORDER_HOLD_MAX_MINUTES' | 'MAX_UNVERIFIED_OPEN_ORDERS'>>,
): OrderRules {
  const holdMs = Math.round(env.ORDER_HOLD_MINUTES * 60_000);
  return {
    holdMs,
    maxHoldMs: Math.max(holdMs, Math.round((env.ORDER_HOLD_MAX_MINUTES ?? 60) * 60_000)),
    maxOpen: env.MAX_OPEN_ORDERS,
    maxOpenUnverified: env.MAX_UNVERIFIED_OPEN_ORDERS ?? 0,
  };
}

/**
 * The caller's cap on open holds: an account whose email Firebase has not verified may hold fewer
 * (a throwaway address must not empty the catalogue); 0 = no cap.
 */
export function holdCapOf(caller: Pick<Caller, 'verified'>, rules: OrderRules): number {
  if (caller.verified || rules.maxOpenUnverified <= 0) return rules.maxOpen;
  return rules.maxOpen > 0 ? Math.min(rules.maxOpen, rules.maxOpenUnverified) : rules.maxOpenUnverified;
}

export const openOrdersCapMessage = (cap: number) =>
  `You already have ${cap} unpaid orders. Pay or cancel one of them in My Order before placing another.`;

/** Why an unverified account's next hold is refused: verifying the address lifts the lower cap. */
export const unverifiedCapMessage = (cap: number) =>
  `Your email address is not verified yet, so you can hold ${cap === 1 ? 'one unpaid order or checkout' : `${cap} unpaid orders or checkouts`} at a time. Pay or cancel it, or verify your address with the link we sent you and sign in again.`;

/** The 409 for a caller at their cap. */
export function capRefusal(
  caller: Pick<Caller, 'verified'>,
  rules: OrderRules,
): { message: string; details: object } {
  const cap = holdCapOf(caller, rules);
  return caller.verified || cap === rules.maxOpen
    ? { message: openOrdersCapMessage(cap), details: { maxOpenOrders: cap } }
    : { message: unverifiedCapMessage(cap), details: { maxOpenOrders: cap, emailVerified: false } };
}

/**
 * Whether an unpaid hold is kept past its time because its payment is under way at Stripe: only
 * while the intent says so, and never beyond the maximum hold.
 */
export function holdExtended(
  intentStatus: string | undefined,
  placedAtMs: number,
  rules: OrderRules,
  now = Date.now(),
): boolean {
  return (
    (intentStatus === 'processing' || intentStatus === 'requires_action') &&
    now < placedAtMs + rules.maxHoldMs
  );
}
