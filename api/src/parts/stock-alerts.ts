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
 * part is read and its level compared with the one admins were last told (`stockAlert`), and a
 * move down queues the mail in the same conditional update that records the new level (on the
 * stock and minimum read, so a change in between is judged again on its own announcement). A
 * restock above a level re-arms it silently.
 */

const SEVERITY: Record<StockLevel | 'ok', number> = { ok: 0, low: 1, soldOut: 2 };
/** A part's outbox keeps its latest entries only: alerts are queued as long as it sells. */
const KEEP = 10;

export function stockLevel(availableQty: number, minOrderQty: number, factor: number): StockLevel | 'ok' {
  if (availableQty < minOrderQty) return 'soldOut';
  if (availableQty < minOrderQty * factor) return 'low';
  return 'ok';
}

/** Compares one part's stock with its last alert, and records (and mails) a move. */
export async function checkStock(id: string, factor: number): Promise<void> {
  // An archived part is restocked by nobody: its level no longer concerns the admins.
  const part = await PartModel.findOne(
    { _id: id, ...ON_SALE },
    { availableQty: 1, minOrderQty: 1, stockAlert: 1 },
  ).lean<PartDoc>();
  if (!part) return;
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
    withMail(
      { $set: { stockAlert: level } },
      [mailEntry(level === 'soldOut' ? 'soldOut' : 'runningLow')],
      KEEP,
    ),
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
    for (const id of ids) {
      await checkStock(id, factor).catch((err: unknown) =>
        log.warn({ partId: id, err: (err as Error).message }, 'stock alert not checked'),
      );
    }
  };
  const unsubscribe = partWrites.subscribe((scope) => {
    if (scope === 'all') return;
    for (const id of scope.ids) pending.add(id);
    // Batched: a checkout's lines, or a burst of orders on one part, cost one read each.
    timer ??= setTimeout(() => void flush(), 200);
  });
  const ready = (async () => {
    const parts = await PartModel.find(ON_SALE, { availableQty: 1, minOrderQty: 1, stockAlert: 1 }).lean<
      PartDoc[]
    >();
    for (const part of parts) {
      if (stockLevel(part.availableQty, part.minOrderQty, factor) !== (part.stockAlert ?? 'ok'))
        await checkStock(String(part._id), factor);
    }
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
