import type { Part, PartFacets, PartListQuery } from '@motoparts/contracts';
import { LRUCache } from 'lru-cache';
import { AppError } from '../lib/app-error';
import { cacheBytes } from '../lib/cache-budget';
import { build, CatalogCache, type CachedJson } from '../lib/catalog-cache';
import { catalogCacheTtlMs, type Env } from '../lib/env';
import { keptPageOf } from '../lib/paging';
import type { WriteScope } from '../lib/write-feed';
import { ON_SALE, PartModel, partWrites, type PartDoc } from './model';
import { compareRanks, SearchIndex, wordsOf, type Rank, type Searchable } from './search-index';
import {
  comparatorOf,
  countFacets,
  filterOf,
  getPart,
  listParts,
  sortKeyOf,
  toPart,
  type SortFields,
  type SortKey,
} from './service';

/**
 * The catalogue's one cache, for GET /parts and GET /parts/:id: the whole catalogue in memory (a
 * snapshot) and, on top of it, the answers computed from it (body, ETag, total; the CatalogCache
 * it extends). Both follow one generation protocol and one invalidation path: the parts model's
 * write feed calls `invalidate` after every write.
 *
 * Why a snapshot: the embedded FerretDB (SQLite backend) pushes neither filters, sorts nor counts
 * down to SQLite, so at 10,000 parts every page costs a full scan for the find and another for
 * the count (~0.6 s each, on the one connection everything else shares). One scan loads the
 * catalogue; pages, searches and totals are then computed here with MongoDB's semantics (binary
 * string order, `_id` tie-break, case-insensitive literal substring), and stay correct through
 * writes:
 * - create, delete, rename, reprice, anything multi-document → snapshot and answers are dropped;
 * - a stock or minimum-quantity change of one part → the answers holding it are dropped and the
 *   part is re-read by `_id` before the next read is answered (a reader never sees a part older
 *   than the writes that finished before it arrived).
 * A search (`q`) goes through the search index (parts/search-index.ts), which every snapshot
 * updates part by part: a scan (at start, after a create or delete, at each TTL) indexes only the
 * parts whose words changed, and drops those gone.
 * Catalogues bigger than MAX_PARTS are read page by page from the database (answers still cached);
 * a search there is the database's: every word a literal substring (no typos, no ranking).
 * One instance per app (createApp's dependencies); the server warms it before reporting ready.
 */
const MAX_PARTS = 50_000;

/** A part's stock as the Overview reads it. */
export type PartStock = Pick<Part, '_id' | 'name' | 'qty' | 'availableQty'>;

interface Entry extends SortFields {
  part: Part;
  /**
   * GET /parts/:id's answer, made from `part` the first time it is asked for (or at warm-up) and
   * dropped whenever the part changes. Kept here rather than among the list pages' answers: there
   * it competed for their room, and the pages a shopper browses pushed out the parts he then opens
   * (a bench/api profile of random `/parts/:id` reads found part of them re-made every time). So
   * every part of the snapshot can have its answer, as many as the catalogue has parts.
   */
  answer: CachedJson | undefined;
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

/** Whether the change of part `id` at generation `gen` came after the snapshot last read it. */
function changedSinceRead(snap: Snapshot, id: string, gen: number): boolean {
  return gen > (snap.seen.get(id) ?? snap.asOf);
}

const SORT_KEYS: SortKey[] = ['_id', 'name', '-name', 'price', '-price', 'newest'];

const searchableOf = (doc: PartDoc): Searchable => ({ id: String(doc._id), name: doc.name, text: doc.text });

function entryOf(doc: PartDoc): Entry {
  const part = toPart(doc);
  return {
    part,
    _id: part._id,
    nameKey: Buffer.from(doc.name),
    priceCents: doc.priceCents,
    answer: undefined,
  };
}

/**
 * What decides a list's answer besides its page, as a cache key: a search is its normalized words
 * in order (joined neighbours match, so the order counts), each once, so spellings of one query
 * share an entry. q last: it is the only free text.
 * Remembered per parsed query (the parsed queries of the hot lists are shared, http/validate.ts).
 */
const filterKeys = new WeakMap<PartListQuery, string>();
function filtersOf(query: PartListQuery): string {
  let key = filterKeys.get(query);
  if (key === undefined) {
    const words = [...new Set(wordsOf(query.q ?? ''))].join(' ');
    key = `${query.sort ?? ''}:${query.category ?? ''}:${query.inStock ?? ''}:${query.price ?? ''}:${query.facets ? 'f' : ''}:${query.q === undefined ? '' : `q${words}`}`;
    filterKeys.set(query, key);
  }
  return key;
}

export class PartCatalogue extends CatalogCache {
  private snapshot: Snapshot | undefined;
  /** The catalogue is bigger than MAX_PARTS: use the database until the next full invalidation. */
  private tooBig = false;
  private loading: { since: number; done: Promise<void> } | undefined;
  /** The search index, kept across snapshots and updated from each (never rebuilt whole). */
  private readonly searchIndex = new SearchIndex();
  /**
   * Each recent search's matches in list order (by sort and words), with the snapshot they were
   * found in: paging through a search, or asking it with another page size, looks it up once
   * (a look-up costs milliseconds at 10,000 parts, a page of its matches microseconds). In-place
   * changes keep them (a stock change moves no part in any order nor changes its words); a new
   * snapshot makes them stale. A twelfth of the pages' budget (2 MB by default), 8 bytes a match.
   */
  private readonly searches: LRUCache<string, { snap: Snapshot; entries: Entry[] }>;

  /**
   * `ttlMs` as CATALOG_CACHE_TTL_MS: 0 = off (database per request), Infinity = until invalidated.
   * `maxBytes` bounds the list pages' answers (a part's own answer is kept on its snapshot entry,
   * below): by default the `partPages` share of the cache budget, 24 MB of the default 80, which
   * holds the whole 10,000-part catalogue's pages (~3 MB of JSON) in several sort orders and the
   * hot searches besides, whatever `?q` values clients send.
   */
  constructor({
    ttlMs,
    maxBytes = cacheBytes('partPages'),
    now,
  }: {
    ttlMs: number;
    maxBytes?: number;
    now?: () => number;
  }) {
    super({ ttlMs, maxBytes, ...(now ? { now } : {}) });
    this.searches = new LRUCache({
      maxSize: Math.max(64 * 1024, Math.floor(maxBytes / 12)),
      sizeCalculation: (found, key) => 64 + 2 * key.length + 8 * found.entries.length,
    });
    partWrites.subscribe((scope) => this.invalidate(scope));
  }

  override invalidate(scope: WriteScope): void {
    super.invalidate(scope);
    if (scope === 'all') {
      this.snapshot = undefined;
      this.searches.clear(); // found in the snapshot just dropped (and holding it)
      this.loading = undefined; // a scan that began before this write must not become current
      this.tooBig = false;
      return;
    }
    // The changed parts' own answers go now; the entries are re-read before the next answer.
    const snap = this.snapshot;
    if (!snap) return;
    for (const id of scope.ids) {
      const entry = snap.byId.get(id.toLowerCase());
      if (entry) entry.answer = undefined;
    }
  }

  /**
   * Loads the catalogue and sorts it in every list order now, so that no shopper's request pays
   * for the scan (the server does this before it reports ready). A no-op with the cache off.
   */
  async warm(): Promise<void> {
    const snap = await this.current();
    if (!snap) return;
    for (const key of SORT_KEYS) this.sortedBy(snap, key);
    // And every part's own answer (≈ 0.1 s at 10,000): shoppers open any of them, and the first
    // visitor of each would otherwise pay for its serialization and ETag.
    for (const id of snap.byId.keys()) this.answerFrom(snap, id);
  }

  /** GET /parts: the page's body, ETag and total (X-Total-Count). */
  async listAnswer(query: PartListQuery): Promise<CachedJson> {
    const filters = filtersOf(query);
    this.expireSnapshot();
    let page = query.page;
    let key = `list:${page}:${query.limit}:${filters}`;
    // A page kept under its own number is one in range; any other asks page 1 for the total, and
    // pages past the end are one shared empty page, so random deep pages cannot each make an entry.
    if (page > 1 && !this.has(key)) {
      const { total } = await this.listAnswer({ ...query, page: 1 });
      page = keptPageOf(page, total, query.limit);
      key = `list:${page}:${query.limit}:${filters}`;
    }
    return this.get(key, async () => {
      const { value, readAt } = await this.read(
        (snap) => this.pageOf(snap, { ...query, page }),
        () => listParts({ ...query, page }),
      );
      return {
        value: value.items,
        total: value.total,
        ids: value.items.map((p) => p._id),
        // Counts of the in-stock choice move with any part's stock, as a list filtered by it does.
        anyPart: query.inStock !== undefined || !!value.facets,
        readAt,
        ...(value.facets ? { headers: { 'X-Facets': JSON.stringify(value.facets) } } : {}),
      };
    });
  }

  /** GET /parts's answer if it is cached now (a page in range, under its own number); never loads. */
  peekList(query: PartListQuery): CachedJson | undefined {
    this.expireSnapshot();
    const filters = filtersOf(query);
    const hit = this.peek(`list:${query.page}:${query.limit}:${filters}`);
    if (hit || query.page === 1) return hit;
    // A page past the end is kept as the one shared empty page after the last (listAnswer): find
    // it through page 1's total, or a search with one page would miss here on every page 2.
    const first = this.peek(`list:1:${query.limit}:${filters}`);
    const kept = first && keptPageOf(query.page, first.total, query.limit);
    return kept && kept !== query.page ? this.peek(`list:${kept}:${query.limit}:${filters}`) : undefined;
  }

  /** GET /parts/:id's answer if it is cached now (any case of the id); never loads. */
  peekPart(id: string): CachedJson | undefined {
    this.expireSnapshot();
    const key = id.toLowerCase();
    if (this.snapshot) return this.snapshot.byId.get(key)?.answer;
    return this.peek(`part:${key}`);
  }

  /** GET /parts/:id: the part's body and ETag (404 when there is no such part). */
  async partAnswer(id: string): Promise<CachedJson> {
    const key = id.toLowerCase();
    this.expireSnapshot();
    const snap = await this.current();
    if (snap) return this.answerFrom(snap, key);
    // No snapshot (the cache off, or a catalogue past MAX_PARTS): the database, answers still kept.
    return this.get(`part:${key}`, async () => ({ value: await getPart(key), ids: [key] }));
  }

  /**
   * A part's answer from a snapshot that is current for this request, kept on its entry unless
   * the part changed since the snapshot read it (a write whose hook ran after `current()` looked:
   * this request arrived before it and may see the part as it was, later ones must not).
   */
  private answerFrom(snap: Snapshot, key: string): CachedJson {
    const entry = snap.byId.get(key);
    if (!entry) throw AppError.notFound('Part');
    if (entry.answer) return entry.answer;
    const answer = build({ value: entry.part, ids: [key], readAt: snap.loadedAt }, this.opts.now());
    const touched = this.touchedAt.get(key);
    if (this.snapshot === snap && (touched === undefined || !changedSinceRead(snap, key, touched))) {
      entry.answer = answer;
    }
    return answer;
  }

  /** One page of the list (uncached answer; the tests compare it with the database query). */
  async list(query: PartListQuery): Promise<{ items: Part[]; total: number; facets?: PartFacets }> {
    return (
      await this.read(
        (snap) => this.pageOf(snap, query),
        () => listParts(query),
      )
    ).value;
  }

  /** Every part's name, minimum order and stock (the admins' Overview), from the snapshot if any. */
  async stockList(): Promise<PartStock[]> {
    const { value } = await this.read(
      // The snapshot's own parts (read only): no copy of 10,000 of them per call.
      (snap) => [...snap.byId.values()].map((entry) => entry.part),
      async () =>
        (
          await PartModel.find(ON_SALE, { name: 1, minOrderQty: 1, availableQty: 1 }).lean<
            Pick<PartDoc, '_id' | 'name' | 'minOrderQty' | 'availableQty'>[]
          >()
        ).map((d) => ({
          _id: String(d._id),
          name: d.name,
          qty: d.minOrderQty,
          availableQty: d.availableQty,
        })),
    );
    return value;
  }

  /** From the snapshot when there is one, else from the database; `readAt` = the snapshot's age. */
  private async read<T>(
    fromSnapshot: (snap: Snapshot) => T,
    fromDatabase: () => Promise<T>,
  ): Promise<{ value: T; readAt?: number }> {
    const snap = await this.current();
    if (!snap) return { value: await fromDatabase() };
    return { value: fromSnapshot(snap), readAt: snap.loadedAt };
  }

  private pageOf(
    snap: Snapshot,
    query: PartListQuery,
  ): { items: Part[]; total: number; facets?: PartFacets } {
    const searched = this.searched(snap, query);
    const matches = filterOf(query);
    const found = matches ? searched.filter((e) => matches(e.part)) : searched;
    const start = (query.page - 1) * query.limit;
    return {
      items: found.slice(start, start + query.limit).map((e) => e.part),
      total: found.length,
      ...(query.facets
        ? {
            facets: countFacets(
              searched.map((e) => e.part),
              query,
            ),
          }
        : {}),
    };
  }

  /**
   * The parts a search matches (all without `q`), in list order: the `sort` asked for, else by
   * relevance (ties in catalogue order).
   */
  private searched(snap: Snapshot, query: PartListQuery): Entry[] {
    if (query.q === undefined) return this.sortedBy(snap, sortKeyOf(query));
    const key = `${query.sort ?? ''}:${[...new Set(wordsOf(query.q))].join(' ')}`;
    const kept = this.searches.get(key);
    if (kept?.snap === snap) return kept.entries;
    const entries = this.search(snap, query.q, query.sort);
    this.searches.set(key, { snap, entries });
    return entries;
  }

  private search(snap: Snapshot, q: string, sort: PartListQuery['sort']): Entry[] {
    const ranks = this.searchIndex.search(q);
    if (sort) return this.sortedBy(snap, sort).filter((e) => ranks.has(e._id));
    const ranked: { entry: Entry; rank: Rank }[] = [];
    for (const [id, rank] of ranks) {
      const entry = snap.byId.get(id);
      if (entry) ranked.push({ entry, rank });
    }
    ranked.sort((a, b) => compareRanks(a.rank, b.rank) || (a.entry._id < b.entry._id ? -1 : 1));
    return ranked.map((r) => r.entry);
  }

  private sortedBy(snap: Snapshot, key: SortKey): Entry[] {
    let sorted = snap.sorted.get(key);
    if (!sorted) {
      sorted = [...snap.byId.values()].sort(comparatorOf(key));
      snap.sorted.set(key, sorted);
    }
    return sorted;
  }

  /** The current snapshot, reflecting every write whose hook ran before this call; undefined = none. */
  private async current(): Promise<Snapshot | undefined> {
    if (this.opts.ttlMs <= 0) return undefined;
    const arrival = this.generation;
    for (;;) {
      this.expireSnapshot();
      const snap = this.snapshot;
      if (!snap) {
        if (this.tooBig) return undefined;
        this.loading ??= this.scan();
        await this.loading.done;
        continue;
      }
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

  /**
   * Drops a snapshot (and the answers computed from it) once it is older than the TTL: other
   * processes' writes (several API instances on one MongoDB) show after it. Checked before an
   * answer's load starts, so that load is not refused as older than the drop.
   */
  private expireSnapshot(): void {
    const snap = this.snapshot;
    if (snap && this.opts.now() - snap.loadedAt >= this.opts.ttlMs) this.invalidate('all');
  }

  /** Parts changed in place after the snapshot read them, by writes up to generation `upTo`. */
  private staleIds(snap: Snapshot, upTo: number): string[] {
    const ids: string[] = [];
    for (const [id, gen] of this.touchedAt) {
      if (gen <= upTo && changedSinceRead(snap, id, gen)) ids.push(id);
    }
    return ids;
  }

  private scan(): { since: number; done: Promise<void> } {
    const since = this.generation;
    const loadedAt = this.opts.now();
    const done = (async () => {
      const docs = await PartModel.find(ON_SALE)
        .limit(MAX_PARTS + 1)
        .lean<PartDoc[]>();
      if (this.clearedAt > since) return; // a create/delete landed meanwhile: callers load again
      if (docs.length > MAX_PARTS) {
        this.tooBig = true;
        this.searchIndex.clear();
        return;
      }
      // Only the parts whose words changed since the last scan are indexed again.
      this.searchIndex.sync(docs.map(searchableOf));
      this.snapshot = {
        byId: new Map(docs.map((d) => [String(d._id), entryOf(d)])),
        sorted: new Map(),
        asOf: since,
        loadedAt,
        seen: new Map(),
      };
      this.prune();
    })();
    const loading = { since, done };
    const finished = () => {
      if (this.loading === loading) this.loading = undefined;
    };
    done.then(finished, finished);
    return loading;
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
      if (!doc || !old || doc.archived || doc.name !== old.part.name || doc.priceCents !== old.priceCents) {
        // Appeared, vanished (archived too) or moved in a sort order behind the hooks' back: start over.
        this.invalidate('all');
        return;
      }
      // Same position in every order: update in place (the sorted arrays share the entry).
      old.part = toPart(doc);
      this.searchIndex.put(searchableOf(doc));
      old.answer = undefined;
      snap.seen.set(id, startedAt);
    }
    this.prune();
  }

  /** A change the snapshot has not re-read yet (or that a running scan may have missed) is kept. */
  protected override stillNeeded(id: string, gen: number): boolean {
    const snap = this.snapshot;
    if (snap) return changedSinceRead(snap, id, gen);
    return this.loading !== undefined && gen > this.loading.since;
  }

  protected override prune(): void {
    super.prune();
    const snap = this.snapshot;
    if (snap) for (const id of snap.seen.keys()) if (!this.touchedAt.has(id)) snap.seen.delete(id);
  }
}

/** The catalogue of one app, with the TTL its environment asks for. */
export function catalogueFor(env: Env): PartCatalogue {
  return new PartCatalogue({ ttlMs: catalogCacheTtlMs(env) });
}
