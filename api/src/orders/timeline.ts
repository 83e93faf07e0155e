import { isListed, OrderModel, orderChanges, type OrderChange, type OrderDoc } from './model';

/** Newest first, `_id` descending on ties: the order of GET /orders (`{createdAt: -1, _id: -1}`). */
interface Entry {
  /** `createdAt` in ms (0 without one, which MongoDB also sorts last). */
  t: number;
  id: string;
}

const before = (a: Entry, b: Entry) => a.t > b.t || (a.t === b.t && a.id > b.id);
const timeOf = (at: Date | string | null | undefined) => (at ? new Date(at).getTime() : 0);

/**
 * The admin's list of every order, newest first, kept in memory on the embedded FerretDB: there a
 * sorted page (and its count) reads and decodes all the orders through the API's one connection,
 * while a page of known ids is one `_id: {$in}` read that its `_id` index answers. Read in one pass
 * when first needed, then kept by the order model's hooks (orders/model.ts): a saved order goes in,
 * a deleted or hidden one goes out, and a write they cannot narrow down drops the list until the
 * next read. This process is the embedded database's only writer (docs/architecture.md); an order
 * found missing or hidden when its page is read is also dropped, and the page read again.
 */
export class OrderTimeline {
  private entries: Entry[] | null = null;
  private times = new Map<string, number>();
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
   * Pages read since the last change, so admins paging an unchanged list read nothing again. A
   * change in place (status, payment) drops only the pages holding that order; any other, all.
   */
  private pages = new Map<string, { docs: OrderDoc[]; total: number }>();

  constructor() {
    orderChanges.subscribe((change) => this.apply(change));
  }

  /** Reads the list now (at start-up, so the first admin page does not wait for the pass). */
  async warm(): Promise<void> {
    await this.sorted();
  }

  private apply(change: OrderChange): void {
    this.version++;
    if (change.kind !== 'unknown') this.touched.set(change.id, this.version);
    if (change.kind === 'updated') {
      for (const [key, page] of this.pages) {
        if (page.docs.some((d) => String(d._id) === change.id)) this.pages.delete(key);
      }
    } else this.pages.clear();
    this.duringLoad?.push(change);
    if (!this.entries) return;
    switch (change.kind) {
      case 'unknown':
        this.entries = null;
        this.times.clear();
        this.open.clear();
        this.touched.clear();
        return;
      case 'removed':
        this.remove(change.id);
        return;
      case 'hold':
        if (!isListed(change.hold)) this.remove(change.id);
        else if (this.times.has(change.id)) this.open.add(change.id);
        return;
      case 'updated':
        if (this.times.has(change.id)) this.open.add(change.id);
        return;
      case 'saved':
        this.remove(change.id);
        if (isListed(change.hold)) {
          this.insert({ t: timeOf(change.createdAt), id: change.id });
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
      if (before(entries[mid] as Entry, entry)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(entry: Entry): void {
    if (!this.entries) return;
    this.entries.splice(this.position(this.entries, entry), 0, entry);
    this.times.set(entry.id, entry.t);
  }

  private remove(id: string): void {
    const t = this.times.get(id);
    if (!this.entries || t === undefined) return;
    const at = this.position(this.entries, { t, id });
    if (this.entries[at]?.id === id) this.entries.splice(at, 1);
    this.times.delete(id);
    this.open.delete(id);
  }

  /**
   * Ids of listed orders placed at or before `cutoff` that may still be unpaid and pending, with
   * the list's version to hand back to `settle`; null while the list is not read (the caller then
   * asks the database).
   */
  dueCandidates(cutoff: number): { ids: string[]; version: number } | null {
    if (!this.entries) return null;
    const ids: string[] = [];
    for (const id of this.open) if ((this.times.get(id) ?? Infinity) <= cutoff) ids.push(id);
    return { ids, version: this.version };
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
    this.loading ??= (async () => {
      this.duringLoad = [];
      let docs: Pick<OrderDoc, '_id' | 'createdAt' | 'hold' | 'paid' | 'status'>[];
      try {
        docs = await OrderModel.find({}, { createdAt: 1, hold: 1, paid: 1, status: 1 }).lean();
      } catch (err) {
        this.duringLoad = null;
        throw err;
      }
      const listed = docs.filter((d) => isListed(d.hold));
      const entries = listed
        .map((d) => ({ t: timeOf(d.createdAt), id: String(d._id) }))
        .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
      // Writes during the pass are replayed on what it read (each change says what it did, and
      // applying one the pass already saw changes nothing), so a busy shop still gets its list;
      // only a change the hooks could not narrow down leaves it to the next read.
      const changes = this.duringLoad;
      this.duringLoad = null;
      if (changes.some((c) => c.kind === 'unknown')) return entries;
      this.entries = entries;
      this.loadedAt = Date.now();
      this.times = new Map(entries.map((e) => [e.id, e.t]));
      this.open = new Set(
        listed.filter((d) => d.paid === false && d.status === 'pending').map((d) => String(d._id)),
      );
      for (const change of changes) this.apply(change);
      return this.entries;
    })().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** One page of the listed orders, newest first, and how many there are. */
  async page(page: number, limit: number): Promise<{ docs: OrderDoc[]; total: number }> {
    const key = `${page}:${limit}`;
    const kept = this.pages.get(key);
    if (kept) return kept;
    const version = this.version;
    const answer = await this.read(page, limit);
    // Kept only if no write ran meanwhile; at most 50 pages (5,000 orders at 100 a page).
    if (version === this.version) {
      if (this.pages.size >= 50) this.pages.clear();
      this.pages.set(key, answer);
    }
    return answer;
  }

  private async read(page: number, limit: number): Promise<{ docs: OrderDoc[]; total: number }> {
    // A few rounds at most: each drops what it found gone; a last short page is still correct.
    for (let round = 0; ; round++) {
      const entries = await this.sorted();
      const slice = entries.slice((page - 1) * limit, page * limit);
      const ids = slice.map((e) => e.id);
      const docs = ids.length ? await OrderModel.find({ _id: { $in: ids } }).lean<OrderDoc[]>() : [];
      const byId = new Map(docs.map((d) => [String(d._id), d]));
      const gone = ids.filter((id) => !isListed(byId.get(id)?.hold ?? 'void'));
      if (gone.length === 0 || entries !== this.entries || round === 4) {
        return {
          docs: ids.map((id) => byId.get(id)).filter((d): d is OrderDoc => !!d && isListed(d.hold)),
          total: entries.length,
        };
      }
      // Deleted or hidden by a write no hook saw: out of the list, and the page read again.
      for (const id of gone) this.remove(id);
    }
  }
}

let timeline: OrderTimeline | undefined;

/** The process's one timeline (the embedded database has one writer: this process). */
export function orderTimeline(): OrderTimeline {
  timeline ??= new OrderTimeline();
  return timeline;
}
