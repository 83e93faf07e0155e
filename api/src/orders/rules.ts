import type { Env } from '../lib/env';

/** What the order rules need from the environment. */
export interface OrderRules {
  /** How long an unpaid order holds its stock. */
  holdMs: number;
  /** Open orders per customer; 0 = no cap. */
  maxOpen: number;
}

export function orderRules(env: Pick<Env, 'ORDER_HOLD_MINUTES' | 'MAX_OPEN_ORDERS'>): OrderRules {
  return {
    holdMs: Math.round(env.ORDER_HOLD_MINUTES * 60_000),
    maxOpen: env.MAX_OPEN_ORDERS,
  };
}

export const openOrdersCapMessage = (cap: number) =>
  `You already have ${cap} unpaid orders. Pay or cancel one of them in My Order before placing another.`;
