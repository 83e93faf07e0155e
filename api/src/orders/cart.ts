import {
  ADMIN_CANNOT_ORDER,
  MAX_CART_LINES,
  type Cart,
  type CartLine,
  type CartProblemCode,
  unitPriceCentsOf,
} from '@motoparts/contracts';
import { Types } from 'mongoose';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import { toDollars } from '../lib/money';
import { ON_SALE, PartModel, type PartDoc } from '../parts/model';
import { CartModel, type CartDoc } from './model';

/**
 * The cart each customer keeps in the API (`_id` = uid), so it follows them across reloads,
 * sign-outs and devices. A line remembers the unit price it was added at: when the part's price
 * for that quantity changes, the line carries a `price` problem until the customer sets it again,
 * so nothing is charged that was not shown.
 */

const PROBLEMS: Record<CartProblemCode, (part: LinePart | undefined) => string> = {
  deleted: () => 'This part is no longer sold. Remove it to check out.',
  stock: (part) =>
    `Only ${part?.availableQty ?? 0} pieces are available now. Lower the quantity or remove the line.`,
  price: () => 'The price changed since you added it. Set the quantity again to accept the new price.',
};

/** The customers who may keep a cart: anyone signed in but an admin (the spec's alert). */
function assertCustomer(caller: Caller): void {
  if (caller.admin) throw AppError.forbidden(ADMIN_CANNOT_ORDER);
}

/**
 * What a cart line needs of its part.
 * The stock journal, description and mail outbox are left in the database: a part's journal holds
 * a marker per order in flight, and every checkout reads its lines' parts.
 */
export type LinePart = Omit<PartDoc, 'journal' | 'text' | 'outbox'>;

/** The parts of `ids`, by id, in one `_id: {$in}` read (answered from the `_id` index). */
export async function partsById(ids: string[]): Promise<Map<string, LinePart>> {
  const valid = ids.filter((id) => Types.ObjectId.isValid(id));
  const docs =
    valid.length > 0
      ? await PartModel.find({ _id: { $in: valid }, ...ON_SALE }, { journal: 0, text: 0, outbox: 0 }).lean<
          LinePart[]
        >()
      : [];
  return new Map(docs.map((d) => [String(d._id), d]));
}

/** What a stored line is now: its part's name, stock and price, and whether it can be checked out. */
export function cartLineOf(
  line: CartDoc['lines'][number],
  part: LinePart | undefined,
): CartLine & { unitPriceCents: number } {
  const unitPriceCents = part ? unitPriceCentsOf(part, line.quantity) : line.unitPriceCents;
  const problem: CartProblemCode | undefined = !part
    ? 'deleted'
    : part.availableQty < line.quantity
      ? 'stock'
      : unitPriceCents !== line.unitPriceCents
        ? 'price'
        : undefined;
  return {
    partId: line.partId,
    name: part?.name ?? 'A part no longer sold',
    img: part?.img ?? '',
    qty: line.quantity,
    minQty: part?.minOrderQty ?? line.quantity,
    availableQty: part?.availableQty ?? 0,
    unitPrice: toDollars(unitPriceCents),
    lineTotal: toDollars(unitPriceCents * line.quantity),
    unitPriceCents,
    ...(problem ? { problem: { code: problem, message: PROBLEMS[problem](part) } } : {}),
  };
}

/** GET /cart: every line as it is now, and the total of those that can be checked out. */
export async function getCart(caller: Caller): Promise<Cart> {
  assertCustomer(caller);
  const cart = await CartModel.findById(caller.uid).lean<CartDoc>();
  const lines = cart?.lines ?? [];
  const parts = await partsById(lines.map((l) => l.partId));
  const shown = lines.map((l) => cartLineOf(l, parts.get(l.partId)));
  const totalCents = shown.reduce((sum, l) => sum + l.unitPriceCents * l.qty, 0);
  return {
    lines: shown.map(({ unitPriceCents: _, ...line }) => line),
    total: toDollars(totalCents),
  };
}

type StoredLine = { partId: string; quantity: number; unitPriceCents: number };

/**
 * Changes the customer's cart with `change` (the lines as read → the lines to store): one
 * conditional write on the version read, retried when another request wrote in between, so two
 * tabs changing the cart at once both count. Plain updates only (the embedded FerretDB has no
 * positional operators).
 */
/** A cart as read, with the version a write of it is conditional on. */
type ReadCart = CartDoc & { v?: number };

/**
 * Writes `change` of the cart on the version it read, read again when another write came first.
 * `read` is the cart as the caller has just read it, saving the first read.
 */
async function updateCart(
  uid: string,
  change: (lines: StoredLine[]) => StoredLine[],
  read?: ReadCart | null,
): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const cart = attempt === 0 && read !== undefined ? read : await CartModel.findById(uid).lean<ReadCart>();
    const lines = change(cart?.lines ?? []);
    if (!cart) {
      try {
        await CartModel.create({ _id: uid, lines, v: 1 });
        return;
      } catch (err) {
        if ((err as { code?: unknown }).code === 11000) continue; // made meanwhile: read it again
        throw err;
      }
    }
    const v = cart.v ?? 0;
    const res = await CartModel.updateOne(
      { _id: uid, v: cart.v === undefined ? { $exists: false } : v },
      { $set: { lines, v: v + 1 } },
    );
    if (res.modifiedCount === 1 || res.matchedCount === 1) return;
  }
  throw AppError.unavailable('Your cart is changing in another window; try again.');
}

/**
 * PUT /cart/lines/:partId: sets the line to `quantity` pieces at today's price for that quantity, with
 * the spec's messages below the part's minimum and above its stock.
 */
export async function setCartLine(caller: Caller, partId: string, quantity: number): Promise<Cart> {
  assertCustomer(caller);
  const part = await PartModel.findOne({ _id: partId, ...ON_SALE }).lean<PartDoc>();
  if (!part) throw AppError.notFound('Part');
  if (quantity < part.minOrderQty) {
    throw AppError.badRequest(`Minimum purchase quantity is ${part.minOrderQty}`, [
      { path: 'qty', message: `must be at least ${part.minOrderQty}` },
    ]);
  }
  if (quantity > part.availableQty) {
    throw AppError.conflict('You have reach our available stocks', { availableQty: part.availableQty });
  }
  const line = { partId, quantity, unitPriceCents: unitPriceCentsOf(part, quantity) };
  let full = false;
  await updateCart(caller.uid, (lines) => {
    const at = lines.findIndex((l) => l.partId === partId);
    full = at < 0 && lines.length >= MAX_CART_LINES;
    if (full) return lines;
    return at < 0 ? [...lines, line] : lines.map((l, i) => (i === at ? line : l));
  });
  if (full) throw AppError.conflict(`Your cart is full: at most ${MAX_CART_LINES} lines.`);
  return getCart(caller);
}

/** DELETE /cart/lines/:partId */
export async function removeCartLine(caller: Caller, partId: string): Promise<Cart> {
  assertCustomer(caller);
  await updateCart(caller.uid, (lines) => lines.filter((l) => l.partId !== partId));
  return getCart(caller);
}

/** Puts lines back in the cart (Order again), each at today's price; lines it cannot take are left out. */
export async function refillCart(
  caller: Caller,
  lines: { partId: string; quantity: number }[],
): Promise<Cart> {
  assertCustomer(caller);
  for (const line of lines) {
    try {
      await setCartLine(caller, line.partId, line.quantity);
    } catch (err) {
      // A part gone, below its new minimum, short of stock or a full cart: the rest still go in.
      if (!(err instanceof AppError) || err.status >= 500) throw err;
    }
  }
  return getCart(caller);
}

/**
 * Takes out of the cart the lines a checkout placed (a line changed meanwhile stays), starting
 * from the cart as the checkout read it.
 */
export async function clearCheckedOut(
  uid: string,
  placed: { partId: string; quantity: number }[],
  read: ReadCart | null,
): Promise<void> {
  await updateCart(
    uid,
    (lines) => lines.filter((l) => !placed.some((p) => p.partId === l.partId && p.quantity === l.quantity)),
    read,
  );
}
