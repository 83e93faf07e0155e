import type { Model } from 'mongoose';
import type { Logger } from '../lib/logger';
import {
  MAIL_WAITING,
  mailEntry,
  onMailQueued,
  readEntry,
  type OutboxEntry,
  type WithOutbox,
} from './outbox-model';

/** One mail, before the worker adds its sender and Message-ID. */
export interface Message {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** What sends: a nodemailer transport, or anything with its `sendMail`. */
export interface MailSender {
  sendMail(mail: Message & { from: string; messageId: string }): Promise<unknown>;
}

/** A collection whose documents queue mail, and how each entry becomes a message. */
export interface MailSource {
  name: string;
  // Any document model: the worker reads and writes only the outbox fields.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- models of different document types
  model: Model<any>;
  /** The message of one entry, or null when there is nobody to tell (then it is marked sent). */
  compose(doc: WithOutbox, entry: OutboxEntry): Promise<Message | null>;
}

export interface Mailer {
  /** Looks for mail now (after a change that queued some); the timer looks too. */
  nudge(): void;
  /** One pass, awaited (tests, shutdown). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** How long a worker holds an entry it is sending before another may try it (a crash mid-send). */
const LEASE_MS = 60_000;

/** Waits after the n-th failed attempt: 5 s, 10 s, 20 s … up to an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The Message-ID of the mail a document sends as its `seq`-th (counting from 0): the same for every
 * attempt, so a resend is the same message.
 */
const messageIdOf = (source: string, docId: unknown, seq: number) =>
  `<${source}.${String(docId)}.${seq}@mail.motoparts>`;

/** A filter on `mailSent`, which is absent until the first entry is sent. */
const sentIs = (n: number) => (n === 0 ? { $exists: false } : n);

/** An entry as an earlier release stored it: a document, with its own send state. */
interface LegacyEntry {
  kind?: unknown;
  amountCents?: unknown;
  sentAt?: unknown;
}

/**
 * Sends what the outboxes hold: every `intervalMs`, and when nudged, for the documents this process
 * queued mail in (`onMailQueued`) and those a sweep finds. A document's first entry is leased
 * first (a conditional update of `mailNextAt`, so two API processes never send it both), sent with
 * its stable Message-ID, then taken off the queue in the update that counts it sent. A failure
 * waits with a growing backoff; an SMTP server that is down only delays the mail. A crash after the
 * server accepted a mail and before it was taken off sends it again after the lease, with the same
 * Message-ID.
 */
export function startMailer({
  sender,
  from,
  sources,
  log,
  intervalMs,
  sweepEveryMs,
}: {
  sender: MailSender;
  from: string;
  sources: MailSource[];
  log: Logger;
  intervalMs: number;
  /**
   * How often to also query every source for documents with mail due (what other processes
   * queued and did not send). Without it only at start: one process on the embedded database,
   * where the query reads the whole collection.
   */
  sweepEveryMs?: number;
}): Mailer {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let sweptAt = -Infinity;
  /** Per source, the documents to look at: queued by this process, swept, or still waiting. */
  const due = new Map(sources.map((source) => [source.name, new Set<string>()]));
  const unsubscribe = onMailQueued((source, id) => {
    due.get(source)?.add(id);
  });

  /**
   * Leases, sends and takes off the first entry of a document as read (`doc`), and answers the
   * document as that left it, with any mail queued meanwhile (composed from what it says then).
   * `lost`: another worker has it.
   */
  async function sendFirst(source: MailSource, doc: WithOutbox): Promise<WithOutbox | 'failed' | 'lost'> {
    const state = {
      sent: doc.mailSent ?? 0,
      nextAt: doc.mailNextAt ?? null,
      attempts: doc.mailAttempts ?? 0,
    };
    const stored = doc.outbox?.[0];
    const mine = { _id: doc._id, mailSent: sentIs(state.sent) };
    const leased = await source.model.updateOne(
      { ...mine, mailNextAt: state.nextAt ?? { $exists: false } },
      { $set: { mailNextAt: new Date(Date.now() + LEASE_MS) } },
    );
    if (leased.modifiedCount !== 1) return 'lost';
    const entry = readEntry(stored);
    try {
      if (!entry)
        log.warn({ source: source.name, id: String(doc._id), stored }, 'unknown mail entry dropped');
      const message = entry ? await source.compose(doc, entry) : null;
      if (message && message.to.length > 0) {
        await sender.sendMail({ ...message, from, messageId: messageIdOf(source.name, doc._id, state.sent) });
      }
    } catch (err) {
      const attempts = state.attempts + 1;
      const error = err instanceof Error ? err.message : String(err);
      log.warn(
        { source: source.name, id: String(doc._id), kind: entry?.kind, attempts, err: error },
        'mail not sent; retrying later',
      );
      await source.model.updateOne(mine, {
        $set: {
          mailAttempts: attempts,
          mailNextAt: new Date(Date.now() + backoffMs(attempts)),
          mailError: error.slice(0, 200),
        },
      });
      return 'failed';
    }
    const taken = (await source.model
      .findOneAndUpdate(
        mine,
        {
          $pop: { outbox: -1 },
          $inc: { mailSent: 1 },
          $unset: { mailNextAt: 1, mailAttempts: 1, mailError: 1 },
        },
        { new: true },
      )
      .lean()) as WithOutbox | null;
    return taken ?? 'lost';
  }

  /**
   * Rewrites an outbox an earlier release kept as documents: entries it had sent are dropped (and
   * counted in `mailSent`), the others kept as strings. Null when the document changed meanwhile.
   */
  async function upgradeOutbox(source: MailSource, doc: WithOutbox): Promise<WithOutbox | null> {
    const outbox = doc.outbox ?? [];
    const kept: string[] = [];
    let dropped = 0;
    for (const item of outbox) {
      if (typeof item === 'string') {
        kept.push(item);
        continue;
      }
      const old = (item ?? {}) as LegacyEntry;
      const entry = old.sentAt ? null : readEntry(old.kind);
      if (entry) {
        kept.push(mailEntry(entry.kind, typeof old.amountCents === 'number' ? old.amountCents : undefined));
      } else dropped += 1;
    }
    const res = await source.model.updateOne(
      { _id: doc._id, outbox },
      { $set: { outbox: kept }, ...(dropped > 0 ? { $inc: { mailSent: dropped } } : {}) },
    );
    return res.modifiedCount === 1 ? { ...doc, outbox: kept, mailSent: (doc.mailSent ?? 0) + dropped } : null;
  }

  /** Sends what one document has queued; true when some of its mail must wait for a later pass. */
  async function sendDue(source: MailSource, id: string): Promise<boolean> {
    let doc = (await source.model.findById(id).lean()) as WithOutbox | null;
    if (doc?.outbox?.some((item) => typeof item !== 'string')) {
      doc = await upgradeOutbox(source, doc);
      // Changed meanwhile: read again on the next pass.
      if (!doc) return true;
    }
    while (doc?.outbox?.length) {
      // Stopping, or the first entry waits (its backoff, or another worker's lease).
      if (stopped || (doc.mailNextAt && doc.mailNextAt.getTime() > Date.now())) return true;
      const outcome = await sendFirst(source, doc);
      if (outcome === 'failed' || outcome === 'lost') return true;
      doc = outcome;
    }
    return false;
  }

  async function pass(): Promise<void> {
    const sweep = Date.now() - sweptAt >= (sweepEveryMs ?? Infinity) || sweptAt === -Infinity;
    if (sweep) sweptAt = Date.now();
    for (const source of sources) {
      const ids = due.get(source.name) ?? new Set<string>();
      if (sweep) {
        const found = (await source.model.find(MAIL_WAITING, { _id: 1 }).lean()) as { _id: unknown }[];
        for (const doc of found) ids.add(String(doc._id));
      }
      const batch = [...ids];
      ids.clear();
      for (const id of batch) {
        if (stopped) return;
        if (await sendDue(source, id)) ids.add(id);
      }
    }
  }

  const runOnce = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again && !stopped);
      } catch (err) {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'mail pass failed; retrying');
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const timer = setInterval(() => void runOnce(), intervalMs);
  timer.unref();
  return {
    nudge: () => void runOnce(),
    runOnce,
    async stop() {
      clearInterval(timer);
      unsubscribe();
      stopped = true;
      await running;
    },
  };
}
