import { LRUCache } from 'lru-cache';
import { cacheBytes, recordBytes } from '../lib/cache-budget';
import { readModelKind, type Env } from '../lib/env';
import { loadCaller } from './service';
import { userWrites } from './model';

type LoadedCaller = NonNullable<Awaited<ReturnType<typeof loadCaller>>>;

/** How long a caller read from the database is used before it is read again. */
const KEEP_MS = 10_000;

/**
 * Who a token's uid is now (email, name, role, session epoch), kept for a few seconds on the
 * embedded FerretDB: there the `_id` read of the account that every signed-in request makes
 * queues on the API's one connection (≈ 2 ms each, which held every signed-in route near 500
 * requests a second). A write to the users drops what it may have changed before the write's
 * response is sent (the model's write feed), and a read that any such write overtook is used once
 * but not kept, so a sign-out, a role change or a deleted account still counts from the next
 * request. The few seconds bound what an operator changes behind the API's back. With MongoDB,
 * where replicas share the database and the read is an index lookup, every request reads it.
 */
export class CallerCache {
  /** Within the callers' share of the cache budget: tokens of unknown uids cannot grow it. */
  private readonly kept = new LRUCache<string, { caller: LoadedCaller | null; at: number }>({
    maxSize: cacheBytes('callers'),
    sizeCalculation: ({ caller }, uid) => 2 * uid.length + (caller ? recordBytes(caller) : 64),
  });
  /** Bumped by every write to the users. */
  private version = 0;

  constructor(private readonly now: () => number = Date.now) {
    userWrites.subscribe((scope) => {
      this.version++;
      if (scope === 'all') this.kept.clear();
      else for (const id of scope.ids) this.kept.delete(id);
    });
  }

  async load(uid: string): Promise<LoadedCaller | null> {
    const hit = this.kept.get(uid);
    if (hit && this.now() - hit.at < KEEP_MS) return hit.caller;
    const version = this.version;
    const caller = await loadCaller(uid);
    if (version === this.version) this.kept.set(uid, { caller, at: this.now() });
    return caller;
  }
}

const caches = new WeakMap<Env, CallerCache>();

/** The caller lookup of the app configured by `env` (one cache per app, on the embedded database). */
export function callersFor(env: Env): { load(uid: string): Promise<LoadedCaller | null> } {
  if (readModelKind(env) === 'database') return { load: loadCaller };
  let cache = caches.get(env);
  if (!cache) {
    cache = new CallerCache();
    caches.set(env, cache);
  }
  return cache;
}
