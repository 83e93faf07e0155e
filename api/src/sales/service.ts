import {
  MAX_HELD_ORDERS,
  MAX_LOW_STOCK,
  SALES_STATES,
  TOP_PARTS,
  type Sales,
  type SalesState,
} from '@motoparts/contracts';
import { toDollars } from '../lib/money';
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
  return (SALES_STATES as readonly string[]).includes(f.status) ? (f.status as SalesState) : 'pending';
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
  const paid = await src.reads.paidBetween(from, to);
  const placed = await src.reads.placedBetween(from, to);
  const holding = await src.reads.holding();
  const parts = await src.parts();
  const partById = new Map(parts.map((p) => [p._id, p]));
  const nameOf = (f: OrderFact) => partById.get(f.partId)?.name ?? f.name;

  const dayCents = new Array<number>(days).fill(0);
  const byPart = new Map<string, { name: string; qty: number; cents: number }>();
  for (const f of paid) {
    const day = dayIndex(window, f.paidAt);
    if (day < 0) continue;
    const cents = netCents(f);
    dayCents[day] = (dayCents[day] as number) + cents;
    const part = byPart.get(f.partId) ?? { name: nameOf(f), qty: 0, cents: 0 };
    // Pieces of an order whose whole amount went back were not sold.
    if (cents > 0) part.qty += f.qty;
    part.cents += cents;
    byPart.set(f.partId, part);
  }

  const ordersByStatus = Object.fromEntries(SALES_STATES.map((s) => [s, 0])) as Record<SalesState, number>;
  for (const f of placed) ordersByStatus[stateOf(f)] += 1;

  const topParts = [...byPart.entries()]
    .filter(([, p]) => p.cents > 0)
    .sort(([idA, a], [idB, b]) => b.cents - a.cents || b.qty - a.qty || (idA < idB ? -1 : 1))
    .slice(0, TOP_PARTS)
    .map(([partId, p]) => ({ partId, name: p.name, qty: p.qty, revenue: toDollars(p.cents) }));

  const low = parts
    .map((p) => ({ p, level: stockLevel(p, src.lowStockFactor) }))
    .filter((x): x is { p: PartStock; level: 'soldOut' | 'low' } => x.level !== 'ok')
    .sort(
      (a, b) =>
        (a.level === b.level ? 0 : a.level === 'soldOut' ? -1 : 1) ||
        a.p.availableQty / a.p.qty - b.p.availableQty / b.p.qty ||
        (a.p.name < b.p.name ? -1 : a.p.name > b.p.name ? 1 : 0),
    );

  const heldBy = new Map<string, { name: string; pieces: number; orders: OrderFact[] }>();
  for (const f of holding) {
    const part = heldBy.get(f.partId) ?? { name: nameOf(f), pieces: 0, orders: [] };
    part.pieces += f.qty;
    part.orders.push(f);
    heldBy.set(f.partId, part);
  }
  const held = [...heldBy.entries()]
    .sort(([idA, a], [idB, b]) => b.pieces - a.pieces || (idA < idB ? -1 : 1))
    .map(([partId, h]) => ({
      partId,
      name: h.name,
      pieces: h.pieces,
      orderCount: h.orders.length,
      orders: h.orders
        .sort((a, b) => a.placedAt - b.placedAt || (a.id < b.id ? -1 : 1))
        .slice(0, MAX_HELD_ORDERS)
        .map((f) => ({
          orderId: f.id,
          qty: f.qty,
          user: f.user,
          placedAt: new Date(f.placedAt).toISOString(),
          ...(f.checkoutId ? { checkoutId: f.checkoutId } : {}),
        })),
    }));

  return {
    days,
    timeZone: src.timeZone,
    revenueByDay: window.dates.map((date, i) => ({ date, revenue: toDollars(dayCents[i] as number) })),
    revenue: toDollars(dayCents.reduce((a, b) => a + b, 0)),
    ordersByStatus,
    topParts,
    lowStock: low.slice(0, MAX_LOW_STOCK).map(({ p, level }) => ({
      partId: p._id,
      name: p.name,
      availableQty: p.availableQty,
      minQty: p.qty,
      level,
    })),
    lowStockCount: low.length,
    held,
  };
}
