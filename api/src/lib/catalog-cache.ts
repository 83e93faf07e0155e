import { createHash } from 'node:crypto';

/**
 * In-process cache of the public catalogue reads (GET /parts pages, GET /parts/:id, GET /review):
 * the serialized JSON body and its ETag, so a hit costs no database round trip, no serialization
 * and no hashing.
 *
 * Correctness rests on three rules:
 * - Every write to the parts and reviews collections invalidates (Mongoose hooks in the models,
 *   so no write path can forget it; see `catalogWriteScope`).
 * - A load that was running while an invalidation touched its result is returned to its callers
 *   but not stored (generation check), and invalidation detaches running loads so a request that
 *   arrives after a write never joins a load that may have read the data before it.
 * - Entries expire after `ttlMs` (bounded staleness when other processes write, e.g. several API
 *   instances on one MongoDB); `Infinity` = until invalidated, `0` = cache off.
 */
export interface CachedJson {
  /** The exact response body. */
  readonly body: Buffer;
  /** Strong ETag over the body (same formula the uncached path used). */
  readonly etag: string;
  /** For paged lists: the X-Total-Count value. */
  readonly total: number;
  /** Ids of the parts in the body: a stock change of one of them drops the entry. */
  readonly ids: readonly string[];
  /**
   * A stock change of ANY part may change this entry (a list filtered by stock: the part can
   * enter or leave it, and its total moves), so every write drops it.
   */
  readonly anyPart: boolean;
  readonly storedAt: number;
}

export interface Loaded {
  value: unknown;
  total?: number;
  ids?: readonly string[];
  anyPart?: boolean;
}

/** What a write can have changed: some parts' fields that never move a part between pages, or anything. */
export type WriteScope = 'all' | { ids: readonly string[] };

export interface CacheOptions {
  ttlMs: number;
  maxBytes: number;
  maxEntries: number;
  now?: () => number;
}

export function tagOf(body: Buffer | string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function build(loaded: Loaded, now: number): CachedJson {
  const body = Buffer.from(JSON.stringify(loaded.value));
  return {
    body,
    etag: tagOf(body),
    total: loaded.total ?? 0,
    ids: loaded.ids ?? [],
    anyPart: loaded.anyPart ?? false,
    storedAt: now,
  };
}

export class CatalogCache {
  private readonly entries = new Map<string, CachedJson>(); // insertion order = LRU order
  /** Running loads; `fresh` says whether any write touched the result while it ran. */
  private readonly inflight = new Map<string, Promise<{ entry: CachedJson; fresh: boolean }>>();
  private generation = 0;
  private clearedAt = 0;
  private readonly idTouchedAt = new Map<string, number>();
  private running = 0;
  private bytes = 0;
  private opts: Required<CacheOptions>;

  constructor(opts: CacheOptions) {
    this.opts = { now: Date.now, ...opts };
  }

  /** Applies new limits and empties the cache (called once per app from its env). */
  configure(opts: CacheOptions): void {
    this.opts = { now: Date.now, ...opts };
    this.invalidate('all');
  }

  get size(): number {
    return this.entries.size;
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  /** The cached answer for `key`, loading (once, however many callers wait) on a miss. */
  async get(key: string, load: () => Promise<Loaded>): Promise<CachedJson> {
    const { ttlMs, now } = this.opts;
    if (ttlMs <= 0) return build(await load(), now());
    const hit = this.entries.get(key);
    if (hit) {
      if (now() - hit.storedAt < ttlMs) {
        this.entries.delete(key); // refresh its LRU position
        this.entries.set(key, hit);
        return hit;
      }
      this.remove(key, hit);
    }
    const pending = this.inflight.get(key);
    if (pending) {
      // Joining a load that started earlier: if a write touched its result since it started,
      // that write may have finished before this request arrived, so read again ourselves.
      const { entry, fresh } = await pending;
      return fresh ? entry : (await this.load(key, load)).entry;
    }
    return (await this.load(key, load)).entry;
  }

  invalidate(scope: WriteScope): void {
    const gen = ++this.generation;
    if (scope === 'all') {
      this.clearedAt = gen;
      this.entries.clear();
      this.bytes = 0;
      return;
    }
    const ids = new Set(scope.ids.map((id) => id.toLowerCase()));
    for (const id of ids) this.idTouchedAt.set(id, gen);
    for (const [key, entry] of this.entries) {
      if (entry.anyPart || entry.ids.some((id) => ids.has(id))) this.remove(key, entry);
    }
  }

  /** Runs one load; stores its result unless a write touched it meanwhile (it may predate the write). */
  private load(key: string, load: () => Promise<Loaded>): Promise<{ entry: CachedJson; fresh: boolean }> {
    const startedAt = this.generation;
    this.running++;
    const promise = Promise.resolve()
      .then(load)
      .then((loaded) => {
        const entry = build(loaded, this.opts.now());
        const fresh = this.unchangedSince(startedAt, entry);
        if (fresh) this.store(key, entry);
        return { entry, fresh };
      })
      .finally(() => {
        if (this.inflight.get(key) === promise) this.inflight.delete(key);
        // With no load running, no generation older than now will ever be compared again.
        if (--this.running === 0) this.idTouchedAt.clear();
      });
    this.inflight.set(key, promise);
    return promise;
  }

  private unchangedSince(gen: number, { ids, anyPart }: CachedJson): boolean {
    if (this.clearedAt > gen) return false;
    if (anyPart) return [...this.idTouchedAt.values()].every((touched) => touched <= gen);
    return ids.every((id) => (this.idTouchedAt.get(id) ?? 0) <= gen);
  }

  private store(key: string, entry: CachedJson): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    if (entry.body.length > this.opts.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.opts.maxBytes && this.entries.size <= this.opts.maxEntries) break;
      this.remove(k, e);
    }
  }

  private remove(key: string, entry: CachedJson): void {
    if (this.entries.delete(key)) this.bytes -= entry.body.length;
  }
}

/** Part fields whose change never moves a part between list pages, re-sorts a list or changes a total. */
const IN_PLACE_FIELDS = new Set(['availableQty', 'qty', 'text', 'img', 'updatedAt', 'journal']);

function singleId(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  // An ObjectId (or anything with a 24-hex string form); operators like {$in: …} are not.
  if (v !== null && typeof v === 'object' && !Object.keys(v).some((k) => k.startsWith('$'))) {
    const s = String(v);
    if (/^[a-f0-9]{24}$/i.test(s)) return s;
  }
  return undefined;
}

/**
 * What a Mongoose write query on the parts collection may have changed. Updates of one part by
 * `_id` that only touch in-place fields (stock, minimum quantity) invalidate that part; anything
 * else (create, delete, upsert, name or price change, multi-document filters) clears everything.
 */
export function catalogWriteScope(
  op: string,
  filter: Record<string, unknown>,
  update: unknown,
  options: { upsert?: boolean },
): WriteScope {
  if (!['updateOne', 'updateMany', 'findOneAndUpdate'].includes(op) || options.upsert) return 'all';
  const id = singleId(filter._id);
  if (!id || update === null || typeof update !== 'object' || Array.isArray(update)) return 'all';
  for (const [k, v] of Object.entries(update)) {
    if (k === '$setOnInsert') continue; // not an upsert: never applied
    if (!k.startsWith('$')) {
      if (!IN_PLACE_FIELDS.has(k)) return 'all';
    } else if (v === null || typeof v !== 'object' || Object.keys(v).some((f) => !IN_PLACE_FIELDS.has(f))) {
      return 'all';
    }
  }
  return { ids: [id] };
}

// Limits: the whole 10,000-part catalogue is ~3 MB of JSON, so 24 MB holds every default page in
// several sort orders; the cap keeps RSS bounded whatever `?q` values clients send.
const DISABLED: CacheOptions = { ttlMs: 0, maxBytes: 24 * 1024 * 1024, maxEntries: 5000 };

/** Off until `configureCatalogCache` is called (createApp does it from the env). */
export const catalogCache = {
  parts: new CatalogCache(DISABLED),
  reviews: new CatalogCache({ ...DISABLED, maxBytes: 4 * 1024 * 1024, maxEntries: 1000 }),
};

export function configureCatalogCache(ttlMs: number): void {
  catalogCache.parts.configure({ ...DISABLED, ttlMs });
  catalogCache.reviews.configure({ ...DISABLED, ttlMs, maxBytes: 4 * 1024 * 1024, maxEntries: 1000 });
}

type WriteListener = (scope: WriteScope) => void;
const partWriteListeners: WriteListener[] = [(scope) => catalogCache.parts.invalidate(scope)];

/** Subscribes to writes on the parts collection (the in-memory catalogue does). */
export function onPartWrite(listener: WriteListener): void {
  partWriteListeners.push(listener);
}

/** Called by the Part model's write hooks. */
export function partsWritten(scope: WriteScope): void {
  for (const l of partWriteListeners) l(scope);
}
