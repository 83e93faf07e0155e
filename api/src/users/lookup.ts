import { LRUCache } from 'lru-cache';
import { cacheBytes, recordBytes } from '../lib/cache-budget';
import { readModelKind, type Env } from '../lib/env';
import { UserModel, userWrites, type UserDoc } from './model';

export type StoredUser = UserDoc & { _id: unknown };

/**
 * Finding accounts by email, and listing them by email: the two reads that are not by `_id`.
 * MongoDB answers both from the `email` index. On the embedded FerretDB either one reads and
 * decodes every user record through the API's one connection, so there the lookup keeps who holds
 * which email in memory and reads the records themselves by `_id`.
 */
export interface UserLookup {
  /** The record holding this email now: a uid-keyed account before an older unclaimed record. */
  byEmail(email: string): Promise<StoredUser | null>;
  /** Every record holding this email: accounts (uid `_id`) and older records (ObjectId `_id`). */
  holders(email: string): Promise<StoredUser[]>;
  /** One page of the records holding an email, by email, and how many there are. */
  page(page: number, limit: number): Promise<{ docs: StoredUser[]; total: number }>;
  /** Reads what the lookup keeps in memory now (at start-up), if it keeps anything. */
  warm(): Promise<void>;
}

const HOLDS_EMAIL = { email: { $exists: true } };

/** An account (string uid) before an older record keyed by ObjectId, for one email. */
const accountFirst = (docs: StoredUser[]) => docs.find((d) => typeof d._id === 'string') ?? docs[0] ?? null;

/** The database's indexes answer: MongoDB, or several API processes sharing one database. */
export class QueryUserLookup implements UserLookup {
  async byEmail(email: string): Promise<StoredUser | null> {
    return accountFirst(await this.holders(email));
  }

  holders(email: string): Promise<StoredUser[]> {
    return UserModel.find({ email }).lean<StoredUser[]>();
  }

  async page(page: number, limit: number): Promise<{ docs: StoredUser[]; total: number }> {
    const [docs, total] = await Promise.all([
      UserModel.find(HOLDS_EMAIL)
        .sort({ email: 1, _id: 1 })
        .skip((page - 1) * limit)
        .limit(limit)
        .lean<StoredUser[]>(),
      UserModel.countDocuments(HOLDS_EMAIL),
    ]);
    return { docs, total };
  }

  async warm(): Promise<void> {}
}

interface Entry {
  email: string;
  /** A uid, or the ObjectId of a record from before uid keying. */
  id: unknown;
}

/** Mongo's order for `{email: 1, _id: 1}` over the values these records hold. */
function compareEntries(a: Entry, b: Entry): number {
  if (a.email !== b.email) return a.email < b.email ? -1 : 1;
  // Strings sort before ObjectIds in BSON order; among one type, by their text.
  const [at, bt] = [typeof a.id === 'string', typeof b.id === 'string'];
  if (at !== bt) return at ? -1 : 1;
  const [as, bs] = [String(a.id), String(b.id)];
  return as === bs ? 0 : as < bs ? -1 : 1;
}

/**
 * The embedded database's lookup: the (email, `_id`) pairs of every record that holds an email,
 * sorted as the query sorts them, read in one pass when first needed and again after a write that
 * may have changed any record (this process is the embedded database's only writer,
 * docs/architecture.md). A write to named accounts (a sign-in, a profile edit) only has those
 * records read again by `_id`. The pass keeps the records themselves too, so a lookup or a page
 * reads the database only for records a write has dropped since, by `_id`, which FerretDB answers
 * from its `_id` index.
 */
export class MemoryUserLookup implements UserLookup {
  private entries: Entry[] | null = null;
  /** Accounts written since `entries` was read: their pairs are read again before the next use. */
  private dirty = new Set<string>();
  /** Bumped by every write: a pass that a write overtook is used once, never kept. */
  private version = 0;

  /** Pages read since the last write, so admins paging an unchanged list read nothing again. */
  private pages = new Map<string, { docs: StoredUser[]; total: number }>();
  /**
   * Records read by a pass or by `_id` (2,000 accounts are ≈ 1 MB), dropped by a write to them;
   * within the accounts' share of the cache budget.
   */
  private records = new LRUCache<string, StoredUser>({
    maxSize: cacheBytes('accounts'),
    sizeCalculation: (user) => recordBytes(user),
  });
  /** Page reads running now: admins asking for the same page at once share one read. */
  private reading = new Map<string, Promise<{ docs: StoredUser[]; total: number }>>();

  constructor() {
    userWrites.subscribe((scope) => {
      if (scope === 'all') {
        this.records.clear();
        this.entries = null;
        this.dirty.clear();
      } else {
        for (const id of scope.ids) {
          this.records.delete(id);
          this.dirty.add(id);
        }
      }
      this.pages.clear();
      this.reading.clear();
      this.loading = undefined;
      this.version++;
    });
  }

  /** The pass running now, shared by the lookups that need it (detached by a write). */
  private loading: Promise<Entry[]> | undefined;

  private sorted(): Promise<Entry[]> {
    if (this.entries && this.dirty.size === 0) return Promise.resolve(this.entries);
    if (this.loading) return this.loading;
    const version = this.version;
    const changed = new Set(this.dirty);
    // FerretDB answers `_id: {$in}` from its index for up to 500 ids; beyond that, read it all.
    const kept = changed.size <= 500 ? this.entries : null;
    const loading = (async () => {
      // Whole records, not only their emails: they are what a lookup then reads, so every
      // account asked for after this pass is answered from memory (2,000 accounts ≈ 1 MB).
      const docs = (await (
        kept
          ? UserModel.collection.find({ _id: { $in: [...changed] as never[] } })
          : UserModel.collection.find(HOLDS_EMAIL)
      ).toArray()) as unknown as StoredUser[];
      const holding = docs.filter((d) => typeof d.email === 'string');
      const read = holding.map((d) => ({ email: String(d.email), id: d._id }));
      const entries = (kept ? kept.filter((e) => !changed.has(String(e.id))).concat(read) : read).sort(
        compareEntries,
      );
      if (version === this.version) {
        this.entries = entries;
        this.dirty.clear();
        for (const doc of holding) this.records.set(String(doc._id), doc);
      }
      return entries;
    })().finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }

  /**
   * The records with these `_id`s, in that order: those kept from an earlier read, the rest in
   * one read (no casting: older ids are ObjectIds), kept unless a write overtook it.
   */
  private async read(ids: unknown[]): Promise<StoredUser[]> {
    const found = new Map<string, StoredUser>();
    const missing: unknown[] = [];
    for (const id of ids) {
      const kept = this.records.get(String(id));
      if (kept) found.set(String(id), kept);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const version = this.version;
      const docs = (await UserModel.collection
        .find({ _id: { $in: missing as never[] } })
        .toArray()) as unknown as StoredUser[];
      for (const doc of docs) {
        found.set(String(doc._id), doc);
        if (version === this.version) this.records.set(String(doc._id), doc);
      }
    }
    return ids.map((id) => found.get(String(id))).filter((d): d is StoredUser => d !== undefined);
  }

  async byEmail(email: string): Promise<StoredUser | null> {
    return accountFirst(await this.holders(email));
  }

  async holders(email: string): Promise<StoredUser[]> {
    const entries = await this.sorted();
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((entries[mid] as Entry).email < email) lo = mid + 1;
      else hi = mid;
    }
    const ids: unknown[] = [];
    for (let i = lo; i < entries.length && (entries[i] as Entry).email === email; i++) {
      ids.push((entries[i] as Entry).id);
    }
    // Checked against the records: a write between the pass and this read changes the answer.
    return (await this.read(ids)).filter((d) => d.email === email);
  }

  async warm(): Promise<void> {
    await this.sorted();
  }

  page(page: number, limit: number): Promise<{ docs: StoredUser[]; total: number }> {
    const key = `${page}:${limit}`;
    const kept = this.pages.get(key);
    if (kept) return Promise.resolve(kept);
    let running = this.reading.get(key);
    if (!running) {
      running = this.readPage(page, limit, key).finally(() => {
        if (this.reading.get(key) === running) this.reading.delete(key);
      });
      this.reading.set(key, running);
    }
    return running;
  }

  private async readPage(
    page: number,
    limit: number,
    key: string,
  ): Promise<{ docs: StoredUser[]; total: number }> {
    const version = this.version;
    const entries = await this.sorted();
    const slice = entries.slice((page - 1) * limit, page * limit);
    const answer = { docs: await this.read(slice.map((e) => e.id)), total: entries.length };
    if (version === this.version) {
      if (this.pages.size >= 50) this.pages.clear();
      this.pages.set(key, answer);
    }
    return answer;
  }
}

/** The uid of the account holding this email now, or null. */
export async function uidOf(lookup: UserLookup, email: string): Promise<string | null> {
  const doc = await lookup.byEmail(email);
  return doc && typeof doc._id === 'string' ? doc._id : null;
}

export function userLookupFor(env: Pick<Env, 'READ_MODELS' | 'MONGODB_EMBEDDED'>): UserLookup {
  return readModelKind(env) === 'memory' ? new MemoryUserLookup() : new QueryUserLookup();
}
