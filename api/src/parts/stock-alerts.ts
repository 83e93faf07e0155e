import { Types } from 'mongoose';
import type { Logger } from '../lib/logger';
import { render } from '../mail/layout';
import type { MailSource } from '../mail/outbox';
import { mailEntry, withMail, type WithOutbox } from '../mail/outbox-model';
import { UserModel } from '../users/model';
import { ON_SALE, PartModel, partWrites, type PartDoc, type StockLevel } from './model';

/*
 * Admins hear when a part's stock falls below what it should hold: sold out (less than one
 * minimum order left) and running low (less than LOW_STOCK_FACTOR minimum orders), each once per
 * downward crossing. Every stock change announces its part (parts/model.ts `partWrites`); the
 * parts announced within 200 ms are read in one query (a checkout's lines, a burst of orders), each
 * one's level is compared with the one admins were last told (`stockAlert`), and a
 * move down queues the mail in the same conditional update that records the new level (on the
 * stock and minimum read, so a change in between is judged again on its own announcement). A
 * restock above a level re-arms it silently.
 */

const SEVERITY: Record<StockLevel | 'ok', number> = { ok: 0, low: 1, soldOut: 2 };
/** Parts per read (a bounded `$in`). */
const READ_BATCH = 200;

export function stockLevel(availableQty: number, minOrderQty: number, factor: number): StockLevel | 'ok' {
  if (availableQty < minOrderQty) return 'soldOut';
  if (availableQty < minOrderQty * factor) return 'low';
  return 'ok';
}

type StockRead = Pick<PartDoc, '_id' | 'availableQty' | 'minOrderQty' | 'stockAlert'>;

/**
 * Compares these parts' stock with their last alerts, read in one query, and records (and mails)
 * each move. An archived part is restocked by nobody: its level no longer concerns the admins.
 */
async function checkStocks(ids: string[], factor: number): Promise<void> {
  const valid = ids.filter((id) => Types.ObjectId.isValid(id));
  if (valid.length === 0) return;
  const parts = await PartModel.find(
    { _id: { $in: valid }, ...ON_SALE },
    { availableQty: 1, minOrderQty: 1, stockAlert: 1 },
  ).lean<StockRead[]>();
  for (const part of parts) await recordLevel(part, factor);
}

/** Records a part's move to another level, on the stock and minimum read (else it moved again). */
async function recordLevel(part: StockRead, factor: number): Promise<void> {
  const level = stockLevel(part.availableQty, part.minOrderQty, factor);
  const told = part.stockAlert ?? 'ok';
  if (level === told) return;
  const filter = {
    _id: part._id,
    availableQty: part.availableQty,
    minOrderQty: part.minOrderQty,
    stockAlert: part.stockAlert ?? { $exists: false },
  };
  if (SEVERITY[level] < SEVERITY[told]) {
    await PartModel.updateOne(
      filter,
      level === 'ok' ? { $unset: { stockAlert: 1 } } : { $set: { stockAlert: level } },
    );
    return;
  }
  await PartModel.updateOne(
    filter,
    withMail({ $set: { stockAlert: level } }, [mailEntry(level === 'soldOut' ? 'soldOut' : 'runningLow')]),
  );
}

/**
 * Watches the stock of every part this process changes (and, once at start, of all parts: a
 * change whose check a crash cut off). Returns a stop function.
 */
export function watchStock(factor: number, log: Logger): { ready: Promise<void>; stop: () => void } {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    timer = undefined;
    const ids = [...pending];
    pending.clear();
    // A read per batch: the lines of the checkouts, and the parts of the orders, of 200 ms.
    for (let i = 0; i < ids.length; i += READ_BATCH) {
      const batch = ids.slice(i, i + READ_BATCH);
      await checkStocks(batch, factor).catch((err: unknown) =>
        log.warn({ partIds: batch, err: (err as Error).message }, 'stock alerts not checked'),
      );
    }
  };
  const unsubscribe = partWrites.subscribe((scope) => {
    if (scope === 'all') return;
    for (const id of scope.ids) pending.add(id);
    // Batched: the parts written within 200 ms are read together.
    timer ??= setTimeout(() => void flush(), 200);
  });
  const ready = (async () => {
    const parts = await PartModel.find(ON_SALE, { availableQty: 1, minOrderQty: 1, stockAlert: 1 }).lean<
      PartDoc[]
    >();
    for (const part of parts) await recordLevel(part, factor);
  })().catch((err: unknown) =>
    log.warn({ err: (err as Error).message }, 'stock alerts not checked at start'),
  );
  return {
    ready,
    stop() {
      unsubscribe();
      if (timer) clearTimeout(timer);
    },
  };
}

/** The parts' outboxes, for the mail worker: every admin's address (and ADMIN_EMAILS). */
export function stockAlertSource(shop: string, adminEmails: readonly string[]): MailSource {
  return {
    name: 'parts',
    model: PartModel,
    compose: async (doc: WithOutbox, entry) => {
      const part = doc as unknown as PartDoc;
      const admins = await UserModel.find({ role: 'admin' }, { email: 1 }).lean<{ email?: string }[]>();
      const to = [...new Set([...admins.map((a) => a.email ?? ''), ...adminEmails].filter(Boolean))];
      const soldOut = entry.kind === 'soldOut';
      const body = render({
        subject: soldOut ? `Sold out: ${part.name}` : `Running low: ${part.name}`,
        greeting: 'Hello,',
        paragraphs: [
          soldOut
            ? `${part.name} is sold out: ${part.availableQty.toLocaleString('en-US')} pieces left, less than its minimum order of ${part.minOrderQty.toLocaleString('en-US')}.`
            : `${part.name} is running low: ${part.availableQty.toLocaleString('en-US')} pieces left, with a minimum order of ${part.minOrderQty.toLocaleString('en-US')}.`,
          'Restock it from Manage Products.',
        ],
        action: { label: 'Manage Products', url: `${shop}/dashboard/manageProduct` },
      });
      return { to, ...body };
    },
  };
}
