import { claimOpenSlot, isOpen, releaseOpenSlot } from './stock';
import { orderTimeline } from './timeline';

/** The per-customer cap on unpaid orders (MAX_OPEN_ORDERS), claimed before an order takes stock. */
export interface OpenSlots {
  /** Claims one of the customer's `cap` slots for `orderId`; false when all are taken. */
  claim(uid: string, orderId: string, cap: number): Promise<boolean>;
  /** The placing is over: the order was written (from now on it counts itself) or not. */
  settle(uid: string, orderId: string, placed: boolean, cap: number): Promise<void>;
}

/**
 * Slots kept in the database, one document per customer (orders/stock.ts): any number of API
 * processes share them. A placed order's slot is freed when it is paid, shipped or released.
 */
export const databaseSlots: OpenSlots = {
  claim: claimOpenSlot,
  async settle(uid, orderId, placed, cap) {
    // A refused or failed order frees its slot (best effort: a stale slot is pruned later);
    // without a cap it claimed none.
    if (!placed && cap > 0) await releaseOpenSlot(uid, orderId).catch(() => undefined);
  },
};

/**
 * Slots counted on the embedded database, whose only writer is this process: the customer's
 * open orders from the in-memory timeline (orders/timeline.ts; their rows are read by `_id` when
 * not kept) plus the orders of theirs being placed right now. Claiming costs no command on the
 * API's one connection, where the database's slot document was a third write per order. One
 * claim per customer at a time, so two presses at once cannot both take the last slot.
 */
export class TimelineSlots implements OpenSlots {
  /** Orders being placed, by customer: claimed, not yet written or refused. */
  private readonly placing = new Map<string, Set<string>>();
  /** The last claim of each customer still running, which the next one waits for. */
  private readonly queues = new Map<string, Promise<unknown>>();

  claim(uid: string, orderId: string, cap: number): Promise<boolean> {
    if (cap <= 0) return Promise.resolve(true);
    return this.oneAtATime(uid, async () => {
      const open = new Set(
        (await orderTimeline().maybeOpenOrdersOf(uid))
          .filter((row) => isOpen(row))
          .map((row) => String(row._id)),
      );
      // Placed already (an Idempotency-Key retry of an order whose answer was lost): its own slot.
      if (open.has(orderId)) return true;
      const placing = this.placing.get(uid) ?? new Set<string>();
      for (const id of placing) open.add(id);
      if (open.size >= cap) return false;
      this.placing.set(uid, placing.add(orderId));
      return true;
    });
  }

  async settle(uid: string, orderId: string): Promise<void> {
    // Written orders are in the timeline by now (the model's save hook files them first).
    const placing = this.placing.get(uid);
    placing?.delete(orderId);
    if (placing?.size === 0) this.placing.delete(uid);
  }

  /** Runs `fn` after the customer's claims before it (a promise chain per customer). */
  private oneAtATime<T>(uid: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(uid) ?? Promise.resolve()).then(fn);
    const tail = run.catch(() => undefined);
    this.queues.set(uid, tail);
    void tail.then(() => {
      if (this.queues.get(uid) === tail) this.queues.delete(uid);
    });
    return run;
  }
}
