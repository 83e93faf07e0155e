import { Schema, type Schema as SchemaType } from 'mongoose';

/*
 * Mail waits in the document whose change it tells of: the change and its outbox entry are one
 * atomic update, so a change that happened always has its mail queued and a repeated change (a
 * webhook twice, a retried request) queues none. The outbox is a queue: the worker
 * (mail/outbox.ts) sends its first entry and takes it off in the update that counts it sent
 * (`mailSent`), so a document keeps only the mail it has yet to send. An entry is a short string
 * (`paid`, `refunded:1200`): the embedded FerretDB rewrites the whole document on every update, and
 * a nested document costs it more than the same fact as a string (api/README.md, "The outbox").
 * The worker's state of the first entry (its lease or backoff, attempts, last error) sits beside
 * the queue, as plain fields.
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

/** A queued mail, as the composer reads it. */
export interface OutboxEntry {
  kind: MailKind;
  /** Cents, for a refund's mail. */
  amountCents?: number;
}

/** A queued mail as stored: its kind, and a refund's amount after a colon. */
export type StoredEntry = string;

/** The fields a document with an outbox carries (spread into its schema). */
export const outboxFields = {
  // Strings; a document an earlier release wrote may still hold entries as documents, which the
  // worker rewrites the first time it reads them (mail/outbox.ts).
  outbox: { type: [Schema.Types.Mixed], default: undefined },
  /** Entries sent (and taken off) so far: with the document's id, the next one's Message-ID. */
  mailSent: { type: Number },
  /** Not before this: the first entry's lease while it is sent, or its backoff after a failure. */
  mailNextAt: { type: Date },
  /** Failed attempts at the first entry, and the last one's error. */
  mailAttempts: { type: Number },
  mailError: { type: String },
};

/** Documents with mail to send: a first entry in the queue. */
export const MAIL_WAITING = { 'outbox.0': { $exists: true } } as const;

/**
 * The index the worker's sweep reads: sparse on the first entry, so only documents with mail to
 * send are in it (MongoDB answers `$exists: true` from a sparse index).
 */
export const outboxIndex = [{ 'outbox.0': 1 }, { sparse: true }] as const;

/** The fields of a document with an outbox, as read. */
export interface WithOutbox {
  _id: unknown;
  outbox?: unknown[] | null;
  mailSent?: number | null;
  mailNextAt?: Date | null;
  mailAttempts?: number | null;
  mailError?: string | null;
}

/** A new entry. */
export function mailEntry(kind: MailKind, amountCents?: number): StoredEntry {
  return amountCents === undefined ? kind : `${kind}:${amountCents}`;
}

/** A stored entry read back; null for anything else. */
export function readEntry(stored: unknown): OutboxEntry | null {
  if (typeof stored !== 'string') return null;
  const [kind = '', amount] = stored.split(':');
  if (!(MAIL_KINDS as readonly string[]).includes(kind)) return null;
  const amountCents = amount === undefined ? undefined : Number(amount);
  return {
    kind: kind as MailKind,
    ...(amountCents !== undefined && Number.isFinite(amountCents) ? { amountCents } : {}),
  };
}

type Update = {
  $set?: Record<string, unknown>;
  $push?: Record<string, unknown>;
  $inc?: Record<string, number>;
  $unset?: Record<string, unknown>;
};

/** `update` with mail queued in the same step: the entries pushed. */
export function withMail<U extends Update>(update: U, entries: StoredEntry[]): U {
  if (entries.length === 0) return update;
  return {
    ...update,
    $push: { ...update.$push, outbox: entries.length === 1 ? entries[0] : { $each: entries } },
  };
}

/** The outbox fields of a document inserted with mail queued. */
export function mailFields(entries: StoredEntry[]): Pick<WithOutbox, 'outbox'> {
  return { outbox: entries };
}

/*
 * Which documents got mail queued, as this process wrote them: the worker takes these instead of
 * querying `MAIL_WAITING`, which on the embedded FerretDB reads every document of the collection (it
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
  const hasMail = (doc: WithOutbox) => (doc.outbox?.length ?? 0) > 0;
  schema.post('save', (doc: WithOutbox) => {
    if (hasMail(doc)) queued(source, doc._id);
  });
  schema.post('insertMany', (docs: WithOutbox[]) => {
    for (const doc of docs) if (hasMail(doc)) queued(source, doc._id);
  });
  schema.post(
    ['updateOne', 'findOneAndUpdate'],
    { document: false, query: true },
    function (this: { getFilter(): Record<string, unknown>; getUpdate(): unknown }) {
      const update = this.getUpdate() as { $push?: { outbox?: unknown } } | null;
      const id = this.getFilter()._id;
      if (update?.$push?.outbox !== undefined && id !== undefined) queued(source, id);
    },
  );
}
