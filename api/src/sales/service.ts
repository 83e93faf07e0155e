import {
  MAX_HELD_ORDERS,
  MAX_HELD_PARTS,
  MAX_LOW_STOCK,
  SALES_STATES,
  TOP_PARTS,
  type Sales,
  type SalesState,
} from '@motoparts/contracts';
import { toDollars } from '../lib/money';
import { orderChanges } from '../orders/model';
import { partWrites } from '../parts/model';
import { dayIndex, shopDays } from '../lib/shop-days';
import type { PartStock } from '../parts/catalogue';
import { stockLevel } from '../parts/stock-alerts';
import type { OrderFact } from './facts';
import type { SalesReads } from './read-models';

export interface SalesSources {
  reads: SalesReads;
  /** Every part's name and stock (parts/catalogue.ts). */
  parts: () => Promise<PartStock[]>;
  timeZone: string;
  lowStockFactor: number;
}

/** An order's money that stayed with the shop: what was paid less what went back (cents). */
const netCents = (f: OrderFact) => f.priceCents - f.refundedCents;

/** Where an order stands, as the Overview counts it. */
function stateOf(f: OrderFact): SalesState {
  if (!f.paid && f.status === 'pending') return 'unpaid';
  return STATES.has(f.status) ? (f.status as SalesState) : 'pending';
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const STATES = new Set<string>(SALES_STATES);

/**
 * The first `k` of `items` in `order` (those `keep` accepts), without sorting them all: thousands
 * of parts sell in a window, ten are listed.
 */
function firstOf<T>(
  items: Iterable<T>,
  k: number,
  order: (a: T, b: T) => number,
  keep?: (t: T) => boolean,
): T[] {
  const best: T[] = [];
  for (const item of items) {
    if (keep && !keep(item)) continue;
    if (best.length === k && order(item, best[k - 1] as T) >= 0) continue;
    let i = best.length;
    while (i > 0 && order(item, best[i - 1] as T) < 0) i--;
    best.splice(i, 0, item);
    if (best.length > k) best.pop();
  }
  return best;
}

/**
 * GET /sales: the last `days` days of the shop's time zone, today included. Revenue is exact:
 * summed in integer cents, per day of payment, each order net of its refunds (whenever those came),
 * and turned into dollars once per figure.
 */
export async function salesOverview(src: SalesSources, days: number, now = Date.now()): Promise<Sales> {
  const window = shopDays(now, days, src.timeZone);
  const from = window.bounds[0] as number;
  const to = window.bounds[window.bounds.length - 1] as number;
  const { paid, placed, holding } = await src.reads.window(from, to);

  const dayCents = new Array<number>(days).fill(0);
  const sold = new Map<string, { name: string; quantity: number; cents: number }>();
  for (const f of paid) {
    const day = dayIndex(window, f.paidAt);
    if (day < 0) continue;
    const cents = netCents(f);
    dayCents[day] = (dayCents[day] as number) + cents;
    let part = sold.get(f.partId);
    if (!part) sold.set(f.partId, (part = { name: f.name, quantity: 0, cents: 0 }));
    // Pieces of an order whose whole amount went back were not sold.
    if (cents > 0) part.quantity += f.quantity;
    part.cents += cents;
  }
  const top = firstOf(
    sold.entries(),
    TOP_PARTS,
    ([idA, a], [idB, b]) => b.cents - a.cents || b.quantity - a.quantity || byName(idA, idB),
    ([, p]) => p.cents > 0,
  );

  const ordersByStatus = Object.fromEntries(SALES_STATES.map((s) => [s, 0])) as Record<SalesState, number>;
  for (const f of placed) ordersByStatus[stateOf(f)] += 1;

  const heldBy = new Map<string, { name: string; pieces: number; orders: OrderFact[] }>();
  for (const f of holding) {
    let part = heldBy.get(f.partId);
    if (!part) heldBy.set(f.partId, (part = { name: f.name, pieces: 0, orders: [] }));
    part.pieces += f.quantity;
    part.orders.push(f);
  }
  const held = firstOf(
    heldBy.entries(),
    MAX_HELD_PARTS,
    ([idA, a], [idB, b]) => b.pieces - a.pieces || byName(idA, idB),
  );

  // One pass over the catalogue: the parts to restock, and today's names of the parts listed
  // (the orders keep the name a part had when ordered).
  const names = new Map<string, string>();
  for (const [id] of top) names.set(id, '');
  for (const [id] of held) names.set(id, '');
  const low: { p: PartStock; level: 'soldOut' | 'low' }[] = [];
  for (const p of await src.parts()) {
    if (names.has(p._id)) names.set(p._id, p.name);
    const level = stockLevel(p.availableQty, p.qty, src.lowStockFactor);
    if (level !== 'ok') low.push({ p, level });
  }
  low.sort(
    (a, b) =>
      (a.level === b.level ? 0 : a.level === 'soldOut' ? -1 : 1) ||
      a.p.availableQty / a.p.qty - b.p.availableQty / b.p.qty ||
      byName(a.p.name, b.p.name),
  );
  const nameOf = (id: string, ordered: string) => names.get(id) || ordered;

  return {
    days,
    timeZone: src.timeZone,
    revenueByDay: window.dates.map((date, i) => ({ date, revenue: toDollars(dayCents[i] as number) })),
    revenue: toDollars(dayCents.reduce((a, b) => a + b, 0)),
    ordersByStatus,
    topParts: top.map(([partId, p]) => ({
      partId,
      name: nameOf(partId, p.name),
      qty: p.quantity,
      revenue: toDollars(p.cents),
    })),
    lowStock: low.slice(0, MAX_LOW_STOCK).map(({ p, level }) => ({
      partId: p._id,
      name: p.name,
      availableQty: p.availableQty,
      minQty: p.qty,
      level,
    })),
    lowStockCount: low.length,
    held: held.map(([partId, h]) => ({
      partId,
      name: nameOf(partId, h.name),
      pieces: h.pieces,
      orderCount: h.orders.length,
      orders: h.orders
        .sort((a, b) => a.placedAt - b.placedAt || byName(a.id, b.id))
        .slice(0, MAX_HELD_ORDERS)
        .map((f) => ({
          orderId: f.id,
          qty: f.quantity,
          user: f.user,
          placedAt: new Date(f.placedAt).toISOString(),
          ...(f.checkoutId ? { checkoutId: f.checkoutId } : {}),
        })),
    })),
    heldCount: heldBy.size,
  };
}

/** Windows whose answers are kept at once (30 and 90 days are what the page asks for). */
const KEPT_WINDOWS = 8;

/**
 * GET /sales's answers, kept per window while nothing they are made of changes: with the memory
 * read models this process sees every write (it is the embedded database's only writer), so any
 * order or part written drops them all, and a new shop day starts a new window. With the database
 * read models (several processes share the data) every request computes its answer.
 */
export class SalesAnswers {
  private readonly kept = new Map<number, { start: number; version: number; answer: Sales }>();
  private version = 0;

  constructor(
    private readonly src: SalesSources,
    private readonly keep: boolean,
  ) {
    if (!keep) return;
    const changed = () => {
      this.version++;
      this.kept.clear();
    };
    orderChanges.subscribe(changed);
    partWrites.subscribe(changed);
  }

  async answer(days: number, now = Date.now()): Promise<Sales> {
    if (!this.keep) return salesOverview(this.src, days, now);
    const start = shopDays(now, days, this.src.timeZone).bounds[0] as number;
    const kept = this.kept.get(days);
    if (kept && kept.version === this.version && kept.start === start) return kept.answer;
    const version = this.version;
    const answer = await salesOverview(this.src, days, now);
    // Kept only if nothing changed while it was computed.
    if (version === this.version) {
      if (this.kept.size >= KEPT_WINDOWS) this.kept.clear();
      this.kept.set(days, { start, version, answer });
    }
    return answer;
  }
}
