import { OrderModel, orderChanges, type OrderChange } from '../orders/model';
import { FACT_FIELDS, factOf, forgetSharedTexts, NOT_HOLDING, type FactDoc, type OrderFact } from './facts';

/**
 * What the Overview reads of the orders, one interface with two implementations chosen once per
 * app (read-models.ts at the top of src), like the orders' lists: `DatabaseSalesReads` asks the
 * database by indexed ranges (api/INDEXES.md), as a MongoDB deployment does; `MemorySalesReads`
 * keeps every listed order's few figures in this process (the embedded FerretDB reads every order
 * for any filter, ≈ 1.5 s at 50,000, and this process is its only writer). Both give the same
 * facts (sales.test.ts runs with each); sales/service.ts groups them, in one place.
 */
export interface SalesReads {
  /** What a window [from, to) of the Overview is made of. */
  window(from: number, to: number): Promise<WindowFacts>;
}

export interface WindowFacts {
  /** Paid orders whose payment time (sales/facts.ts `paidAt`) is in the window. */
  paid: OrderFact[];
  /** Listed orders placed in the window. */
  placed: OrderFact[];
  /** Unpaid orders holding pieces now. */
  holding: OrderFact[];
}

const factsOf = (docs: FactDoc[]) => docs.map(factOf).filter((f): f is OrderFact => f !== undefined);

/** The Overview's reads as range queries (index `{paidAt: 1, createdAt: 1}`, api/INDEXES.md). */
export class DatabaseSalesReads implements SalesReads {
  async window(from: number, to: number): Promise<WindowFacts> {
    return {
      paid: await this.paidBetween(from, to),
      placed: await this.placedBetween(from, to),
      holding: await this.holding(),
    };
  }

  private async paidBetween(from: number, to: number): Promise<OrderFact[]> {
    const range = { $gte: new Date(from), $lt: new Date(to) };
    // Orders paid before the payment time was recorded count by their placing time: both
    // branches are ranges of the one index (`paidAt: null` matches a missing field).
    const docs = await OrderModel.find(
      { paid: true, $or: [{ paidAt: range }, { paidAt: null, createdAt: range }] },
      FACT_FIELDS,
    ).lean<FactDoc[]>();
    return factsOf(docs);
  }

  private async placedBetween(from: number, to: number): Promise<OrderFact[]> {
    const docs = await OrderModel.find(
      { createdAt: { $gte: new Date(from), $lt: new Date(to) } },
      FACT_FIELDS,
    ).lean<FactDoc[]>();
    return factsOf(docs);
  }

  private async holding(): Promise<OrderFact[]> {
    const docs = await OrderModel.find(
      { paid: false, status: 'pending', hold: { $nin: [...NOT_HOLDING] } },
      FACT_FIELDS,
    ).lean<FactDoc[]>();
    return factsOf(docs);
  }
}

/** Ids per `_id: {$in}` read: the embedded FerretDB answers up to 500 from its index. */
const IN_BATCH = 500;
/** Rounds of catching up with writes made while reading before an answer stands. */
const ROUNDS = 4;

/** What a read learns of the changes made while it ran. */
interface Changed {
  ids: Set<string>;
  /** A change the hooks could not narrow down. */
  all: boolean;
}

/** How long the facts stay in memory after the Overview last asked for them. */
export const FACTS_KEPT_MS = 10 * 60_000;

/**
 * Every listed order's fact (≈ 0.23 KB each in the heap: 50,000 orders take ≈ 11 MB), read in one
 * pass when the Overview first asks (≈ 1.5 s at 50,000), then kept by the order model's hooks
 * (orders/model.ts `orderChanges`): a removed order goes, any other change marks the order to be
 * read again (by `_id`) before the next answer, and a change the hooks cannot narrow down reads
 * everything again. So an answer reflects every write that finished before it was asked for.
 * The facts are let go once the Overview has not asked for `keptMs`: held for good they took a
 * tenth of the 128 MB heap, which then ran out of room to grow and collected garbage several
 * times a second under load (every payment's webhook paid for it; bench/api/README.md).
 */
export class MemorySalesReads implements SalesReads {
  private facts = new Map<string, OrderFact>();
  private lastAsked = 0;
  private letGo: NodeJS.Timeout | undefined;
  private needsLoad = true;
  /** Orders changed since their fact was read. */
  private dirty = new Set<string>();
  private readonly reads = new Set<Changed>();
  private syncing: Promise<void> | undefined;

  constructor(private readonly keptMs = FACTS_KEPT_MS) {
    orderChanges.subscribe((change) => this.apply(change));
  }

  /** Whether the facts are in memory now (read, and not let go since). */
  get loaded(): boolean {
    return !this.needsLoad;
  }

  /** Keeps the facts for `keptMs` from now, then lets them go unless asked for again. */
  private keep(): void {
    this.lastAsked = Date.now();
    this.letGo ??= setTimeout(() => this.letGoIfIdle(), this.keptMs).unref();
  }

  private letGoIfIdle(): void {
    this.letGo = undefined;
    const idle = Date.now() - this.lastAsked;
    // Asked for meanwhile, or being read right now: kept a while longer.
    if (idle < this.keptMs || this.syncing) {
      const wait = idle < this.keptMs ? this.keptMs - idle : 1000;
      this.letGo = setTimeout(() => this.letGoIfIdle(), wait).unref();
      return;
    }
    this.facts = new Map();
    forgetSharedTexts();
    this.needsLoad = true;
    this.dirty.clear();
  }

  private apply(change: OrderChange): void {
    for (const read of this.reads) {
      if (change.kind === 'unknown') read.all = true;
      else read.ids.add(change.id.toLowerCase());
    }
    if (change.kind === 'unknown') {
      this.needsLoad = true;
      this.dirty.clear();
    } else if (change.kind === 'removed') {
      this.facts.delete(change.id.toLowerCase());
      this.dirty.delete(change.id.toLowerCase());
    } else if (!this.needsLoad) this.dirty.add(change.id.toLowerCase());
  }

  private watch(): Changed {
    const read = { ids: new Set<string>(), all: false };
    this.reads.add(read);
    return read;
  }

  /** What a read missed: orders changed while it ran are read again next. */
  private caughtUp(read: Changed): void {
    this.reads.delete(read);
    if (read.all) {
      this.needsLoad = true;
      this.dirty.clear();
    } else if (!this.needsLoad) for (const id of read.ids) this.dirty.add(id);
  }

  /** Reads every order, batch by batch (other requests' queries go between the batches). */
  private async load(): Promise<void> {
    this.needsLoad = false;
    this.dirty.clear();
    const read = this.watch();
    const facts = new Map<string, OrderFact>();
    try {
      const cursor = OrderModel.find({}, FACT_FIELDS).lean<FactDoc>().cursor({ batchSize: IN_BATCH });
      for await (const doc of cursor as AsyncIterable<FactDoc>) {
        const fact = factOf(doc);
        if (fact) facts.set(fact.id, fact);
      }
      this.facts = facts;
    } catch (err) {
      this.needsLoad = true;
      throw err;
    } finally {
      this.caughtUp(read);
    }
  }

  /** Reads the changed orders again by `_id`. */
  private async reread(): Promise<void> {
    const ids = [...this.dirty];
    this.dirty.clear();
    const read = this.watch();
    try {
      for (let i = 0; i < ids.length; i += IN_BATCH) {
        const batch = ids.slice(i, i + IN_BATCH);
        const docs = await OrderModel.find({ _id: { $in: batch } }, FACT_FIELDS).lean<FactDoc[]>();
        const found = new Map(docs.map((d) => [String(d._id), d]));
        for (const id of batch) {
          const doc = found.get(id);
          const fact = doc && factOf(doc);
          if (fact) this.facts.set(id, fact);
          else this.facts.delete(id);
        }
      }
    } catch (err) {
      for (const id of ids) this.dirty.add(id);
      throw err;
    } finally {
      this.caughtUp(read);
    }
  }

  /** Brings the facts up to every write made before this call (a few rounds at most). */
  private async current(): Promise<Map<string, OrderFact>> {
    for (let round = 0; round < ROUNDS && (this.needsLoad || this.dirty.size > 0); round++) {
      this.syncing ??= (this.needsLoad ? this.load() : this.reread()).finally(() => {
        this.syncing = undefined;
      });
      await this.syncing;
    }
    return this.facts;
  }

  async window(from: number, to: number): Promise<WindowFacts> {
    const found: WindowFacts = { paid: [], placed: [], holding: [] };
    const facts = await this.current();
    this.keep();
    // One pass over every order's fact.
    for (const f of facts.values()) {
      if (f.paid && f.paidAt >= from && f.paidAt < to) found.paid.push(f);
      if (f.placedAt >= from && f.placedAt < to) found.placed.push(f);
      if (f.holding) found.holding.push(f);
    }
    return found;
  }
}
