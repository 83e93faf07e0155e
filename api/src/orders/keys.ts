import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import { AppError } from '../lib/app-error';
import { OrderKeyModel, OrderModel, type OrderDoc, type OrderKeyDoc } from './model';
import { idempotencyKeySchema } from './validators';

/** How long an Idempotency-Key is remembered. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a retry waits for the first request with its key to answer before a 409. */
const WAIT_MS = 15_000;

export interface Answer {
  status: number;
  body: unknown;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Same JSON body regardless of key order, so a client that re-serialises still matches. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * POST /order with an Idempotency-Key: the first request with a key (per customer) runs `place`
 * with the order id it reserved for the key and stores its answer; a later request with the same
 * key and body gets that answer and creates nothing; with another body it gets a 422. Requests
 * racing with the first wait for its answer. The key lives in the database, so every API process
 * sees it.
 */
export async function withOrderKey(
  customer: string,
  key: string,
  body: unknown,
  place: (orderId: string) => Promise<Answer>,
  answerFor: (orderId: string) => Promise<Answer>,
): Promise<Answer> {
  const _id = sha256(`${customer}\n${key}`);
  const bodyHash = sha256(canonical(body));
  const mine = await claimKey(_id, bodyHash);
  if (mine) return runAndStore(mine, place);

  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const doc = await OrderKeyModel.findById(_id).lean<OrderKeyDoc>();
    if (!doc || isStale(doc)) {
      const again = await claimKey(_id, bodyHash, doc ?? undefined);
      if (again) return runAndStore(again, place);
      continue;
    }
    if (doc.bodyHash !== bodyHash) {
      throw new AppError(
        'UNPROCESSABLE_ENTITY',
        'This Idempotency-Key was already used for a different order. Use a new key for a new order.',
      );
    }
    if (doc.status !== undefined && doc.status !== null) return { status: doc.status, body: doc.body };
    // The first request is still running, or died before answering: its order tells which.
    const order = await OrderModel.findById(doc.orderId, { hold: 1 }).lean<OrderDoc>();
    if (order?.hold === 'void') {
      // A recovery pass gave the stock of a dead attempt back and barred its id: this key gets a
      // new order id (only if still on the old one), and the loop places it under that.
      const fresh = new Types.ObjectId().toHexString();
      await OrderKeyModel.updateOne({ _id: doc._id, orderId: doc.orderId }, { $set: { orderId: fresh } });
      continue;
    }
    const abandoned = Date.now() - doc.createdAt.getTime() > WAIT_MS;
    if (!order && abandoned) {
      // Nothing was placed under this key and nobody is answering: place it now, same order id.
      return runAndStore(doc, place);
    }
    if (order && order.hold !== 'reserving' && abandoned) {
      // Placed, but the request died before storing its answer: the order is the answer.
      return runAndStore(doc, () => answerFor(doc.orderId));
    }
    if (Date.now() > deadline) {
      throw AppError.conflict('An order with this Idempotency-Key is still being placed. Retry in a moment.');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A placing request's answer under the `Idempotency-Key` header it sent, if any: the header is
 * checked by its one schema (a bad one is a 400 and places nothing), then the request goes
 * through `withOrderKey`, or places at once without a key. An order's and a checkout's keys never
 * meet: each names its own kind of request.
 */
export async function answerOnce(
  sent: string,
  kind: 'order' | 'checkout',
  customer: string,
  body: unknown,
  place: (id?: string) => Promise<Answer>,
  answerFor: (id: string) => Promise<Answer>,
): Promise<Answer> {
  if (!sent) return place();
  const parsed = idempotencyKeySchema.safeParse(sent);
  if (!parsed.success) throw AppError.badRequest(parsed.error.issues[0]?.message ?? 'Bad Idempotency-Key.');
  // Keys of single orders are stored as sent, as they always were.
  const key = kind === 'order' ? parsed.data : `checkout\n${parsed.data}`;
  // The key remembers the body as sent, so a retry must send the same JSON.
  return withOrderKey(customer, key, body, place, answerFor);
}

function isStale(doc: OrderKeyDoc): boolean {
  return Date.now() - doc.createdAt.getTime() > KEY_TTL_MS;
}

/** Inserts the key (or takes over an expired one); the doc if this request owns it, else null. */
async function claimKey(_id: string, bodyHash: string, stale?: OrderKeyDoc): Promise<OrderKeyDoc | null> {
  const fresh = { _id, bodyHash, orderId: new Types.ObjectId().toHexString(), createdAt: new Date() };
  if (stale) {
    // An expired key: replace it only if it is still that same expired document.
    const res = await OrderKeyModel.replaceOne({ _id, createdAt: stale.createdAt }, fresh);
    return res.modifiedCount === 1 ? fresh : null;
  }
  try {
    await OrderKeyModel.create(fresh);
    return fresh;
  } catch (err) {
    if ((err as { code?: unknown }).code === 11000) return null;
    throw err;
  }
}

async function runAndStore(doc: OrderKeyDoc, place: (orderId: string) => Promise<Answer>): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await place(doc.orderId);
  } catch (err) {
    // A refusal (4xx) is an answer too and is replayed; a 5xx is not, so a retry tries again.
    if (err instanceof AppError && err.status < 500) {
      await OrderKeyModel.updateOne({ _id: doc._id }, { $set: { status: err.status, body: err.toBody() } });
    }
    throw err;
  }
  await OrderKeyModel.updateOne({ _id: doc._id }, { $set: { status: answer.status, body: answer.body } });
  return answer;
}
