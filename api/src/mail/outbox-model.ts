import { Schema, Types, type Schema as SchemaType } from 'mongoose';

/*
 * Mail waits in the document whose change it tells of: the change and its outbox entry are one
 * atomic update, so a change that happened always has its mail queued and a repeated change (a
 * webhook twice, a retried request) queues none. The worker (mail/outbox.ts) sends each entry and
 * marks it sent by its index: entries are only ever appended, so an index names one entry for
 * good (FerretDB has neither the positional `$` nor array filters).
 */

export const MAIL_KINDS = [
  'placed',
  'paid',
  'shipped',
  'delivered',
  'refunded',
  'soldOut',
  'runningLow',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface OutboxEntry {
  /** Stable: the Message-ID is made of it, so a resend after a crash is the same message. */
  id: string;
  kind: MailKind;
  createdAt: Date;
  /** Cents, for a refund's mail. */
  amountCents?: number | null;
  attempts?: number | null;
  /** Not before this (backoff after a failed attempt). */
  nextAt?: Date | null;
  sentAt?: Date | null;
  lastError?: string | null;
}

const entrySchema = new Schema<OutboxEntry>(
  {
    id: { type: String, required: true },
    kind: { type: String, enum: MAIL_KINDS, required: true },
    createdAt: { type: Date, required: true },
    amountCents: Number,
    attempts: Number,
    nextAt: Date,
    sentAt: Date,
    lastError: String,
  },
  { _id: false },
);

/** The fields a document with an outbox carries (spread into its schema). */
export const outboxFields = {
  outbox: { type: [entrySchema], default: undefined },
  /** Set with every entry queued, unset by the worker once all are sent: what it looks for. */
  mailDue: { type: Boolean },
};

/** The index the worker reads: only documents with mail to send are in it. */
export const outboxIndex = [{ mailDue: 1 }, { sparse: true }] as const;

/** The fields of a document with an outbox, as read. */
export interface WithOutbox {
  _id: unknown;
  outbox?: OutboxEntry[] | null;
  mailDue?: boolean | null;
}

/** A new entry. */
export function mailEntry(kind: MailKind, amountCents?: number): OutboxEntry {
  return {
    id: new Types.ObjectId().toHexString(),
    kind,
    createdAt: new Date(),
    ...(amountCents !== undefined ? { amountCents } : {}),
  };
}

type Update = {
  $set?: Record<string, unknown>;
  $push?: Record<string, unknown>;
  $inc?: Record<string, number>;
  $unset?: Record<string, unknown>;
};

/**
 * `update` with mail queued in the same step: the entries are pushed and `mailDue` set. `keep` bounds the outbox (for documents that queue mail for ever, such as a part's stock
 * alerts); a sent entry dropped from its front only moves the indices, which the worker checks.
 */
export function withMail<U extends Update>(update: U, entries: OutboxEntry[], keep?: number): U {
  if (entries.length === 0) return update;
  return {
    ...update,
    $set: { ...update.$set, mailDue: true },
    $push: {
      ...update.$push,
      outbox: keep ? { $each: entries, $slice: -keep } : { $each: entries },
    },
  };
}

/** The outbox fields of a document inserted with mail queued. */
export function mailFields(entries: OutboxEntry[]): Pick<WithOutbox, 'outbox' | 'mailDue'> {
  return { outbox: entries, mailDue: true };
}

/*
 * Which documents got mail queued, as this process wrote them: the worker takes these instead of
 * querying `mailDue`, which on the embedded FerretDB reads every document of the collection (it
 * pushes no filter down). Documents queued by a process that died are found by one query at the
 * worker's start, and (with MongoDB, where the sparse index answers it) by a periodic sweep.
 */
const queuedListeners = new Set<(source: string, id: string) => void>();

/** Hears of every document that gets mail queued through a model with `outboxHooks`. */
export function onMailQueued(listener: (source: string, id: string) => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

/** Tells `onMailQueued` of a document a write through the driver queued mail in (no hook saw it). */
export function queued(source: string, id: unknown): void {
  for (const listener of queuedListeners) listener(source, String(id));
}

/** Tells `onMailQueued` of the documents of `schema` (named `source`) that get mail queued. */
export function outboxHooks(schema: SchemaType, source: string): void {
  schema.post('save', (doc: WithOutbox) => {
    if (doc.mailDue) queued(source, doc._id);
  });
  schema.post('insertMany', (docs: WithOutbox[]) => {
    for (const doc of docs) if (doc.mailDue) queued(source, doc._id);
  });
  schema.post(
    ['updateOne', 'findOneAndUpdate'],
    { document: false, query: true },
    function (this: { getFilter(): Record<string, unknown>; getUpdate(): unknown }) {
      const update = this.getUpdate() as { $set?: { mailDue?: unknown } } | null;
      const id = this.getFilter()._id;
      if (update?.$set?.mailDue === true && id !== undefined) queued(source, id);
    },
  );
}
