import { objectIdSchema, type Order, type OrderFilter } from '@motoparts/contracts';
import { cacheBytes } from '../lib/cache-budget';
import { build, CatalogCache, type CachedJson } from '../lib/catalog-cache';
import {
  addLegacyOrderIds,
  DataChangeModel,
  HIDDEN_HOLDS,
  LegacyOrdersModel,
  OrderModel,
  orderChanges,
  type OrderDoc,
  type OrderRow,
} from './model';
import type { OrderRules } from './rules';
import { toOrder } from './wire';
import { orderTimeline } from './timeline';

/**
 * The orders' lists, one interface with two implementations chosen once per app (read-models.ts
 * at the top of src): `DatabaseOrderReads` asks the database, as a MongoDB deployment does, where
 * every query is an index lookup and several API processes share the data; `MemoryOrderReads`
 * answers from the in-memory order list (orders/timeline.ts), for the embedded FerretDB, where a
 * sorted page, a count or a filter on `uid` reads every order through the one connection and this
 * process is the only writer. Both give the same answers (customer-orders.test.ts,
 * embedded-lists.test.ts), and the API suite runs with each.
 */
export interface OrderReads {
  /** The admin's list: every listed order the filter keeps, newest first, and how many there are. */
  listAll(page: number, limit: number, filter?: OrderFilter): Promise<{ items: Order[]; total: number }>;
  /** Every listed order the filter keeps, newest first, one at a time (Manage Order's export). */
  listAllRows(filter: OrderFilter): AsyncIterable<OrderRow>;
  /** My Order: one account's orders, newest first, as the answer's body, ETag and total. */
  listOf(uid: string, page: number, limit: number): Promise<CachedJson>;
  /** An order's row when this model keeps it in memory (GET /order/:id); undefined otherwise. */
  row(id: string): OrderRow | undefined;
  /** Unpaid pending orders placed at or before `cutoff` (the expiry pass). */
  dueOrders(cutoff: number): Promise<OrderDoc[]>;
  /** Orders placed under `email` before accounts were keyed by uid, not claimed yet. */
  legacyOrderIds(email: string): Promise<string[]>;
  /** Those orders now have their account: the address's list, if one is kept, goes. */
  legacyClaimed(email: string): Promise<void>;
  /** Reads what it keeps, before the server reports ready. */
  warm(): Promise<void>;
}

const VISIBLE = { hold: { $nin: HIDDEN_HOLDS } };
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** The search of Manage Order: an order's id, or else the buyer's address (lower case, whole). */
const searchOf = (q: string | undefined) =>
  !q ? {} : objectIdSchema.safeParse(q).success ? { id: q } : { email: q };

/**
 * Manage Order's filters as a query. A status alone is asked as `paid: {$in: [false, true]}`, so
 * the `{paid, status, createdAt, _id}` index serves it as well (MongoDB merges the two ranges in
 * list order) and one index covers every filter but the search (api/INDEXES.md).
 */
export function orderFilterQuery(filter: OrderFilter = {}): Record<string, unknown> {
  const { id, email } = searchOf(filter.q);
  return {
    ...VISIBLE,
    ...(id ? { _id: id } : {}),
    ...(email ? { user: email } : {}),
    ...(filter.paid !== undefined
      ? { paid: filter.paid }
      : filter.status && !id && !email
        ? { paid: { $in: [false, true] } }
        : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
}

/** The same filters for a kept row (MemoryOrderReads); undefined when nothing is filtered. */
export function orderFilterMatch(filter: OrderFilter = {}): ((row: OrderRow) => boolean) | undefined {
  const { id, email } = searchOf(filter.q);
  const { status, paid } = filter;
  if (!id && !email && !status && paid === undefined) return undefined;
  return (row) =>
    (!id || String(row._id) === id) &&
    (!email || row.user === email) &&
    (paid === undefined || row.paid === paid) &&
    (!status || row.status === status);
}

const dueQuery = (cutoff: number) =>
  OrderModel.find({ paid: false, status: 'pending', createdAt: { $lte: new Date(cutoff) } }).lean<
    OrderDoc[]
  >();

/** A list's answer (body and ETag) made now, not kept. */
function answerOf(items: Order[], total: number): CachedJson {
  return build({ value: items, total }, Date.now());
}

/** The orders' lists as database queries (MongoDB's indexes answer them: api/INDEXES.md). */
export class DatabaseOrderReads implements OrderReads {
  constructor(private readonly rules: Pick<OrderRules, 'holdMs'>) {}

  private async pageOf(filter: object, page: number, limit: number) {
    const [docs, total] = await Promise.all([
      OrderModel.find(filter)
        .sort(NEWEST_FIRST)
        .skip((page - 1) * limit)
        .limit(limit)
        .lean<OrderDoc[]>(),
      OrderModel.countDocuments(filter),
    ]);
    return { items: docs.map((d) => toOrder(d, this.rules)), total };
  }

  listAll(page: number, limit: number, filter?: OrderFilter): Promise<{ items: Order[]; total: number }> {
    return this.pageOf(orderFilterQuery(filter), page, limit);
  }

  async *listAllRows(filter: OrderFilter): AsyncIterable<OrderRow> {
    const cursor = OrderModel.find(orderFilterQuery(filter))
      .sort(NEWEST_FIRST)
      .lean<OrderDoc>()
      .cursor({ batchSize: 500 });
    for await (const doc of cursor as AsyncIterable<OrderDoc>) yield doc;
  }

  async listOf(uid: string, page: number, limit: number): Promise<CachedJson> {
    const { items, total } = await this.pageOf({ uid, ...VISIBLE }, page, limit);
    return answerOf(items, total);
  }

  row(): undefined {
    return undefined;
  }

  dueOrders(cutoff: number): Promise<OrderDoc[]> {
    return dueQuery(cutoff);
  }

  async legacyOrderIds(email: string): Promise<string[]> {
    const docs = await OrderModel.find({ user: email, uid: { $exists: false } }, { _id: 1 }).lean();
    return docs.map((o) => String(o._id));
  }

  async legacyClaimed(): Promise<void> {}

  async warm(): Promise<void> {}
}

const LEGACY_LISTS = 'legacy-order-lists';
let listsReady: Promise<void> | undefined;

/**
 * Fills, once per database, the list that stands in for a filter the embedded FerretDB cannot
 * answer without reading every order: the email-keyed era's unclaimed orders by address (the
 * first verified sign-in of that address claims them). Until it is done no list is read.
 */
function orderListsReady(): Promise<void> {
  listsReady ??= (async () => {
    if (await DataChangeModel.exists({ _id: LEGACY_LISTS })) return;
    const byEmail = new Map<string, string[]>();
    const orders = await OrderModel.find({}, { uid: 1, user: 1 }).lean<
      Pick<OrderDoc, '_id' | 'uid' | 'user'>[]
    >();
    for (const o of orders) {
      if (o.uid) continue;
      const ids = byEmail.get(o.user) ?? [];
      ids.push(String(o._id));
      byEmail.set(o.user, ids);
    }
    for (const [email, ids] of byEmail) await addLegacyOrderIds(email, ids);
    await DataChangeModel.updateOne({ _id: LEGACY_LISTS }, { doneAt: new Date() }, { upsert: true });
  })().catch((err: unknown) => {
    listsReady = undefined; // try again on the next read
    throw err;
  });
  return listsReady;
}

/** How often the in-memory expiry candidates are checked against a read of every order anyway. */
const FULL_EXPIRY_SCAN_MS = 60 * 60_000;

// The cache compares ids lower-cased (two uids differing in case only drop each other's pages).
const customerTag = (uid: string) => `customer:${uid.toLowerCase()}`;

/**
 * The orders' lists from the in-memory order list (orders/timeline.ts, one per process: the
 * embedded database has one writer). My Order's answers are made once per customer and page: a
 * row the list does not keep is an `_id: {$in}` read, and the JSON and ETag are made once. An
 * answer lists the customer's order ids, so the order model's hooks drop it when one of them
 * changes, when the customer places an order, or on any write they cannot narrow down.
 */
export class MemoryOrderReads implements OrderReads {
  private readonly pages = new CatalogCache({ ttlMs: Infinity, maxBytes: cacheBytes('orderPages') });

  constructor(private readonly rules: Pick<OrderRules, 'holdMs'>) {
    orderChanges.subscribe((change) => {
      if (change.kind === 'unknown') this.pages.invalidate('all');
      else if (change.kind === 'saved') {
        this.pages.invalidate({ ids: change.uid ? [change.id, customerTag(change.uid)] : [change.id] });
      } else this.pages.invalidate({ ids: [change.id] });
    });
  }

  async listAll(
    page: number,
    limit: number,
    filter?: OrderFilter,
  ): Promise<{ items: Order[]; total: number }> {
    const match = orderFilterMatch(filter);
    if (!match) {
      const { docs, total } = await orderTimeline().page(page, limit);
      return { items: docs.map((d) => toOrder(d, this.rules)), total };
    }
    const rows = await orderTimeline().matching(match, searchOf(filter?.q).id);
    return {
      items: rows.slice((page - 1) * limit, page * limit).map((d) => toOrder(d, this.rules)),
      total: rows.length,
    };
  }

  async *listAllRows(filter: OrderFilter): AsyncIterable<OrderRow> {
    const match = orderFilterMatch(filter);
    yield* await orderTimeline().matching(match ?? (() => true), searchOf(filter.q).id);
  }

  listOf(uid: string, page: number, limit: number): Promise<CachedJson> {
    return this.pages.get(`${uid}:${page}:${limit}`, async () => {
      const docs = await orderTimeline().ordersOf(uid);
      return {
        value: docs.slice((page - 1) * limit, page * limit).map((d) => toOrder(d, this.rules)),
        total: docs.length,
        ids: [customerTag(uid), ...docs.map((d) => String(d._id))],
      };
    });
  }

  row(id: string): OrderRow | undefined {
    return orderTimeline().row(id);
  }

  /**
   * Only the candidates the list keeps are read, by `_id` (the query reads every order there:
   * ≈ 1.5 s at 50,000, with every other request queued behind it). Once an hour the list reads the
   * whole collection again, batch by batch so other requests go between the batches: a safety net
   * for an order written behind the API's back, which no hook saw.
   */
  async dueOrders(cutoff: number): Promise<OrderDoc[]> {
    const timeline = orderTimeline();
    // Read once if the list is not yet (the server reads it at start); a list read from the whole
    // collection within the hour is as good as a full scan.
    await timeline.warm();
    if (Date.now() - timeline.loadedAt >= FULL_EXPIRY_SCAN_MS) await timeline.refresh();
    const candidates = timeline.dueCandidates(cutoff);
    // Dropped again meanwhile by a write the hooks could not narrow down: ask the database.
    if (!candidates) return dueQuery(cutoff);
    const due: OrderDoc[] = [];
    const notDue: string[] = [];
    for (let i = 0; i < candidates.ids.length; i += 500) {
      const batch = candidates.ids.slice(i, i + 500);
      const docs = await OrderModel.find({ _id: { $in: batch } }).lean<OrderDoc[]>();
      const byId = new Map(docs.map((d) => [String(d._id), d]));
      for (const id of batch) {
        const d = byId.get(id);
        const isDue =
          d?.paid === false &&
          d.status === 'pending' &&
          !!d.createdAt &&
          new Date(d.createdAt).getTime() <= cutoff;
        if (isDue) due.push(d);
        else notDue.push(id);
      }
    }
    timeline.settle(notDue, candidates.version);
    return due;
  }

  async legacyOrderIds(email: string): Promise<string[]> {
    await orderListsReady();
    return (await LegacyOrdersModel.findById(email).lean())?.ids ?? [];
  }

  async legacyClaimed(email: string): Promise<void> {
    await LegacyOrdersModel.deleteOne({ _id: email });
  }

  async warm(): Promise<void> {
    // The first verified sign-in of an address claims the orders placed under it before accounts
    // existed, from lists by address filled once per database (`orderListsReady`).
    await orderListsReady();
    await orderTimeline().warm();
  }
}
