import { mailEntry, mailFields, withMail } from '../mail/outbox-model';
import {
  ADMIN_CANNOT_ORDER,
  type Checkout,
  type CheckoutInput,
  type CheckoutShortLine,
} from '@motoparts/contracts';
import { Types } from 'mongoose';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import type { Logger } from '../lib/logger';
import { toDollars } from '../lib/money';
import { UserModel } from '../users/model';
import { cartLineOf, clearCheckedOut, partsById } from './cart';
import {
  CartModel,
  CheckoutModel,
  CheckoutNoteModel,
  OrderModel,
  type CartDoc,
  type CheckoutDoc,
  type CheckoutDraft,
  type OrderDoc,
} from './model';
import { openSlots } from './open-slots';
import { capRefusal, holdCapOf, type OrderRules } from './rules';
import { forgetMarks, plusMark, releaseOrder, takeStocks, undoTake, withBusy, isBusy } from './stock';
import { toOrder } from './wire';

/*
 * A checkout places one spec Order per cart line, all or nothing, without transactions (the
 * embedded FerretDB has none): every step is one single-document update, and the checkout's own
 * document is the commit point.
 *
 *   place:   note with the checkout's draft → each line: the part's stock taken with `+orderId`
 *            (orders/stock.ts takeStocks) → checkout written `placed` (the commit) → each line's
 *            order written `held` → note and markers deleted later, in batches
 *            A line refused: every taken line given back (undoTake), note deleted, 409.
 *   pay:     note → checkout `placed` → `paid` (amount = total) → each line marked paid → note gone
 *   release: note → checkout `placed` → `releasing` → each line released as a single order is
 *            (cancel: deleted; expiry: kept as expired) → checkout `released` → note gone
 *
 * Paying and releasing both start from `placed` with one conditional update, so only one of them
 * happens. After a crash the recovery pass (`recoverCheckouts`, before the journal's) reads the
 * notes: a draft never committed is rolled back (its checkout written `failed` first, so a stalled
 * request's commit finds the id taken, then every `+orderId` given back), `placed` and `paid` are
 * rolled forward (missing orders written, payment marked), `releasing` is finished. So after
 * `kill -9` at any instant either every line exists with its stock taken or none does.
 */

type CheckoutRecord = CheckoutDoc & { _id: string };

const EMPTY_CART = 'Your cart is empty.';
const NOT_PLACED: Record<string, string> = {
  paid: 'This checkout is paid; it can no longer be cancelled.',
  releasing: 'This checkout is being cancelled or expiring.',
  released: 'This checkout has been cancelled or has expired.',
  failed: 'This checkout was not placed.',
  reserving: 'This checkout is still being placed.',
};

/** Writes the note of a move; false when the checkout is noted already. */
async function note(id: string, draft?: CheckoutDraft): Promise<boolean> {
  // A finished move's note may still wait for its batch: the new move keeps it.
  finished.delete(id);
  if (dropping?.ids.has(id)) await dropping.done.catch(() => undefined);
  try {
    await CheckoutNoteModel.create({ _id: id, at: new Date(), ...(draft ? { draft } : {}) });
    return true;
  } catch (err) {
    // Already noted (a move retried, or two racing): one note is enough.
    if ((err as { code?: unknown }).code !== 11000) throw err;
    return false;
  }
}
const dropNote = (id: string) => CheckoutNoteModel.deleteOne({ _id: id });

// ---- notes of finished moves: deleted in batches, as the journal's markers are ----

const finished = new Set<string>();
let dropping: { ids: Set<string>; done: Promise<void> } | undefined;
/** Notes per delete command. */
const DROP_BATCH = 500;

/** The move is over; its note goes with the next batch (a leftover note only costs recovery a look). */
function dropNoteLater(id: string): void {
  finished.add(id);
}

/** Deletes the notes of finished moves, a batch per command (the order jobs' flush calls it). */
export async function flushNotes(): Promise<void> {
  while (finished.size > 0) {
    if (dropping) {
      await dropping.done;
      continue;
    }
    const ids = new Set([...finished].slice(0, DROP_BATCH));
    for (const id of ids) finished.delete(id);
    const done = CheckoutNoteModel.deleteMany({ _id: { $in: [...ids] } }).then(
      () => undefined,
      (err: unknown) => {
        for (const id of ids) finished.add(id);
        throw err;
      },
    );
    dropping = { ids, done: done.finally(() => (dropping = undefined)) };
    await dropping.done;
  }
}

/** What the stock steps need of a line (orders/stock.ts). */
interface LineStock {
  orderId: string;
  partId: string;
  quantity: number;
}
const reservation = (line: LineStock) => ({
  _id: line.orderId,
  partId: line.partId,
  quantity: line.quantity,
});

/** The wire shape of a checkout and the orders it placed. */
export function toCheckout(
  doc: CheckoutRecord,
  orders: OrderDoc[],
  rules: Pick<OrderRules, 'holdMs'>,
): Checkout {
  const byId = new Map(orders.map((o) => [String(o._id), o]));
  const placedOrders = doc.lines.flatMap((l) => byId.get(l.orderId) ?? []);
  const status =
    doc.state === 'paid'
      ? 'paid'
      : doc.state === 'released' || doc.state === 'releasing'
        ? doc.releaseTo === 'expired'
          ? 'expired'
          : 'cancelled'
        : 'placed';
  const createdAt = doc.createdAt ? new Date(doc.createdAt).getTime() : undefined;
  return {
    checkoutId: doc._id,
    orders: placedOrders.map((o) => toOrder(o, rules)),
    total: toDollars(doc.totalCents),
    status,
    paid: doc.state === 'paid',
    ...(doc.transactionId ? { transactionId: doc.transactionId } : {}),
    address: doc.address,
    phone: doc.phone,
    ...(status === 'placed' && createdAt !== undefined
      ? { expiresAt: new Date(createdAt + rules.holdMs).toISOString() }
      : {}),
  };
}

async function ordersOf(doc: CheckoutRecord): Promise<OrderDoc[]> {
  return OrderModel.find({ _id: { $in: doc.lines.map((l) => l.orderId) } }).lean<OrderDoc[]>();
}

/** A line's spec Order as it is first written: held, unpaid unless the checkout is paid. */
function lineOrder(
  doc: CheckoutRecord,
  line: CheckoutDoc['lines'][number],
  paid?: { transactionId: string; paidAt: Date },
) {
  return {
    _id: line.orderId,
    partId: line.partId,
    uid: doc.uid,
    user: doc.user,
    userName: doc.userName ?? '',
    quantity: line.quantity,
    partName: line.partName,
    unitPriceCents: line.unitPriceCents,
    priceCents: line.priceCents,
    paid: paid !== undefined,
    ...(paid ?? {}),
    status: 'pending' as const,
    hold: 'held' as const,
    checkoutId: doc._id,
  };
}

/**
 * Writes the orders of a placed checkout that are not there yet: all in one command right after
 * this request's commit (`fresh`: none is written yet), else one by one, skipping those written
 * already (a crash after the commit, recovered by a later pass).
 */
async function writeLineOrders(
  doc: CheckoutRecord,
  paid?: { transactionId: string; paidAt: Date },
  { fresh = false } = {},
): Promise<OrderDoc[]> {
  const written = fresh
    ? (await OrderModel.insertMany(doc.lines.map((line) => lineOrder(doc, line, paid)))).map(
        (d) => d.toObject() as OrderDoc,
      )
    : [];
  for (const line of doc.lines) {
    if (!fresh) {
      try {
        await OrderModel.create(lineOrder(doc, line, paid));
      } catch (err) {
        // Written already (by the placing request, or an earlier recovery pass).
        if ((err as { code?: unknown }).code !== 11000) throw err;
      }
    }
    forgetMarks(line.partId, [plusMark(line.orderId, line.quantity)]);
  }
  return written;
}

/**
 * POST /checkout: the caller's cart, every line with its stock taken or none. A line that cannot
 * be checked out as it is (part gone, stock short, price changed since added) refuses the
 * checkout before anything is reserved; a line whose stock runs out while the others are taken
 * undoes them all. Both are a 409 naming each line. `retryOf` is the id an Idempotency-Key's
 * first attempt chose, for a retry to reuse; without it the checkout is new and nobody can have
 * placed it yet.
 */
export async function placeCheckout(
  caller: Caller,
  input: CheckoutInput,
  rules: OrderRules,
  retryOf?: string,
): Promise<Checkout> {
  if (caller.admin) throw AppError.forbidden(ADMIN_CANNOT_ORDER);
  const checkoutId = retryOf ?? new Types.ObjectId().toHexString();
  const earlier = retryOf ? await CheckoutModel.findById(retryOf).lean<CheckoutRecord>() : null;
  if (earlier) {
    // A retry under an Idempotency-Key whose first attempt got this far.
    if (earlier.uid !== caller.uid) throw AppError.conflict('This checkout id is taken.');
    if (earlier.state === 'reserving') throw stillPlacing();
    if (earlier.state === 'failed')
      throw AppError.conflict('This checkout was not placed: nothing was reserved.');
    return answerOf(earlier, rules);
  }
  const slots = openSlots();
  const cap = holdCapOf(caller, rules);
  return withBusy([checkoutId], async () => {
    // An open checkout is one hold against the cap, however many lines it has; the cap is
    // checked first, as for a single order.
    if (!(await slots.claim(caller.uid, checkoutId, cap))) {
      const { message, details } = capRefusal(caller, rules);
      throw AppError.conflict(message, details);
    }
    let placed = false;
    try {
      const cart = await CartModel.findById(caller.uid).lean<CartDoc>();
      const stored = cart?.lines ?? [];
      if (stored.length === 0) throw AppError.conflict(EMPTY_CART);
      const parts = await partsById(stored.map((l) => l.partId));
      const shown = stored.map((l) => cartLineOf(l, parts.get(l.partId)));
      const problems = shown.filter((l) => l.problem);
      if (problems.length > 0) {
        throw AppError.conflict(
          'Some lines of your cart cannot be checked out as they are: nothing was reserved.',
          {
            lines: problems.map((l) => ({
              partId: l.partId,
              requested: l.qty,
              availableQty: l.availableQty,
              problem: l.problem?.code,
            })),
          },
        );
      }
      const lines = shown.map((l) => ({
        orderId: new Types.ObjectId().toHexString(),
        partId: l.partId,
        partName: l.name,
        quantity: l.qty,
        unitPriceCents: l.unitPriceCents,
        priceCents: l.unitPriceCents * l.qty,
      }));
      const draft: CheckoutDraft = {
        uid: caller.uid,
        user: caller.email,
        userName: caller.name.slice(0, 120),
        lines,
        totalCents: lines.reduce((sum, l) => sum + l.priceCents, 0),
        address: input.address,
        phone: input.phone,
      };
      return await withBusy(
        lines.map((l) => l.orderId),
        async () => {
          // Noted already: an earlier attempt with this id is still placing it, or died doing so
          // and waits for the recovery pass to roll it back.
          if (!(await note(checkoutId, draft))) throw stillPlacing();
          const took = await takeStocks(lines.map(reservation));
          const taken = lines.filter((l) => took.has(l.orderId));
          const short = lines.filter((l) => !took.has(l.orderId));
          if (short.length > 0) {
            for (const line of taken) await undoTake(reservation(line));
            await dropNote(checkoutId);
            const now = await partsById(short.map((l) => l.partId));
            const shortLines: CheckoutShortLine[] = short.map((l) => ({
              partId: l.partId,
              requested: l.quantity,
              availableQty: now.get(l.partId)?.availableQty ?? 0,
            }));
            throw AppError.conflict('Not enough stock for every line: nothing was reserved.', {
              lines: shortLines,
            });
          }
          // The commit point: the checkout written, with the order mail queued in the same step.
          let commit: CheckoutRecord;
          try {
            const written = await CheckoutModel.create({
              _id: checkoutId,
              ...draft,
              state: 'placed',
              ...mailFields([mailEntry('placed')]),
            });
            commit = written.toObject() as CheckoutRecord;
          } catch (err) {
            if ((err as { code?: unknown }).code !== 11000) throw err;
            // A recovery pass took this request for dead: it wrote the id `failed` and gave back.
            throw AppError.unavailable('The checkout could not be completed. Please try again.');
          }
          const orders = await writeLineOrders(commit, undefined, { fresh: true });
          dropNoteLater(checkoutId);
          placed = true;
          await clearCheckedOut(caller.uid, lines, cart);
          // Offered again next time (the profile keeps the last delivery address and phone);
          // a repeat buyer's profile matches already and is not written.
          await UserModel.updateOne(
            { _id: caller.uid, $or: [{ address: { $ne: input.address } }, { phone: { $ne: input.phone } }] },
            { $set: { address: input.address, phone: input.phone } },
          );
          // The orders as just written are the answer: no read back.
          return toCheckout(commit, orders, rules);
        },
      );
    } finally {
      await slots.settle(caller.uid, checkoutId, placed, cap);
    }
  });
}

const stillPlacing = () => AppError.unavailable('The checkout is still being placed; try again.');

async function answerOf(doc: CheckoutRecord, rules: Pick<OrderRules, 'holdMs'>): Promise<Checkout> {
  return toCheckout(doc, await ordersOf(doc), rules);
}

/** A checkout the caller may see: their own, or any for an admin. */
export async function checkoutFor(
  caller: Caller,
  id: string,
  { adminMaySee = true } = {},
): Promise<CheckoutRecord> {
  const doc = await CheckoutModel.findById(id).lean<CheckoutRecord>();
  if (!doc || doc.state === 'failed' || doc.state === 'reserving') throw AppError.notFound('Checkout');
  if (doc.uid !== caller.uid && !(adminMaySee && caller.admin)) {
    throw AppError.forbidden('This checkout belongs to someone else.');
  }
  return doc;
}

/** GET /checkout/:id */
export async function getCheckout(
  caller: Caller,
  id: string,
  rules: Pick<OrderRules, 'holdMs'>,
): Promise<Checkout> {
  return answerOf(await checkoutFor(caller, id), rules);
}

/**
 * Marks a checkout paid, once, if the confirmed amount is its total: the checkout first (its one
 * conditional update decides against a cancel or expiry), then every line. Returns the checkout if
 * this call paid it.
 */
export async function markCheckoutPaid(
  id: string,
  amountCents: number,
  transactionId: string,
  eventId?: string,
): Promise<CheckoutRecord | undefined> {
  await note(id);
  const doc = await CheckoutModel.findOneAndUpdate(
    { _id: id, state: 'placed', totalCents: amountCents },
    withMail(
      {
        $set: {
          state: 'paid',
          transactionId,
          paidAt: new Date(),
          ...(eventId ? { paidEventId: eventId } : {}),
        },
      },
      [mailEntry('paid')],
    ),
    { new: true },
  ).lean<CheckoutRecord>();
  if (!doc) return undefined;
  await finishPaid(doc);
  return doc;
}

async function finishPaid(doc: CheckoutRecord): Promise<void> {
  const paid = { transactionId: doc.transactionId ?? '', paidAt: doc.paidAt ?? new Date() };
  await writeLineOrders(doc, paid);
  for (const line of doc.lines) {
    await OrderModel.updateOne({ _id: line.orderId, paid: false }, { $set: { paid: true, ...paid } });
  }
  await openSlots().release(doc._id);
  dropNoteLater(doc._id);
}

/**
 * Cancels or expires a placed, unpaid checkout: claims it (`releasing`), then releases every line
 * as a single order is released. False when it was not placed and unpaid any more.
 */
export async function releaseCheckout(
  id: string,
  to: 'cancelled' | 'expired',
  extraFilter: Record<string, unknown> = {},
): Promise<boolean> {
  return withBusy([id], async () => {
    await note(id);
    const claimed = await CheckoutModel.findOneAndUpdate(
      { _id: id, ...extraFilter, state: 'placed' },
      { $set: { state: 'releasing', releaseTo: to } },
      { new: true },
    ).lean<CheckoutRecord>();
    if (!claimed) return false;
    await finishRelease(claimed);
    return true;
  });
}

async function finishRelease(doc: CheckoutRecord): Promise<void> {
  const to = doc.releaseTo === 'expired' ? 'expired' : 'cancelled';
  await writeLineOrders(doc); // a crash right after the commit may have left some unwritten
  for (const line of doc.lines) await releaseOrder(line.orderId, to, { checkoutId: doc._id });
  await CheckoutModel.updateOne({ _id: doc._id, state: 'releasing' }, { $set: { state: 'released' } });
  await openSlots().release(doc._id);
  dropNoteLater(doc._id);
}

/** Settles a checkout's open payment at the provider before a release ('paid': it stays). */
export type SettleCheckout = (doc: CheckoutRecord) => Promise<'paid' | 'open'>;

/** DELETE /checkout/:id: the caller's own placed, unpaid checkout; its payment is settled first. */
export async function cancelCheckout(caller: Caller, id: string, settle: SettleCheckout): Promise<void> {
  // An admin may release an unpaid checkout's pieces too (the Overview's Release).
  const doc = await checkoutFor(caller, id);
  if (doc.state !== 'placed')
    throw AppError.conflict(NOT_PLACED[doc.state] ?? 'This checkout cannot be cancelled.');
  if ((await settle(doc)) === 'paid') {
    throw AppError.conflict('This checkout was paid meanwhile, so it stays and will be shipped.');
  }
  if (!(await releaseCheckout(id, 'cancelled', caller.admin ? {} : { uid: caller.uid }))) {
    const now = await CheckoutModel.findById(id).lean<CheckoutRecord>();
    throw AppError.conflict(NOT_PLACED[now?.state ?? 'released'] ?? 'The checkout changed meanwhile.');
  }
}

/**
 * Expires a checkout whose hold ran out (the expiry pass, for its first due line), unless its
 * payment is under way (`extended`, asked about the checkout's PaymentIntent).
 */
export async function expireCheckout(
  id: string,
  settle: SettleCheckout,
  extended: (paymentId: string) => Promise<boolean> = async () => false,
): Promise<boolean> {
  const doc = await CheckoutModel.findById(id).lean<CheckoutRecord>();
  if (!doc || doc.state !== 'placed') return false;
  if (doc.paymentIntentId && (await extended(doc.paymentIntentId))) return false;
  if ((await settle(doc)) === 'paid') return false;
  return releaseCheckout(id, 'expired');
}

export interface CheckoutRecoveryReport {
  rolledBack: number;
  rolledForward: number;
  released: number;
}

/**
 * Finishes or undoes the checkouts a crash interrupted, from their notes; runs before the
 * journal's pass, so a committed checkout's lines are written before their `+orderId` markers are
 * judged. Checkouts a request of this process is placing are left alone, and with a shared
 * database those noted within `graceMs` (another process may be placing them).
 */
export async function recoverCheckouts({
  graceMs,
  log,
  now = Date.now(),
}: {
  graceMs: number;
  log?: Logger;
  now?: number;
}): Promise<CheckoutRecoveryReport> {
  const report: CheckoutRecoveryReport = { rolledBack: 0, rolledForward: 0, released: 0 };
  const cutoff = now - graceMs;
  for (const n of await CheckoutNoteModel.find({}).lean()) {
    if (isBusy(n._id) || finished.has(n._id) || n.at.getTime() > cutoff) continue;
    await withBusy([n._id], async () => {
      let doc = await CheckoutModel.findById(n._id).lean<CheckoutRecord>();
      if (!doc && n.draft) {
        if (n.draft.lines.some((l) => isBusy(l.orderId))) return;
        // Never committed: written `failed` first, so a request still running cannot commit it
        // now, then every line taken is given back.
        try {
          await CheckoutModel.create({ _id: n._id, ...n.draft, state: 'failed' });
          for (const line of n.draft.lines) await undoTake(reservation(line));
          report.rolledBack += 1;
          log?.warn({ checkoutId: n._id }, 'recovery: rolled back an unfinished checkout');
          await dropNote(n._id);
          return;
        } catch (err) {
          // Committed meanwhile: finished below as what it is now.
          if ((err as { code?: unknown }).code !== 11000) throw err;
          doc = await CheckoutModel.findById(n._id).lean<CheckoutRecord>();
        }
      }
      if (doc?.lines.some((l) => isBusy(l.orderId))) return;
      if (!doc || doc.state === 'failed' || doc.state === 'released') {
        await dropNote(n._id);
        return;
      }
      if (doc.state === 'reserving') {
        // Written first by an earlier version and never committed: failed first, so a request
        // still running cannot commit it now.
        const failed = await CheckoutModel.updateOne(
          { _id: doc._id, state: 'reserving' },
          { $set: { state: 'failed' } },
        );
        if (failed.modifiedCount === 1) {
          for (const line of doc.lines) await undoTake(reservation(line));
          report.rolledBack += 1;
          log?.warn({ checkoutId: doc._id }, 'recovery: rolled back an unfinished checkout');
        }
        await dropNote(doc._id);
      } else if (doc.state === 'placed') {
        await writeLineOrders(doc);
        await dropNote(doc._id);
        report.rolledForward += 1;
      } else if (doc.state === 'paid') {
        await finishPaid(doc);
        report.rolledForward += 1;
      } else if (doc.state === 'releasing') {
        await finishRelease(doc);
        report.released += 1;
        log?.warn({ checkoutId: doc._id, to: doc.releaseTo }, 'recovery: finished a checkout release');
      }
    });
  }
  return report;
}
