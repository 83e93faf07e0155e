import { isDbUnavailableError } from '../lib/db';
import type { Env } from '../lib/env';
import type { Logger } from '../lib/logger';
import { KEY_TTL_MS } from './keys';
import type { OpenPayments } from './payments-port';
import type { OrderReads } from './read-models';
import { holdExtended, orderRules, type OrderRules } from './rules';
import { OrderKeyModel, type OrderDoc } from './model';
import { expireCheckout, flushNotes, recoverCheckouts } from './checkout';
import { recoverRefunds } from './refunds';
import { flushJournal, recoverOnce, releaseOrder } from './stock';

const placedAt = (order: Pick<OrderDoc, 'createdAt'>) =>
  order.createdAt ? new Date(order.createdAt).getTime() : 0;

/**
 * Expires unpaid orders whose hold ran out: the open PaymentIntent is cancelled at Stripe first
 * (a payment that already succeeded wins: the order is marked paid), then the pieces go back.
 */
export async function expireDue(
  rules: OrderRules,
  reads: Pick<OrderReads, 'dueOrders'>,
  payments: OpenPayments,
  log: Logger,
  now = Date.now(),
): Promise<number> {
  const due = await reads.dueOrders(now - rules.holdMs);
  let expired = 0;
  const checkouts = new Set<string>();
  for (const order of due) {
    if (order.hold === 'reserving' || order.hold === 'releasing' || order.hold === 'released') continue;
    if (order.checkoutId) {
      // A checkout's lines expire together, with its one payment settled first.
      if (checkouts.has(order.checkoutId)) continue;
      checkouts.add(order.checkoutId);
      try {
        const extended = async (paymentId: string) =>
          holdExtended(await payments.statusOf(paymentId), placedAt(order), rules, now);
        if (await expireCheckout(order.checkoutId, (doc) => payments.settleCheckout(doc, log), extended)) {
          expired += 1;
        }
      } catch (err) {
        log.warn({ checkoutId: order.checkoutId, err: (err as Error).message }, 'expiry postponed');
      }
      continue;
    }
    try {
      // A payment under way at Stripe keeps its hold, up to the maximum hold.
      const intent = order.paymentIntentId;
      if (intent && holdExtended(await payments.statusOf(intent), placedAt(order), rules, now)) continue;
      if ((await payments.settle(order, log)) === 'paid') continue;
    } catch (err) {
      // Stripe unreachable: keep the hold until the next pass can ask it.
      log.warn({ orderId: String(order._id), err: (err as Error).message }, 'expiry postponed');
      continue;
    }
    if (await releaseOrder(String(order._id), 'expired')) expired += 1;
  }
  if (expired > 0) log.info({ expired }, 'expired unpaid orders');
  return expired;
}

export interface OrderJobs {
  /** The first recovery pass (the one that also scans every order), done or failed. */
  started: Promise<void>;
  /** Runs the recovery pass now (also done at start and on its timer). */
  recover(): Promise<void>;
  /** Stops the timers, waits for a running pass, and flushes the journal clean-up. */
  stop(): Promise<void>;
}

/**
 * The background work of the order system: the recovery pass (at start, scanning every order
 * once, then every ORDER_RECOVERY_INTERVAL_MS from the release notes and journals: on the
 * embedded database only the journals this process wrote since, with every one read hourly), the
 * expiry pass (every quarter of the hold, 1 s to 1 min), and the batched journal clean-up (every
 * 250 ms). A pass that meets a database outage just waits for
 * the next tick.
 */
export function startOrderJobs(
  env: Env,
  reads: Pick<OrderReads, 'dueOrders'>,
  payments: OpenPayments,
  log: Logger,
): OrderJobs {
  const rules = orderRules(env);
  // With the embedded database this process is the only API, so nothing half done belongs to a
  // live request elsewhere; with a shared MongoDB other processes' requests get the grace period.
  const graceMs = env.MONGODB_EMBEDDED ? 0 : env.ORDER_RECOVERY_GRACE_MS;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  const guard = (what: string, fn: () => Promise<unknown>) => () => {
    if (stopped) return running;
    running = running.then(fn).catch((err: unknown) => {
      if (isDbUnavailableError(err)) log.debug({ what }, 'database unavailable; retrying on the next tick');
      else log.error({ err, what }, 'order background job failed');
    });
    return running;
  };

  // The first pass also scans every order (holds left by earlier versions, releases whose note
  // went missing); the periodic ones read only the release notes and the parts' journals. Keys
  // older than a day are swept at most hourly: the sweep reads the whole key collection.
  let scanned = false;
  let sweptAt = 0;
  let journalsReadAt = 0;
  const recover = guard('recovery', async () => {
    // Checkouts first: a committed checkout's orders are written before the journal's markers
    // of its lines are judged (orders/checkout.ts).
    const c = await recoverCheckouts({ graceMs, log });
    if (c.rolledBack + c.rolledForward + c.released > 0) log.warn(c, 'recovery pass repaired checkouts');
    // Every part's journal at start, hourly (what an operator wrote behind this process's back),
    // and always with a shared database (other processes write marks too); else only the parts
    // this process wrote to since the last pass.
    const allJournals = !scanned || !env.MONGODB_EMBEDDED || Date.now() - journalsReadAt >= 60 * 60_000;
    const r = await recoverOnce({
      graceMs,
      log,
      scanOrders: !scanned,
      journals: allJournals ? 'all' : 'written',
    });
    if (allJournals) journalsReadAt = Date.now();
    scanned = true;
    const refunds = await recoverRefunds(payments, new Date(Date.now() - graceMs), log);
    if (refunds > 0) log.warn({ refunds }, 'recovery pass finished refunds');
    if (Date.now() - sweptAt >= 60 * 60_000) {
      await OrderKeyModel.deleteMany({ createdAt: { $lt: new Date(Date.now() - KEY_TTL_MS) } });
      sweptAt = Date.now();
    }
    if (r.undone + r.finished + r.orphansReturned > 0) log.warn(r, 'recovery pass repaired orders');
  });
  const expire = guard('expiry', () => expireDue(rules, reads, payments, log));
  // What finished moves leave behind (journal markers, checkout notes), deleted in batches.
  const flush = guard('journal', () => Promise.all([flushJournal(), flushNotes()]));

  const timers = [
    setInterval(() => void recover(), env.ORDER_RECOVERY_INTERVAL_MS),
    setInterval(() => void expire(), Math.min(60_000, Math.max(1000, rules.holdMs / 4))),
    setInterval(() => void flush(), 250),
  ];
  for (const t of timers) t.unref();
  const started = recover().then(() => undefined);

  return {
    started,
    recover: async () => {
      await recover();
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      await running;
      stopped = true;
      await Promise.all([flushJournal(), flushNotes()]).catch(() => undefined);
    },
  };
}
