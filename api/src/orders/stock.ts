import { Types, type mongo } from 'mongoose';
import type { Logger } from '../lib/logger';
import { ON_SALE, PartModel, partWrites, type PartDoc } from '../parts/model';
import { OrderModel, OrderReleaseModel, type OrderDoc } from './model';
import { openSlots } from './open-slots';

/*
 * Crash-consistent stock (design and failure cases: api/README.md, "Stock that survives crashes").
 *
 * Invariant: for every part, availableQty + Σ quantity of its live orders == stock received for it.
 * Every step is one single-document atomic update, made idempotent by a marker written in the same
 * update, and the order's `hold` says which step comes next:
 *
 *   place:   part: $inc −quantity + push `+id` (only if `+id` absent) → order inserted `held`
 *            → `+id` pulled from the part (batched, later)
 *   release: order `releasing` (conditional: unpaid, pending, held) → part: $inc +quantity + push `-id`
 *            (only if `-id` absent) → order deleted (cancel) or `released`/`expired` → markers pulled
 *
 * A process that dies between the two placing steps leaves a `+id` with no order: `recoverOnce`
 * writes a `void` tombstone under that id (so a stalled request's late insert fails on the
 * duplicate `_id` instead of creating an order without stock), then gives the pieces back only if
 * `+id` is still there, atomically with pulling it. A process that dies while releasing leaves the
 * order `releasing`; the pass finishes it (the give-back is a no-op if `-id` is there already).
 * Orders that earlier versions left `reserving` (they wrote the order first) are undone.
 */

/** Order ids whose steps a request of this process is running right now: recovery leaves them alone. */
const busy = new Set<string>();

/** Runs `fn` with the order marked busy in this process. */
export function withOrderBusy<T>(orderId: string, fn: () => Promise<T>): Promise<T> {
  return withBusy([orderId], fn);
}

/** Runs `fn` with these ids (orders, a checkout and its lines) marked busy in this process. */
export async function withBusy<T>(ids: string[], fn: () => Promise<T>): Promise<T> {
  const mine = ids.filter((id) => !busy.has(id));
  for (const id of mine) busy.add(id);
  try {
    return await fn();
  } finally {
    for (const id of mine) busy.delete(id);
  }
}

/** Whether a request of this process is running steps of `id` right now. */
export const isBusy = (id: string): boolean => busy.has(id);

/** Journal entries carry the quantity, so an entry whose order vanished can still be undone. */
export const plusMark = (orderId: string, quantity: number) => `+${orderId}:${quantity}`;
export const minusMark = (orderId: string, quantity: number) => `-${orderId}:${quantity}`;

function parseMark(mark: string): { sign: '+' | '-'; id: string; quantity: number } | undefined {
  const m = /^([+-])([a-f0-9]{24}):(\d+)$/.exec(mark);
  return m ? { sign: m[1] as '+' | '-', id: String(m[2]), quantity: Number(m[3]) } : undefined;
}

/**
 * Whether the part's journal shows pieces taken and not given back (`+id` without its `-id`): an
 * order being placed, or one whose journal entry is not pulled yet.
 */
export async function stockInFlight(partId: string): Promise<boolean> {
  const part = await PartModel.findById(partId, { journal: 1 }).lean<PartDoc>();
  const marks = new Set(part?.journal ?? []);
  for (const mark of marks) {
    const parsed = parseMark(mark);
    if (parsed?.sign === '+' && !marks.has(minusMark(parsed.id, parsed.quantity))) return true;
  }
  return false;
}

// ---- journal clean-up: markers whose order has recorded the step, pulled in batches ----

const redundant = new Map<string, Set<string>>();
/** Parts per clean-up command: a bounded `$in` list and a bounded list of marks to pull. */
const FLUSH_BATCH = 50;
let flushing: Promise<void> | undefined;

/** Queues journal entries that are no longer needed (their order's hold moved past the step). */
export function forgetMarks(partId: string, marks: string[]): void {
  let set = redundant.get(partId);
  if (!set) redundant.set(partId, (set = new Set()));
  for (const m of marks) set.add(m);
}

/** The parts collection as the journal clean-up writes it: through the driver, no Mongoose hooks. */
type JournalDoc = { _id: Types.ObjectId; journal?: string[] };
const journals = () => PartModel.collection as unknown as mongo.Collection<JournalDoc>;

/**
 * Pulls the queued entries of up to `FLUSH_BATCH` parts in one statement: a mark names its order,
 * whose stock is on one part only, so pulling every mark of the batch from every part of the batch
 * pulls each from its own part. FerretDB writes the parts of one `updateMany` for about two thirds
 * of what one `update` statement per part costs it. A journal is in no answer, so no catalogue is
 * told (and a driver write reaches no Mongoose hook, which would count it as a change to every part).
 */
export async function flushJournal(): Promise<void> {
  if (flushing) return flushing;
  flushing = (async () => {
    while (redundant.size > 0) {
      const batch = [...redundant].slice(0, FLUSH_BATCH);
      for (const [partId] of batch) redundant.delete(partId);
      try {
        // A part's `_id` is an ObjectId (the driver does not cast as the model would); an id that
        // is not one names no part, so there is nothing to pull.
        const parts = batch.filter(([partId]) => Types.ObjectId.isValid(partId));
        if (parts.length > 0)
          await journals().updateMany(
            { _id: { $in: parts.map(([partId]) => new Types.ObjectId(partId)) } },
            { $pullAll: { journal: parts.flatMap(([, marks]) => [...marks]) } },
          );
      } catch (err) {
        // Put them all back for the next flush (pulling again is harmless; the recovery pass finds
        // them after a restart).
        for (const [partId, marks] of batch) forgetMarks(partId, [...marks]);
        throw err;
      }
    }
  })().finally(() => {
    flushing = undefined;
  });
  return flushing;
}

// ---- the steps ----

/** What the stock steps need of an order: its id, its part and how many pieces. */
export interface Reservation {
  _id: string | Types.ObjectId;
  partId: string | Types.ObjectId;
  quantity: number;
}

/** When an order id was chosen (ObjectIds start with their creation time, in seconds). */
export function idTime(id: string): number {
  return Types.ObjectId.isValid(id) ? new Types.ObjectId(id).getTimestamp().getTime() : 0;
}

/**
 * Parts this process has written journal marks to since the recovery pass last read them: noted
 * before each write (its outcome may be unknown), kept again by the pass for marks it leaves.
 */
const journalsWritten = new Set<string>();

/** Takes the order's pieces and records `+id` in the same update; null when refused. */
export async function takeStock(order: Reservation): Promise<PartDoc | null> {
  const mark = plusMark(String(order._id), order.quantity);
  journalsWritten.add(String(order.partId));
  return PartModel.findOneAndUpdate(
    {
      _id: order.partId,
      availableQty: { $gte: order.quantity },
      minOrderQty: { $lte: order.quantity },
      journal: { $ne: mark },
      ...ON_SALE,
    },
    { $inc: { availableQty: -order.quantity }, $push: { journal: mark } },
    // No projection: FerretDB's findAndModify does not implement `fields`.
    { new: true },
  ).lean<PartDoc>();
}

/** The parts collection as the many-line take writes it: through the driver, in one command. */
type StockDoc = { _id: Types.ObjectId; availableQty: number; minOrderQty: number; journal?: string[] };
const stockDocs = () => PartModel.collection as unknown as mongo.Collection<StockDoc>;

/**
 * `takeStock` for many orders in one command (a checkout's lines): each line's update is the same
 * conditional, idempotent step, sent together rather than one round trip each. Returns the ids of
 * the orders whose stock was taken, read back from the journals when not every line was. The
 * catalogue is told of the stock change as a hook would tell it.
 */
export async function takeStocks(orders: Reservation[]): Promise<Set<string>> {
  const ids = orders.map((o) => String(o.partId));
  for (const id of ids) journalsWritten.add(id);
  try {
    const res = await stockDocs().bulkWrite(
      orders.map((order) => {
        const mark = plusMark(String(order._id), order.quantity);
        return {
          updateOne: {
            filter: {
              _id: new Types.ObjectId(String(order.partId)),
              availableQty: { $gte: order.quantity },
              minOrderQty: { $lte: order.quantity },
              journal: { $ne: mark },
              ...ON_SALE,
            },
            update: { $inc: { availableQty: -order.quantity }, $push: { journal: mark } },
          },
        };
      }),
      { ordered: false },
    );
    if (res.modifiedCount === orders.length) return new Set(orders.map((o) => String(o._id)));
  } finally {
    partWrites.announce({ ids });
  }
  const journals = await stockDocs()
    .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) } }, { projection: { journal: 1 } })
    .toArray();
  const marks = new Set(journals.flatMap((p) => p.journal ?? []));
  return new Set(
    orders.filter((o) => marks.has(plusMark(String(o._id), o.quantity))).map((o) => String(o._id)),
  );
}

/** Undoes a reservation: gives the pieces back only if `+id` is there, pulling it in the same update. */
export async function undoTake(order: Reservation): Promise<void> {
  const mark = plusMark(String(order._id), order.quantity);
  await PartModel.updateOne(
    { _id: order.partId, journal: mark },
    { $inc: { availableQty: order.quantity }, $pull: { journal: mark } },
  );
}

/** Gives a releasing order's pieces back once: the update also records `-id`, and needs it absent. */
export async function giveBack(order: Pick<OrderDoc, '_id' | 'partId' | 'quantity'>): Promise<void> {
  const mark = minusMark(String(order._id), order.quantity);
  journalsWritten.add(String(order.partId));
  await PartModel.updateOne(
    { _id: order.partId, journal: { $ne: mark } },
    { $inc: { availableQty: order.quantity }, $push: { journal: mark } },
  );
}

/**
 * The last step of a release: the order disappears (cancel), stays as expired, or stays as the
 * refunded order it already is (orders/refunds.ts: its pieces came back after the refund).
 */
export async function finishRelease(
  order: Pick<OrderDoc, '_id' | 'partId' | 'quantity' | 'uid' | 'user' | 'releaseTo'>,
): Promise<void> {
  const id = String(order._id);
  if (order.releaseTo === 'expired') {
    await OrderModel.updateOne(
      { _id: id, hold: 'releasing' },
      {
        $set: { hold: 'released', status: 'expired' },
        $push: { history: { event: 'expired', at: new Date() } },
      },
    );
  } else if (order.releaseTo === 'refunded') {
    await OrderModel.updateOne(
      { _id: id, hold: 'releasing' },
      { $set: { hold: 'released', restocked: true } },
    );
  } else {
    await OrderModel.deleteOne({ _id: id });
  }
  forgetMarks(String(order.partId), [plusMark(id, order.quantity), minusMark(id, order.quantity)]);
  await openSlots().release(id);
  await OrderReleaseModel.deleteOne({ _id: id });
}

/** Notes that `orderId` is about to be released, so a crash mid-release is found without a scan. */
export async function noteRelease(orderId: string): Promise<void> {
  try {
    await OrderReleaseModel.create({ _id: orderId, at: new Date() });
  } catch (err) {
    // Already noted (a retried cancel, or an expiry racing a cancel): one note is enough.
    if ((err as { code?: unknown }).code !== 11000) throw err;
  }
}

/**
 * Cancels or expires an order that the caller has checked: claims it (`releasing`, conditional on
 * still being unpaid, pending and held), gives the pieces back, finishes. Returns false if the
 * order changed meanwhile (paid, shipped, already released).
 */
export async function releaseOrder(
  orderId: string,
  to: 'cancelled' | 'expired',
  extraFilter: Record<string, unknown> = {},
): Promise<boolean> {
  return withOrderBusy(orderId, async () => {
    await noteRelease(orderId);
    const claimed = await OrderModel.findOneAndUpdate(
      {
        _id: orderId,
        ...extraFilter,
        paid: false,
        status: 'pending',
        hold: { $nin: ['reserving', 'releasing', 'released'] },
      },
      { $set: { hold: 'releasing', releaseTo: to } },
      { new: true },
    ).lean<OrderDoc>();
    if (!claimed) {
      // Not releasable (paid, shipped, gone) or already being released by someone else, who
      // deletes the note when done; a note of an order not releasing is dropped by the pass.
      return false;
    }
    await giveBack(claimed);
    await finishRelease(claimed);
    return true;
  });
}

// ---- recovery ----

/**
 * Writes the `void` tombstone for an order id whose stock the pass is about to give back; false
 * when an order with that id exists after all (its request got there first).
 */
async function voidOrder(id: string, partId: unknown, quantity: number): Promise<boolean> {
  const now = new Date();
  try {
    // Written raw: a tombstone has none of an order's required fields.
    await OrderModel.collection.insertOne({
      _id: new Types.ObjectId(id),
      hold: 'void',
      partId,
      quantity,
      createdAt: now,
      updatedAt: now,
    });
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 11000) return false;
    throw err;
  }
}

export interface RecoveryOptions {
  /** Only orders whose last step is older than this are touched (other processes may run them). */
  graceMs: number;
  log?: Logger;
  now?: number;
  /**
   * Also scan every order for a transient hold (the pass at start-up): finds orders left
   * `reserving` by earlier versions and releases noted by none. The periodic pass reads only
   * the release notes and the parts' journals, so it costs nothing at any number of orders.
   */
  scanOrders?: boolean;
  /**
   * Which parts' journals to read: `all` asks for every part with a journal (on the embedded
   * FerretDB a read of the whole catalogue, which pushes no filter down: about 2 s of its CPU at
   * 10,000 parts); `written`, only the parts this process wrote marks to since the last pass
   * (`journalsWritten`), enough where it is the database's only writer and a pass with `all`
   * has read what earlier processes left.
   */
  journals?: 'all' | 'written';
}

export interface RecoveryReport {
  undone: number;
  finished: number;
  marksPulled: number;
  orphansReturned: number;
}

/** Orders in a transient hold: from the release notes, and with `scanOrders` from every order. */
async function transientOrders(scanOrders: boolean, cutoff: Date): Promise<OrderDoc[]> {
  const found = new Map<string, OrderDoc>();
  if (scanOrders) {
    for (const o of await OrderModel.find({ hold: { $in: ['reserving', 'releasing'] } }).lean<OrderDoc[]>()) {
      found.set(String(o._id), o);
    }
  }
  for (const note of await OrderReleaseModel.find({}).lean()) {
    if (found.has(note._id) || busy.has(note._id)) continue;
    const order = Types.ObjectId.isValid(note._id)
      ? await OrderModel.findById(note._id).lean<OrderDoc>()
      : null;
    if (order?.hold === 'releasing') found.set(note._id, order);
    else if (note.at <= cutoff) {
      // The release never claimed the order (paid, shipped or gone by then) or finished without
      // deleting its note: nothing to finish.
      await OrderReleaseModel.deleteOne({ _id: note._id });
    }
  }
  return [...found.values()];
}

/**
 * Finishes or undoes whatever a crash or outage left half done. Cheap when nothing is: it reads
 * the notes of releases in progress and the parts whose journal is not empty (and, with
 * `scanOrders`, every order once).
 */
export async function recoverOnce({
  graceMs,
  log,
  now = Date.now(),
  scanOrders = true,
  journals = 'all',
}: RecoveryOptions): Promise<RecoveryReport> {
  const report: RecoveryReport = { undone: 0, finished: 0, marksPulled: 0, orphansReturned: 0 };
  const cutoff = new Date(now - graceMs);
  for (const listed of await transientOrders(scanOrders, cutoff)) {
    const id = String(listed._id);
    if (busy.has(id) || (listed.updatedAt && listed.updatedAt > cutoff)) continue;
    await withOrderBusy(id, async () => {
      // Read again now that no request of this process can start on it: the list may be stale.
      const order = await OrderModel.findById(id).lean<OrderDoc>();
      if (!order || order.hold !== listed.hold) return;
      if (order.hold === 'reserving') {
        // Never acknowledged: give the pieces back if they were taken, then forget the order.
        await undoTake(order);
        await OrderModel.deleteOne({ _id: id, hold: 'reserving' });
        await openSlots().release(id);
        report.undone += 1;
        log?.warn(
          { orderId: id, partId: String(order.partId), quantity: order.quantity },
          'recovery: undid an unfinished order',
        );
      } else {
        await giveBack(order);
        await finishRelease(order);
        report.finished += 1;
        log?.warn(
          { orderId: id, to: order.releaseTo },
          'recovery: finished an unfinished cancellation/expiry',
        );
      }
    });
  }

  // Journal entries whose order has moved on are pulled; a `+id` whose order is gone without a
  // matching `-id` (undone by an earlier pass while another process's taking step was still in
  // flight, and that process died) gives its pieces back.
  const { parts, ids } = await journalsToRead(journals);
  try {
    await settleJournals(parts, cutoff, report, log);
  } catch (err) {
    // Read again by the next pass: the parts this one did not get through may hold dead marks.
    for (const id of ids) journalsWritten.add(id);
    throw err;
  }
  return report;
}

/** The journal half of the pass: each part's marks judged against their orders. */
async function settleJournals(
  parts: PartDoc[],
  cutoff: Date,
  report: RecoveryReport,
  log: Logger | undefined,
): Promise<void> {
  for (const part of parts) {
    const marks = part.journal ?? [];
    const pull: string[] = [];
    for (const mark of marks) {
      const parsed = parseMark(mark);
      if (!parsed) {
        pull.push(mark);
        continue;
      }
      const { sign, id, quantity } = parsed;
      if (busy.has(id)) continue;
      const order = await OrderModel.findById(id, { hold: 1, updatedAt: 1 }).lean<OrderDoc>();
      if (order && order.updatedAt && order.updatedAt > cutoff) continue;
      const placed = order && order.hold !== 'void';
      if (sign === '+') {
        if (placed && order.hold !== 'reserving') pull.push(mark);
        else if (!order && marks.includes(minusMark(id, quantity))) pull.push(mark);
        else if (!placed) {
          // Stock taken for an order that was never written: its request died between the two
          // placing steps, or (another process, shared database) is still between them. Only ids
          // older than the grace period; the tombstone makes a late insert fail (duplicate `_id`).
          if (!order) {
            if (idTime(id) > cutoff.getTime()) continue;
            // The journal was read before the order was looked up: a cancellation finishing in
            // between leaves it gone too. It wrote `-id` before deleting the order, so a journal
            // read now tells the two apart; without it, a tombstone would be written for a
            // cancelled order and stay there if the pass died before taking it away again.
            const stillTaken = await PartModel.exists({
              _id: part._id,
              journal: { $all: [mark], $nin: [minusMark(id, quantity)] },
            });
            if (!stillTaken || !(await voidOrder(id, part._id, quantity))) continue;
          }
          // Only if `-id` is still absent in the same update: a cancellation that completed
          // since the journal was read has already given these pieces back.
          const res = await PartModel.updateOne(
            { _id: part._id, journal: { $all: [mark], $nin: [minusMark(id, quantity)] } },
            { $inc: { availableQty: quantity }, $pull: { journal: mark } },
          );
          if (res.modifiedCount === 0) {
            // Nothing to give back after all (cancelled since the journal was read, or a crash
            // right after an earlier tombstone): no pieces of this id went back here, so no
            // insert needs barring, and a cancelled order must not leave a tombstone behind.
            await OrderModel.deleteOne({ _id: id, hold: 'void' });
            continue;
          }
          report.orphansReturned += 1;
          log?.error(
            { orderId: id, partId: String(part._id), quantity },
            'recovery: returned the stock of a vanished order',
          );
        }
      } else if (!order || order.hold !== 'releasing') {
        // `-id` goes only with (or after) its `+id`: a `+id` left alone would read as pieces
        // taken for an order that was never written, and be given back a second time.
        const plus = plusMark(id, quantity);
        if (!marks.includes(plus) || pull.includes(plus)) pull.push(mark);
      }
    }
    // Marks left for a later pass (busy, within the grace period): their part is read again then.
    if (pull.length < marks.length) journalsWritten.add(String(part._id));
    if (pull.length > 0) {
      await PartModel.updateOne({ _id: part._id }, { $pullAll: { journal: pull } });
      report.marksPulled += pull.length;
    }
  }
}

/** Ids per `_id: {$in}` read of journals. */
const JOURNAL_BATCH = 500;

/**
 * The parts with a journal that the pass reads (every one, or those written since the last pass),
 * with the ids it took off `journalsWritten` to read them.
 */
async function journalsToRead(which: 'all' | 'written'): Promise<{ parts: PartDoc[]; ids: string[] }> {
  const ids = [...journalsWritten];
  journalsWritten.clear();
  try {
    if (which === 'all') {
      const parts = await PartModel.find({ journal: { $gt: '' } }, { journal: 1 }).lean<PartDoc[]>();
      return { parts, ids };
    }
    const parts: PartDoc[] = [];
    const valid = ids.filter((id) => Types.ObjectId.isValid(id));
    for (let i = 0; i < valid.length; i += JOURNAL_BATCH) {
      const batch = valid.slice(i, i + JOURNAL_BATCH);
      parts.push(
        ...(await PartModel.find({ _id: { $in: batch }, journal: { $gt: '' } }, { journal: 1 }).lean<
          PartDoc[]
        >()),
      );
    }
    return { parts, ids };
  } catch (err) {
    for (const id of ids) journalsWritten.add(id);
    throw err;
  }
}
