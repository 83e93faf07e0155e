import type { Model } from 'mongoose';
import type { Logger } from '../lib/logger';
import { onMailQueued, type OutboxEntry, type WithOutbox } from './outbox-model';

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

/** The Message-ID of an entry: the same for every attempt, so a resend is the same message. */
export const messageIdOf = (entry: Pick<OutboxEntry, 'id'>) => `<${entry.id}@mail.motoparts>`;

/**
 * Sends what the outboxes hold: every `intervalMs`, and when nudged, for the documents this process
 * queued mail in (`onMailQueued`) and those a sweep finds. Each entry is leased first
 * (a conditional update of its `nextAt`, so two API processes never send it both), sent with its
 * stable Message-ID, then marked sent by its index. A failure waits with a growing backoff; an
 * SMTP server that is down only delays the mail. A crash after the server accepted a mail and
 * before its mark sends it again after the lease, with the same Message-ID.
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
   * Sets fields of the entry `entryId`, read at `index`. In an outbox kept short an entry queued
   * meanwhile drops the oldest and moves the others down by one: then the entry is found again by
   * its id, so a sent mail is still marked sent (and never sent again after its lease).
   */
  async function setOnEntry(
    source: MailSource,
    docId: unknown,
    entryId: string,
    index: number,
    fields: Partial<OutboxEntry>,
  ): Promise<void> {
    let at = index;
    for (let attempt = 0; attempt < 3; attempt++) {
      const set = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`outbox.${at}.${k}`, v]));
      const res = await source.model.updateOne({ _id: docId, [`outbox.${at}.id`]: entryId }, { $set: set });
      if (res.modifiedCount === 1) return;
      const now = (await source.model.findById(docId, { outbox: 1 }).lean()) as WithOutbox | null;
      at = (now?.outbox ?? []).findIndex((e) => e.id === entryId);
      // Gone from the front of a short outbox: nothing is left to mark.
      if (at < 0) return;
    }
  }

  /**
   * Leases, sends and marks one entry. `last`: it is the outbox's last entry and every one before
   * it is sent, so its mark also ends `mailDue` (`settled`), unless an entry was queued since the
   * read (then the entry after it exists, and only the mark is made).
   */
  async function sendEntry(
    source: MailSource,
    doc: WithOutbox,
    entry: OutboxEntry,
    index: number,
    last: boolean,
  ): Promise<{ sent: boolean; settled: boolean }> {
    const at = `outbox.${index}`;
    const now = Date.now();
    const leased = await source.model.updateOne(
      {
        _id: doc._id,
        [`${at}.id`]: entry.id,
        [`${at}.sentAt`]: { $exists: false },
        [`${at}.nextAt`]: entry.nextAt ?? { $exists: false },
      },
      { $set: { [`${at}.nextAt`]: new Date(now + LEASE_MS) } },
    );
    if (leased.modifiedCount !== 1) return { sent: false, settled: false };
    try {
      const message = await source.compose(doc, entry);
      if (message && message.to.length > 0) {
        await sender.sendMail({ ...message, from, messageId: messageIdOf(entry) });
      }
      if (last) {
        const settled = await source.model.updateOne(
          { _id: doc._id, [`${at}.id`]: entry.id, [`outbox.${index + 1}`]: { $exists: false } },
          { $set: { [`${at}.sentAt`]: new Date() }, $unset: { mailDue: 1 } },
        );
        if (settled.modifiedCount === 1) return { sent: true, settled: true };
      }
      await setOnEntry(source, doc._id, entry.id, index, { sentAt: new Date() });
      return { sent: true, settled: false };
    } catch (err) {
      const attempts = (entry.attempts ?? 0) + 1;
      const error = err instanceof Error ? err.message : String(err);
      log.warn(
        { source: source.name, id: String(doc._id), kind: entry.kind, attempts, err: error },
        'mail not sent; retrying later',
      );
      await setOnEntry(source, doc._id, entry.id, index, {
        attempts,
        nextAt: new Date(Date.now() + backoffMs(attempts)),
        lastError: error.slice(0, 200),
      });
      return { sent: false, settled: false };
    }
  }

  /** Sends what one document has due; true when some of its mail must wait for a later pass. */
  async function sendDue(source: MailSource, id: string): Promise<boolean> {
    const doc = (await source.model.findById(id).lean()) as WithOutbox | null;
    if (!doc?.mailDue) return false;
    let waiting = false;
    // Whether every entry before the current one is sent (then the last one's mark settles all).
    let allSent = true;
    const entries = doc.outbox ?? [];
    for (const [index, entry] of entries.entries()) {
      if (stopped) return true;
      if (entry.sentAt) continue;
      if (entry.nextAt && entry.nextAt.getTime() > Date.now()) {
        waiting = true;
        allSent = false;
        continue;
      }
      const { sent, settled } = await sendEntry(
        source,
        doc,
        entry,
        index,
        allSent && index === entries.length - 1,
      );
      // Sent and no longer due in the same update: nothing was queued since the read.
      if (settled) return false;
      allSent &&= sent;
    }
    // Read again: what this pass sent, failed (now waiting) or what was queued meanwhile.
    const now = (await source.model.findById(id).lean()) as WithOutbox | null;
    if ((now?.outbox ?? []).some((e) => !e.sentAt)) return true;
    if (!waiting && now) {
      // All sent: no longer due, unless mail was queued after this read: then the last entry read
      // is no longer the last (or, in an outbox kept short, no longer at its place).
      const entries = now.outbox ?? [];
      const last = entries.length - 1;
      await source.model.updateOne(
        {
          _id: now._id,
          ...(last >= 0 ? { [`outbox.${last}.id`]: entries[last]?.id } : {}),
          [`outbox.${last + 1}`]: { $exists: false },
        },
        { $unset: { mailDue: 1 } },
      );
    }
    return false;
  }

  async function pass(): Promise<void> {
    const sweep = Date.now() - sweptAt >= (sweepEveryMs ?? Infinity) || sweptAt === -Infinity;
    if (sweep) sweptAt = Date.now();
    for (const source of sources) {
      const ids = due.get(source.name) ?? new Set<string>();
      if (sweep) {
        const found = (await source.model.find({ mailDue: true }, { _id: 1 }).lean()) as { _id: unknown }[];
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
