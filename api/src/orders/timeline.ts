import { LRUCache } from 'lru-cache';
import { cacheBytes } from '../lib/cache-budget';
import {
  isListed,
  isOpen,
  OrderModel,
  orderChanges,
  type OrderChange,
  type OrderDoc,
  type OrderRow,
} from './model';

/**
 * An order's place in the list. GET /orders reads newest first, `_id` descending on ties
 * (`{createdAt: -1, _id: -1}`); the list is kept the other way round, oldest first, so a new order
 * goes on the end instead of moving 50,000 entries along.
 */
interface Entry {
  /** `createdAt` in ms (0 without one, which MongoDB also sorts last). */
  t: number;
  id: string;
  /** Whose order it is (orders of the email-keyed era have no uid until claimed). */
  uid?: string | null;
  /** The checkout it is a line of: the open-order cap counts one hold for all its lines. */
  c?: string | null;
}

/** What a read learns of the changes made while it ran. */
interface Changed {
  ids: Set<string>;
  /** A change the hooks could not narrow down. */
  all: boolean;
}

/**
 * What one kept row weighs against its share of the cache budget: ≈ 0.4 KB (its repeated texts
 * are shared, `shared` below), so the default share keeps the newest ≈ 60,000.
 */
export const ROW_BYTES = 400;
/** Orders per batch of the whole-collection read. */
const LOAD_BATCH = 500;
/** Ids per `_id: {$in}` read: the embedded FerretDB answers up to 500 from its index. */
const IN_BATCH = 500;
/** Rounds of dropping orders found changed behind the API's back before an answer stands. */
const LAST_ROUND = 4;

/**
 * One copy of each repeated text of the rows (part ids and names, customers' emails and names,
 * statuses): 50,000 orders hold a few thousand distinct ones, so the rows take about half the
 * memory. Emptied when full, which only costs copies.
 */
const texts = new Map<string, string>();
function shared<T extends string | null | undefined>(text: T): T {
  if (typeof text !== 'string') return text;
  const kept = texts.get(text);
  if (kept !== undefined) return kept as T;
  if (texts.size >= 50_000) texts.clear();
  texts.set(text, text);
  return text;
}

/** An order's row: what its answer needs, ids as strings (an ObjectId costs ten times more). */
function rowOf(doc: OrderDoc, id = String(doc._id)): OrderRow {
  const row: OrderRow = {
    _id: id,
    partId: shared(String(doc.partId)),
    partName: shared(doc.partName),
    user: shared(doc.user),
    userName: shared(doc.userName),
    quantity: doc.quantity,
    priceCents: doc.priceCents,
    paid: doc.paid,
    status: shared(doc.status),
    // As a number: 50,000 Date objects were a twentieth of the API's heap.
    createdAt: doc.createdAt?.getTime(),
    hold: shared(doc.hold),
    uid: shared(doc.uid),
  };
  if (doc.transactionId) row.transactionId = doc.transactionId;
  if (doc.checkoutId) row.checkoutId = doc.checkoutId;
  if (doc.paidAt) row.paidAt = doc.paidAt.getTime();
  if (doc.carrier) row.carrier = doc.carrier;
  if (doc.trackingNumber) row.trackingNumber = doc.trackingNumber;
  if (doc.refundedCents) row.refundedCents = doc.refundedCents;
  if (doc.history?.length) row.history = doc.history;
  return row;
}

/** Whether `a` is listed after `b` (GET /orders's order), so comes before it in `entries`. */
const older = (a: Entry, b: Entry) => a.t < b.t || (a.t === b.t && a.id < b.id);
const timeOf = (at: Date | string | null | undefined) => (at ? new Date(at).getTime() : 0);

/**
 * The admin's list of every order, newest first, kept in memory on the embedded FerretDB: there a
 * sorted page (and its count) reads and decodes all the orders through the API's one connection,
 * and even a page of known ids (one `_id: {$in}` read) takes ≈ 10 ms there, so twenty admins at
 * once queue behind each other. So the list keeps every listed order's answer as well (its row,
 * ≈ 0.4 KB; the newest that its share of the cache budget holds), and a page is made from memory. It also knows each
 * customer's orders (My Order): a filter on `uid` reads every order there too, and a list of ids
 * per customer kept in the database cost a write per order placed, which grew with the customer's
 * orders (the whole list is read and written again each time).
 *
 * Read in one pass (batch by batch) at start, then kept by the order model's hooks
 * (orders/model.ts): a saved order goes in, a deleted or hidden one goes out, a changed one's row
 * is dropped until its page is read again, and a write they cannot narrow down drops it all. This
 * process is the embedded database's only writer (docs/architecture.md). What an operator writes
 * behind its back shows after the hourly re-read (`refresh`, which the expiry pass runs) or a
 * restart; an order whose row is not kept and that is found missing or hidden is dropped at once.
 */
export class OrderTimeline {
  /** Oldest first (see Entry). */
  private entries: Entry[] | null = null;
  /** The entries by order id. */
  private byId = new Map<string, Entry>();
  /** Each customer's listed orders (uid → order ids), in no order. */
  private customers = new Map<string, Set<string>>();
  /**
   * Listed orders that may be unpaid and pending, for the expiry pass: a superset (a change in
   * place puts its order back, and the pass reads each candidate before acting on it).
   */
  private open = new Set<string>();
  /** Orders changed since the expiry pass last read them: id → the version of the change. */
  private touched = new Map<string, number>();
  /** Bumped by every change (the expiry pass's reads are stamped with it). */
  private version = 0;
  private loading: Promise<Entry[]> | undefined;
  /** When the list was last read from the whole collection (ms; 0 while not read). */
  loadedAt = 0;
  /** Changes that arrive while the list is being read, replayed on it once read. */
  private duringLoad: OrderChange[] | null = null;
  /**
   * The listed orders' rows by id: dropped by a change to that order, read again when needed.
   * Read with `peek`: which rows stay is decided by when they were kept (the load keeps the newest
   * last), and a read's bookkeeping was an eighth of an admin page's CPU.
   */
  private rows: LRUCache<string, OrderRow>;
  /** Reads running now, each told which orders changed while it ran (their rows are not kept). */
  private readonly reads = new Set<Changed>();

  constructor({ maxBytes = cacheBytes('orderRows') }: { maxBytes?: number } = {}) {
    this.rows = new LRUCache<string, OrderRow>({ maxSize: maxBytes, sizeCalculation: () => ROW_BYTES });
    orderChanges.subscribe((change) => this.apply(change));
  }

  /** Reads the list now (at start-up, so the first admin page does not wait for the pass). */
  async warm(): Promise<void> {
    await this.sorted();
  }

  /** Reads the whole collection again: what a write no hook saw did shows from then on. */
  async refresh(): Promise<void> {
    this.loading ??= this.load();
    await this.loading;
  }

  private apply(change: OrderChange): void {
    this.version++;
    // Rows are keyed as ObjectIds print (lower case); a filter may have spelled the id otherwise.
    const rowId = change.kind === 'unknown' ? '' : change.id.toLowerCase();
    if (change.kind === 'unknown') this.rows.clear();
    else {
      this.touched.set(change.id, this.version);
      this.rows.delete(rowId);
    }
    for (const read of this.reads) {
      if (change.kind === 'unknown') read.all = true;
      else read.ids.add(rowId);
    }
    this.duringLoad?.push(change);
    if (!this.entries) return;
    switch (change.kind) {
      case 'unknown':
        this.entries = null;
        this.byId.clear();
        this.customers.clear();
        this.open.clear();
        this.touched.clear();
        return;
      case 'removed':
        this.remove(change.id);
        return;
      case 'hold':
        if (!isListed(change.hold)) this.remove(change.id);
        else if (this.byId.has(change.id)) this.open.add(change.id);
        return;
      case 'updated':
        if (this.byId.has(change.id)) this.open.add(change.id);
        return;
      case 'saved':
        this.remove(change.id);
        if (isListed(change.hold)) {
          this.insert({
            t: timeOf(change.createdAt),
            id: change.id,
            uid: shared(change.uid),
            c: change.checkoutId,
          });
          if (change.open) this.open.add(change.id);
        }
        return;
    }
  }

  /** Where `entry` is or would go (binary search over the sort order). */
  private position(entries: Entry[], entry: Entry): number {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (older(entries[mid] as Entry, entry)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(entry: Entry): void {
    if (!this.entries) return;
    this.entries.splice(this.position(this.entries, entry), 0, entry);
    this.index(entry);
  }

  /** Files an entry under its id and its customer. */
  private index(entry: Entry): void {
    this.byId.set(entry.id, entry);
    if (!entry.uid) return;
    let ids = this.customers.get(entry.uid);
    if (!ids) this.customers.set(entry.uid, (ids = new Set()));
    ids.add(entry.id);
  }

  private remove(id: string): void {
    const entry = this.byId.get(id);
    if (!this.entries || entry === undefined) return;
    const at = this.position(this.entries, entry);
    if (this.entries[at]?.id === id) this.entries.splice(at, 1);
    this.byId.delete(id);
    this.open.delete(id);
    this.unfile(entry);
  }

  /** Takes an entry out of its customer's orders. */
  private unfile(entry: Entry): void {
    const ids = entry.uid ? this.customers.get(entry.uid) : undefined;
    ids?.delete(entry.id);
    if (entry.uid && ids?.size === 0) this.customers.delete(entry.uid);
  }

  /**
   * Ids of listed orders placed at or before `cutoff` that may still be unpaid and pending, with
   * the list's version to hand back to `settle`; null while the list is not read (the caller then
   * asks the database).
   */
  dueCandidates(cutoff: number): { ids: string[]; version: number } | null {
    if (!this.entries) return null;
    const ids: string[] = [];
    for (const id of this.open) if ((this.byId.get(id)?.t ?? Infinity) <= cutoff) ids.push(id);
    return { ids, version: this.version };
  }

  /**
   * The customer's listed orders that may be unpaid and pending (a superset: see `open`); null
   * while the list is not read.
   */
  maybeOpenOrdersOf(uid: string): string[] | null {
    if (!this.entries) return null;
    return [...(this.customers.get(uid) ?? [])].filter((id) => this.open.has(id));
  }

  /** The hold an order counts as against the cap: its checkout's, or its own. */
  holdOf(id: string): string {
    return this.byId.get(id)?.c ?? id;
  }

  /**
   * Which of the customer's orders `ids` are open, from their rows (kept, or read by `_id`). Those
   * found closed leave the expiry candidates too, unless a write changed them while they were read.
   */
  async openAmong(uid: string, ids: string[]): Promise<Set<string>> {
    const read = this.watch();
    try {
      const { rows } = await this.rowsOf(await this.sorted(), ids, LAST_ROUND, uid);
      const open = new Set(rows.filter((row) => isOpen(row)).map((row) => String(row._id)));
      for (const id of ids) {
        if (!open.has(id) && !read.all && !read.ids.has(id)) this.open.delete(id);
      }
      return open;
    } finally {
      this.reads.delete(read);
    }
  }

  /**
   * The expiry pass read these (at `version`) and found them not due: forget those that nothing
   * changed since. Only one pass runs at a time, so older marks are done with.
   */
  settle(ids: string[], version: number): void {
    for (const id of ids) if ((this.touched.get(id) ?? 0) <= version) this.open.delete(id);
    for (const [id, v] of this.touched) if (v <= version) this.touched.delete(id);
  }

  private sorted(): Promise<Entry[]> {
    if (this.entries) return Promise.resolve(this.entries);
    this.loading ??= this.load();
    return this.loading;
  }

  /** Starts telling a read which orders change while it runs. */
  private watch(): Changed {
    const read = { ids: new Set<string>(), all: false };
    this.reads.add(read);
    return read;
  }

  /**
   * Reads every order, batch by batch (other requests' queries go between the batches on the one
   * connection), into a new list, rows and expiry candidates.
   */
  private async load(): Promise<Entry[]> {
    this.duringLoad = [];
    const read = this.watch();
    const entries: Entry[] = [];
    const open = new Set<string>();
    try {
      const cursor = OrderModel.find({}).lean<OrderDoc>().cursor({ batchSize: LOAD_BATCH });
      for await (const doc of cursor as AsyncIterable<OrderDoc>) {
        if (!isListed(doc.hold)) continue;
        const id = String(doc._id);
        entries.push({ t: timeOf(doc.createdAt), id, uid: shared(doc.uid), c: doc.checkoutId });
        if (doc.paid === false && doc.status === 'pending') open.add(id);
        // Straight into the kept rows (no second copy of 50,000 of them at once); those of orders
        // changed meanwhile are dropped below. Read oldest first, so the newest stay when full.
        this.rows.set(id, rowOf(doc, id));
      }
    } catch (err) {
      this.duringLoad = null;
      throw err;
    } finally {
      this.reads.delete(read);
      this.loading = undefined;
    }
    entries.sort((a, b) => (older(a, b) ? -1 : older(b, a) ? 1 : 0));
    // Writes during the pass are replayed on what it read (each change says what it did, and
    // applying one the pass already saw changes nothing), so a busy shop still gets its list;
    // only a change the hooks could not narrow down leaves it to the next read.
    const changes = this.duringLoad;
    this.duringLoad = null;
    if (read.all) {
      this.rows.clear();
      return entries;
    }
    for (const id of read.ids) this.rows.delete(id);
    this.entries = entries;
    this.loadedAt = Date.now();
    this.byId = new Map();
    this.customers = new Map();
    for (const entry of entries) this.index(entry);
    this.open = open;
    for (const change of changes) this.apply(change);
    return entries;
  }

  /** A listed order's row, if it is kept (GET /order/:id answers from it). */
  row(id: string): OrderRow | undefined {
    return this.entries ? this.rows.peek(id.toLowerCase()) : undefined;
  }

  /** One page of the listed orders, newest first, and how many there are. */
  async page(page: number, limit: number): Promise<{ docs: OrderRow[]; total: number }> {
    // A few rounds at most: each drops what it found gone; a last short page is still correct.
    for (let round = 0; ; round++) {
      const entries = await this.sorted();
      // Newest first: the i-th listed order is the i-th from the end.
      const ids: string[] = [];
      for (let i = (page - 1) * limit; i < Math.min(page * limit, entries.length); i++) {
        ids.push((entries[entries.length - 1 - i] as Entry).id);
      }
      const { rows, done } = await this.rowsOf(entries, ids, round);
      if (done) return { docs: rows, total: entries.length };
    }
  }

  /**
   * The listed orders `match` keeps, newest first (Manage Order's filters and its export): the
   * rows as for a page, of every listed order (those not kept are read by `_id`), or of the one
   * order `id` when the search names one. At 50,000 orders whose rows are kept, a pass over them
   * in memory; the embedded database could only read every order for it.
   */
  async matching(match: (row: OrderRow) => boolean, id?: string): Promise<OrderRow[]> {
    for (let round = 0; ; round++) {
      const entries = await this.sorted();
      let ids: string[];
      if (id !== undefined) ids = this.byId.has(id) ? [id] : [];
      else {
        ids = new Array<string>(entries.length);
        for (let i = 0; i < entries.length; i++) ids[i] = (entries[entries.length - 1 - i] as Entry).id;
      }
      const { rows, done } = await this.rowsOf(entries, ids, round);
      if (done) return rows.filter(match);
    }
  }

  /**
   * A customer's listed orders, newest first (GET /order?user= on the embedded database): their
   * ids from memory, their rows as for a page. An order found to be someone else's (its uid set
   * behind the API's back) is filed under its owner and left out.
   */
  async ordersOf(uid: string): Promise<OrderRow[]> {
    for (let round = 0; ; round++) {
      const entries = await this.sorted();
      const mine = [...(this.customers.get(uid) ?? [])].map((id) => this.byId.get(id) as Entry);
      const ids = mine.sort((a, b) => (older(a, b) ? 1 : older(b, a) ? -1 : 0)).map((e) => e.id);
      const { rows, done } = await this.rowsOf(entries, ids, round, uid);
      if (done) return rows;
    }
  }

  /**
   * The rows of listed orders, kept or read by `_id` (those read are kept unless a write changed
   * them meanwhile). Ids found deleted or hidden (or, with `uid`, someone else's) were changed by a
   * write no hook saw: they leave the list (or that customer's orders), and `done` says false so
   * the caller reads its ids again; after a few rounds, or once the list was read anew meanwhile,
   * what is left is the answer.
   */
  private async rowsOf(
    entries: Entry[],
    ids: string[],
    round: number,
    uid?: string,
  ): Promise<{ rows: OrderRow[]; done: boolean }> {
    const found = new Map<string, OrderRow>();
    const missing: string[] = [];
    for (const id of ids) {
      const row = this.rows.peek(id);
      if (row) found.set(id, row);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const read = this.watch();
      try {
        for (let i = 0; i < missing.length; i += IN_BATCH) {
          const batch = missing.slice(i, i + IN_BATCH);
          for (const doc of await OrderModel.find({ _id: { $in: batch } }).lean<OrderDoc[]>()) {
            const id = String(doc._id);
            const row = rowOf(doc, id);
            found.set(id, row);
            // Kept only if nothing changed the order while it was being read.
            if (isListed(row.hold) && !read.all && !read.ids.has(id)) this.rows.set(id, row);
          }
        }
      } finally {
        this.reads.delete(read);
      }
    }
    const listed = (row: OrderRow | undefined): row is OrderRow =>
      !!row && isListed(row.hold) && (uid === undefined || row.uid === uid);
    const gone = ids.filter((id) => !listed(found.get(id)));
    if (gone.length === 0 || entries !== this.entries || round >= LAST_ROUND) {
      return { rows: ids.map((id) => found.get(id)).filter(listed), done: true };
    }
    for (const id of gone) {
      const row = found.get(id);
      const entry = this.byId.get(id);
      if (!row || !isListed(row.hold) || !entry) this.remove(id);
      else {
        this.unfile(entry);
        entry.uid = shared(row.uid);
        this.index(entry);
      }
    }
    return { rows: [], done: false };
  }
}

let timeline: OrderTimeline | undefined;

/** The process's one timeline (the embedded database has one writer: this process). */
export function orderTimeline(): OrderTimeline {
  timeline ??= new OrderTimeline();
  return timeline;
}
