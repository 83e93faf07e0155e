import { OrderModel, orderChanges, type OrderChange } from '../orders/model';
import { FACT_FIELDS, factOf, NOT_HOLDING, type FactDoc, type OrderFact } from './facts';

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
  /** Reads what it keeps, before the server reports ready. */
  warm(): Promise<void>;
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

  async warm(): Promise<void> {}
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

/**
 * Every listed order's fact (≈ 0.15 KB each: 50,000 orders take ≈ 8 MB), read in one pass at
 * start, then kept by the order model's hooks (orders/model.ts `orderChanges`): a removed order
 * goes, any other change marks the order to be read again (by `_id`) before the next answer, and a
 * change the hooks cannot narrow down reads everything again. So an answer reflects every write
 * that finished before it was asked for.
 */
export class MemorySalesReads implements SalesReads {
  private facts = new Map<string, OrderFact>();
  private needsLoad = true;
  /** Orders changed since their fact was read. */
  private dirty = new Set<string>();
  private readonly reads = new Set<Changed>();
  private syncing: Promise<void> | undefined;

  constructor() {
    orderChanges.subscribe((change) => this.apply(change));
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
    // One pass over every order's fact.
    for (const f of (await this.current()).values()) {
      if (f.paid && f.paidAt >= from && f.paidAt < to) found.paid.push(f);
      if (f.placedAt >= from && f.placedAt < to) found.placed.push(f);
      if (f.holding) found.holding.push(f);
    }
    return found;
  }

  async warm(): Promise<void> {
    await this.current();
  }
}
