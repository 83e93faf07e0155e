import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { WriteScope } from './write-feed';

/**
 * In-process cache of public catalogue answers (GET /parts pages, GET /parts/:id, GET /review):
 * the serialized JSON body and its ETag, so a hit costs no database round trip, no serialization
 * and no hashing. One instance per cached collection and app; the parts catalogue
 * (parts/catalogue.ts) extends it with its in-memory snapshot, on the same generation protocol.
 *
 * Correctness rests on three rules:
 * - Every write to the collection invalidates: its model's write feed (lib/write-feed.ts) calls
 *   `invalidate` with what the write may have changed, so no write path can forget it.
 * - A load that was running while an invalidation touched its result is returned to its callers
 *   but not stored (generation check), and invalidation detaches running loads so a request that
 *   arrives after a write never joins a load that may have read the data before it.
 * - Entries expire `ttlMs` after their data was read (bounded staleness when other processes
 *   write, e.g. several API instances on one MongoDB); `Infinity` = until invalidated, `0` = off.
 * What it holds is bounded in bytes (`maxBytes`, its share of the cache budget: lib/cache-budget.ts),
 * least recently used out first; keys are built from parsed queries, never from raw URLs.
 */
export interface CachedJson {
  /** The exact response body. */
  readonly body: Buffer;
  /** Strong ETag over the body. */
  readonly etag: string;
  /** For paged lists: the X-Total-Count value. */
  readonly total: number;
  /** Ids of the documents in the body: an in-place change of one of them drops the entry. */
  readonly ids: readonly string[];
  /**
   * An in-place change of ANY document may change this entry (a list filtered by stock: the part
   * can enter or leave it, and its total moves), so every write drops it.
   */
  readonly anyPart: boolean;
  /** Clock time the data was read: the TTL counts from here. */
  readonly readAt: number;
  /** Headers of this answer besides the usual ones (a list's `X-Facets`). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Loaded {
  value: unknown;
  total?: number;
  ids?: readonly string[];
  anyPart?: boolean;
  /** When the data was read, if earlier than now (an answer computed from an older snapshot). */
  readAt?: number;
  headers?: Readonly<Record<string, string>>;
}

export interface CacheOptions {
  ttlMs: number;
  /** What the entries may hold together: their bodies, keys and bookkeeping (`entryBytes`). */
  maxBytes: number;
  now?: () => number;
}

/** An entry's weight against the byte budget: its body, key, ids and the objects around them. */
export function entryBytes(key: string, entry: CachedJson): number {
  const headers = entry.headers ? JSON.stringify(entry.headers).length * 2 : 0;
  return entry.body.length + 2 * key.length + 64 * entry.ids.length + 160 + headers;
}

export function tagOf(body: Buffer | string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** A value serialized once, with its strong ETag. */
export function taggedJson(value: unknown): { body: Buffer; etag: string } {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: tagOf(body) };
}

/** A loaded value as a cached answer: its body, ETag and bookkeeping. */
export function build(loaded: Loaded, now: number): CachedJson {
  return {
    ...taggedJson(loaded.value),
    total: loaded.total ?? 0,
    ids: loaded.ids ?? [],
    anyPart: loaded.anyPart ?? false,
    readAt: Math.min(loaded.readAt ?? now, now),
    ...(loaded.headers ? { headers: loaded.headers } : {}),
  };
}

export class CatalogCache {
  private readonly entries: LRUCache<string, CachedJson>;
  /**
   * Keys of the entries holding each document, and of the entries any change drops: a write
   * finds what it makes stale without walking every entry (15,000 of them, on every order).
   */
  private readonly keysById = new Map<string, Set<string>>();
  private readonly anyPartKeys = new Set<string>();
  /** Running loads; `fresh` says whether any write touched the result while it ran. */
  private readonly inflight = new Map<string, Promise<{ entry: CachedJson; fresh: boolean }>>();
  /** Loads running now: while one runs, `touchedAt` entries newer than its start must stay. */
  private running = 0;
  protected readonly opts: Required<CacheOptions>;
  /** Bumped by every invalidation; a load compares its result against the value it started at. */
  protected generation = 0;
  /** Generation of the latest `all` invalidation. */
  protected clearedAt = 0;
  /** Documents changed in place → generation of their latest change. */
  protected readonly touchedAt = new Map<string, number>();

  constructor(opts: CacheOptions) {
    this.opts = { now: Date.now, ...opts };
    this.entries = new LRUCache<string, CachedJson>({
      maxSize: opts.maxBytes,
      sizeCalculation: (entry, key) => entryBytes(key, entry),
      // Evicted, replaced, dropped or cleared: the indexes forget the entry.
      dispose: (entry, key) => this.unindex(key, entry),
    });
  }

  get size(): number {
    return this.entries.size;
  }

  get sizeBytes(): number {
    return this.entries.calculatedSize;
  }

  /** Whether `key` has an answer that may still be served (a hit for `get`). */
  protected has(key: string): boolean {
    const hit = this.entries.peek(key);
    return !!hit && this.opts.now() - hit.readAt < this.opts.ttlMs;
  }

  /** The cached answer for `key` if there is one that may be served now; never loads. */
  peek(key: string): CachedJson | undefined {
    const hit = this.entries.get(key);
    return hit && this.opts.now() - hit.readAt < this.opts.ttlMs ? hit : undefined;
  }

  /** The cached answer for `key`, loading (once, however many callers wait) on a miss. */
  async get(key: string, load: () => Promise<Loaded>): Promise<CachedJson> {
    const { ttlMs, now } = this.opts;
    if (ttlMs <= 0) return build(await load(), now());
    const hit = this.entries.get(key); // also makes it the most recently used
    if (hit) {
      if (now() - hit.readAt < ttlMs) return hit;
      this.entries.delete(key);
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
    if (this.opts.ttlMs <= 0) return; // nothing is kept
    const gen = ++this.generation;
    if (scope === 'all') {
      this.clearedAt = gen;
      // Every load older than this is refused by `clearedAt`; newer ones only compare newer changes.
      this.touchedAt.clear();
      this.keysById.clear();
      this.anyPartKeys.clear();
      this.entries.clear();
      return;
    }
    const ids = new Set(scope.ids.map((id) => id.toLowerCase()));
    for (const id of ids) this.touchedAt.set(id, gen);
    const stale = new Set(this.anyPartKeys);
    for (const id of ids) for (const key of this.keysById.get(id) ?? []) stale.add(key);
    for (const key of stale) this.entries.delete(key);
  }

  /** Whether nothing in `entry` changed since generation `gen`. */
  protected unchangedSince(gen: number, { ids, anyPart }: Pick<CachedJson, 'ids' | 'anyPart'>): boolean {
    if (this.clearedAt > gen) return false;
    if (anyPart) return [...this.touchedAt.values()].every((touched) => touched <= gen);
    return ids.every((id) => (this.touchedAt.get(id) ?? 0) <= gen);
  }

  /** Forgets the in-place changes that nothing compares against any more. */
  protected prune(): void {
    // A running load compares against every change since it started.
    if (this.running > 0) return;
    for (const [id, gen] of this.touchedAt) if (!this.stillNeeded(id, gen)) this.touchedAt.delete(id);
  }

  /** Whether state of a subclass still needs to know of this change (the answers no longer do). */
  protected stillNeeded(_id: string, _gen: number): boolean {
    return false;
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
        this.running--;
        this.prune();
      });
    this.inflight.set(key, promise);
    return promise;
  }

  private store(key: string, entry: CachedJson): void {
    // An entry bigger than the whole budget is not kept (and replaces nothing that stays).
    this.entries.set(key, entry);
    if (this.entries.peek(key) !== entry) return;
    for (const id of entry.ids) {
      const lower = id.toLowerCase();
      let keys = this.keysById.get(lower);
      if (!keys) this.keysById.set(lower, (keys = new Set()));
      keys.add(key);
    }
    if (entry.anyPart) this.anyPartKeys.add(key);
  }

  private unindex(key: string, entry: CachedJson): void {
    for (const id of entry.ids) {
      const lower = id.toLowerCase();
      const keys = this.keysById.get(lower);
      keys?.delete(key);
      if (keys?.size === 0) this.keysById.delete(lower);
    }
    this.anyPartKeys.delete(key);
  }
}
