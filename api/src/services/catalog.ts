import { isInStock, type Part, type PartListQuery } from '@motoparts/contracts';
import { AppError } from '../errors';
import { onPartWrite, type WriteScope } from '../lib/catalog-cache';
import { PartModel, type PartDoc } from '../models/part';
import { escapeRegex, listParts, getPart, searchWords, toPart } from './parts';

/**
 * The whole catalogue in memory, for GET /parts and GET /parts/:id. Why: the embedded FerretDB
 * (SQLite backend) pushes neither filters, sorts nor counts down to SQLite, so at 10,000 parts
 * every page costs a full scan for the find and another for the count (~0.6 s each, on the one
 * connection everything else shares). One scan loads the catalogue; pages, searches and totals
 * are then computed here with MongoDB's semantics (binary string order, `_id` tie-break,
 * case-insensitive literal substring), and stay correct through writes:
 * - create, delete, rename, reprice, anything multi-document → the snapshot is dropped (reload);
 * - a stock or minimum-quantity change of one part → that part is re-read by `_id` before the
 *   next read is answered (a reader never sees a part older than the writes that finished before
 *   it arrived).
 * Bigger catalogues than MAX_PARTS fall back to the per-page database queries.
 */
const MAX_PARTS = 50_000;

type SortKey = NonNullable<PartListQuery['sort']> | '_id';

interface Entry {
  part: Part;
  /** UTF-8 bytes of the name: MongoDB's default (binary) string order compares these. */
  nameKey: Buffer;
  priceCents: number;
}

interface Snapshot {
  byId: Map<string, Entry>;
  sorted: Map<SortKey, Entry[]>;
  /** Generation when its scan began: every write whose hook ran before is in it. */
  asOf: number;
  /** Clock time of that scan, for the TTL. */
  loadedAt: number;
  /** Parts re-read since: id → generation when that read began. */
  seen: Map<string, number>;
  refreshing?: Promise<void>;
}

const byId = (a: Entry, b: Entry) => (a.part._id < b.part._id ? -1 : a.part._id > b.part._id ? 1 : 0);
const COMPARE: Record<SortKey, (a: Entry, b: Entry) => number> = {
  _id: byId,
  name: (a, b) => Buffer.compare(a.nameKey, b.nameKey) || byId(a, b),
  '-name': (a, b) => Buffer.compare(b.nameKey, a.nameKey) || byId(a, b),
  price: (a, b) => a.priceCents - b.priceCents || byId(a, b),
  '-price': (a, b) => b.priceCents - a.priceCents || byId(a, b),
  newest: (a, b) => byId(b, a),
};

function entryOf(doc: PartDoc): Entry {
  return { part: toPart(doc), nameKey: Buffer.from(doc.name), priceCents: doc.priceCents };
}

class PartCatalog {
  /** Same meaning as CATALOG_CACHE_TTL_MS: 0 = off (database per request), Infinity = until invalidated. */
  private ttlMs = 0;
  private snapshot: Snapshot | undefined;
  /** The catalogue is bigger than MAX_PARTS: use the database until the next full invalidation. */
  private tooBig = false;
  private loading: Promise<void> | undefined;
  private generation = 0;
  private clearedAt = 0;
  /** Parts changed in place (stock, minimum quantity) → generation of the latest change. */
  private readonly dirty = new Map<string, number>();

  configure(ttlMs: number): void {
    this.ttlMs = ttlMs;
    this.invalidate('all');
  }

  invalidate(scope: WriteScope): void {
    const gen = ++this.generation;
    if (scope === 'all') {
      this.clearedAt = gen;
      this.snapshot = undefined;
      this.loading = undefined; // a scan that began before this write must not become current
      this.tooBig = false;
      this.dirty.clear();
      return;
    }
    for (const id of scope.ids) this.dirty.set(id.toLowerCase(), gen);
  }

  /**
   * Loads the catalogue and sorts it in every list order now, so that no shopper's request pays
   * for the scan (the server does this before it reports ready). A no-op with the cache off.
   */
  async warm(): Promise<void> {
    const snap = await this.current();
    if (!snap) return;
    for (const key of Object.keys(COMPARE) as SortKey[]) {
      if (!snap.sorted.has(key)) snap.sorted.set(key, [...snap.byId.values()].sort(COMPARE[key]));
    }
  }

  /** The current snapshot, reflecting every write whose hook ran before this call; undefined = too big. */
  private async current(): Promise<Snapshot | undefined> {
    if (this.ttlMs <= 0) return undefined;
    const arrival = this.generation;
    for (;;) {
      const snap = this.snapshot;
      // Other processes' writes (several API instances on one MongoDB) show after the TTL.
      if (snap && Date.now() - snap.loadedAt >= this.ttlMs) this.invalidate('all');
      if (!this.snapshot) {
        if (this.tooBig) return undefined;
        if (!this.loading) {
          const pending = this.load();
          const done = () => {
            if (this.loading === pending) this.loading = undefined;
          };
          pending.then(done, done);
          this.loading = pending;
        }
        await this.loading;
        continue;
      }
      if (!snap) continue;
      if (this.staleIds(snap, arrival).length === 0) return snap;
      if (!snap.refreshing) {
        const pending = this.refresh(snap);
        const done = () => {
          if (snap.refreshing === pending) snap.refreshing = undefined;
        };
        pending.then(done, done);
        snap.refreshing = pending;
      }
      await snap.refreshing;
    }
  }

  private staleIds(snap: Snapshot, upTo: number): string[] {
    const ids: string[] = [];
    for (const [id, gen] of this.dirty) {
      if (gen <= upTo && gen > (snap.seen.get(id) ?? snap.asOf)) ids.push(id);
    }
    return ids;
  }

  private async load(): Promise<void> {
    const startedAt = this.generation;
    const loadedAt = Date.now();
    const docs = await PartModel.find({})
      .limit(MAX_PARTS + 1)
      .lean<PartDoc[]>();
    if (this.clearedAt > startedAt) return; // a create/delete landed meanwhile: callers load again
    if (docs.length > MAX_PARTS) {
      this.tooBig = true;
      return;
    }
    this.snapshot = {
      byId: new Map(docs.map((d) => [String(d._id), entryOf(d)])),
      sorted: new Map(),
      asOf: startedAt,
      loadedAt,
      seen: new Map(),
    };
    for (const [id, gen] of this.dirty) if (gen <= startedAt) this.dirty.delete(id);
  }

  /** Re-reads the parts changed in place; by `_id` one by one (FerretDB scans for `$in`). */
  private async refresh(snap: Snapshot): Promise<void> {
    const startedAt = this.generation;
    const ids = this.staleIds(snap, startedAt);
    const docs = await Promise.all(ids.map((id) => PartModel.findById(id).lean<PartDoc>()));
    if (this.snapshot !== snap) return;
    for (const [i, id] of ids.entries()) {
      const doc = docs[i];
      const old = snap.byId.get(id);
      if (!doc || !old || doc.name !== old.part.name || doc.priceCents !== old.priceCents) {
        // Appeared, vanished or moved in a sort order behind the hooks' back: start over.
        this.invalidate('all');
        return;
      }
      // Same position in every order: update in place (the sorted arrays share the entry).
      old.part = toPart(doc);
      snap.seen.set(id, startedAt);
      if ((this.dirty.get(id) ?? 0) <= startedAt) {
        this.dirty.delete(id);
        snap.seen.delete(id);
      }
    }
  }

  async list(query: PartListQuery): Promise<{ items: Part[]; total: number }> {
    const snap = await this.current();
    if (!snap) return listParts(query);
    const sortKey: SortKey = query.sort ?? '_id';
    let sorted = snap.sorted.get(sortKey);
    if (!sorted) {
      sorted = [...snap.byId.values()].sort(COMPARE[sortKey]);
      snap.sorted.set(sortKey, sorted);
    }
    // Same as the database filter (services/parts.ts listFilter): every search word a
    // case-insensitive literal substring of the name or the description, the category, and
    // stock ≥ the minimum order.
    const words = searchWords(query.q).map((w) => new RegExp(escapeRegex(w), 'iu'));
    const { category, inStock } = query;
    const matches =
      words.length > 0 || category || inStock !== undefined
        ? sorted.filter(
            (e) =>
              // The cheap field checks first; the regex only runs on what they keep.
              (!category || e.part.category === category) &&
              (inStock === undefined || isInStock(e.part) === inStock) &&
              words.every((re) => re.test(e.part.name) || re.test(e.part.text)),
          )
        : sorted;
    const start = (query.page - 1) * query.limit;
    return { items: matches.slice(start, start + query.limit).map((e) => e.part), total: matches.length };
  }

  async get(id: string): Promise<Part> {
    const snap = await this.current();
    if (!snap) return getPart(id);
    const entry = snap.byId.get(id.toLowerCase());
    if (!entry) throw AppError.notFound('Part');
    return entry.part;
  }
}

export const partCatalog = new PartCatalog();
onPartWrite((scope) => partCatalog.invalidate(scope));
