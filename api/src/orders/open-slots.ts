import { Types } from 'mongoose';
import type { ReadModelKind } from '../lib/env';
import { CheckoutModel, isListed, isOpen, OpenOrdersModel, OrderModel, type OrderDoc } from './model';
import { orderTimeline } from './timeline';

/** The per-customer cap on unpaid orders (MAX_OPEN_ORDERS), claimed before an order takes stock. */
export interface OpenSlots {
  /** Claims one of the customer's `cap` slots for `orderId`; false when all are taken. */
  claim(uid: string, orderId: string, cap: number): Promise<boolean>;
  /** The placing is over: the order was written (from then on it counts itself) or not. */
  settle(uid: string, orderId: string, placed: boolean, cap: number): Promise<void>;
  /**
   * The order (or checkout) is no longer open (paid, shipped, cancelled or expired). Named by its
   * id alone: a payment answers without reading the order back to learn whose it is.
   */
  release(holdId: string): Promise<void>;
}

/**
 * Slots kept in the database, one document per customer, so any number of API processes share
 * them: a claim is one conditional update of that document. It may briefly list an order that is
 * no longer open (a crash between steps); such entries are pruned when they would refuse an order.
 */
export const databaseSlots: OpenSlots = {
  async claim(uid, orderId, cap) {
    if (cap <= 0) return true;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const doc = await OpenOrdersModel.findOneAndUpdate(
          { _id: uid, [`open.${cap - 1}`]: { $exists: false } },
          { $addToSet: { open: orderId } },
          { upsert: true, new: true },
        ).lean();
        if (doc) return true;
      } catch (err) {
        // The upsert found the customer's document full (duplicate _id): the cap is reached.
        if ((err as { code?: unknown }).code !== 11000) throw err;
      }
      // Before refusing, drop entries of orders that are no longer open (left by a crash).
      if (!(await pruneSlots(uid))) return false;
    }
    return false;
  },
  async settle(uid, orderId, placed, cap) {
    // A refused or failed order frees its slot (best effort: a stale slot is pruned later);
    // without a cap it claimed none.
    if (!placed && cap > 0)
      await OpenOrdersModel.updateOne({ _id: uid }, { $pull: { open: orderId } }).catch(() => undefined);
  },
  async release(holdId) {
    // A hold is in one customer's list at most (api/INDEXES.md: the index on `open`).
    await OpenOrdersModel.updateOne({ open: holdId }, { $pull: { open: holdId } });
  },
};

async function pruneSlots(uid: string): Promise<boolean> {
  const doc = await OpenOrdersModel.findById(uid).lean();
  const stale: string[] = [];
  for (const id of doc?.open ?? []) {
    const order = Types.ObjectId.isValid(id)
      ? await OrderModel.findById(id, { paid: 1, status: 1, hold: 1 }).lean<OrderDoc>()
      : null;
    // A slot is an order's, or a checkout's (open while placed and unpaid).
    const checkout = order ? null : await CheckoutModel.findById(id, { state: 1 }).lean();
    const open = order ? isOpen(order) : checkout?.state === 'placed' || checkout?.state === 'reserving';
    if (!open) stale.push(id);
  }
  if (stale.length === 0) return false;
  await OpenOrdersModel.updateOne({ _id: uid }, { $pullAll: { open: stale } });
  return true;
}

/**
 * Slots counted on the embedded database, whose only writer is this process: the customer's
 * orders that the in-memory list (orders/timeline.ts) says may be open, plus those being placed
 * right now. The count and the claim happen in one synchronous step, so two presses at once
 * cannot both take the last slot, and a claim below the cap costs no command on the API's one
 * connection (the database's slot document was a third write per order, and its release a fourth).
 * Only a customer at the cap by that count has their candidates' rows read, to drop paid,
 * shipped and released ones. Nothing is kept that a crash could leave stale.
 */
export class MemorySlots implements OpenSlots {
  /** Orders being placed, by customer: claimed, not yet written or refused. */
  private readonly placing = new Map<string, Set<string>>();

  async claim(uid: string, orderId: string, cap: number): Promise<boolean> {
    if (cap <= 0) return true;
    const timeline = orderTimeline();
    let closed = new Set<string>();
    for (let attempt = 0; attempt < 3; attempt++) {
      const candidates = timeline.maybeOpenOrdersOf(uid);
      if (candidates === null) {
        // The list is being read (start-up, or after a write the hooks could not narrow down).
        await timeline.warm();
        continue;
      }
      // A checkout's lines are one hold: count holds, not orders.
      const holds = (ids: string[]) => [...new Set(ids.map((id) => timeline.holdOf(id)))];
      // Placed already (an Idempotency-Key retry whose first answer was lost): its own slot.
      if (holds(candidates).includes(orderId)) return true;
      const open = holds(candidates.filter((id) => !closed.has(id)));
      if (this.take(uid, orderId, cap, open)) return true;
      if (closed.size > 0 || candidates.length === 0) return false;
      const stillOpen = await timeline.openAmong(uid, candidates);
      closed = new Set(candidates.filter((id) => !stillOpen.has(id)));
      if (closed.size === 0) return false;
    }
    // The list could not be read into memory: count from the database (a scan, but rare).
    const unpaid = await OrderModel.find(
      { uid, paid: false, status: 'pending' },
      { paid: 1, status: 1, hold: 1, checkoutId: 1 },
    ).lean<OrderDoc[]>();
    const open = [
      ...new Set(
        unpaid.filter((o) => isListed(o.hold) && isOpen(o)).map((o) => o.checkoutId ?? String(o._id)),
      ),
    ];
    return open.includes(orderId) || this.take(uid, orderId, cap, open);
  }

  /**
   * Counts `open` (the customer's open orders) and their orders being placed, and claims a slot
   * for `orderId` if one is free: one synchronous step, so two claims cannot both take the last.
   */
  private take(uid: string, orderId: string, cap: number, open: string[]): boolean {
    const placing = this.placing.get(uid) ?? new Set<string>();
    if (placing.has(orderId)) return true;
    if (new Set([...open, ...placing]).size >= cap) return false;
    this.placing.set(uid, placing.add(orderId));
    return true;
  }

  async settle(uid: string, orderId: string): Promise<void> {
    // A written order is in the list by now: the model's save hook files it before the write returns.
    const placing = this.placing.get(uid);
    placing?.delete(orderId);
    if (placing?.size === 0) this.placing.delete(uid);
  }

  async release(): Promise<void> {
    // Nothing kept: a paid, shipped or released order's row says so when the count reads it.
  }
}

let slots: OpenSlots = databaseSlots;

/** Picks where the cap is counted for this process (once, as the app is built: read-models.ts). */
export function useOpenSlots(kind: ReadModelKind): void {
  if (kind === 'memory') slots = slots instanceof MemorySlots ? slots : new MemorySlots();
  else slots = databaseSlots;
}

/** Where this process counts the cap (the database's slot documents until `useOpenSlots`). */
export const openSlots = (): OpenSlots => slots;
