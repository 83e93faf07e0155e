import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Order } from '@motoparts/contracts';
import mongoose, { Types } from 'mongoose';
import { shopUrl } from '../lib/env';
import { createLogger } from '../lib/logger';
import { startMailer, type Mailer, type MailSender } from '../mail/outbox';
import { mailEntry, withMail } from '../mail/outbox-model';
import { createMailTransport } from '../mail/transport';
import { orderMailSources } from '../orders/mails';
import { OrderModel } from '../orders/model';
import { PartModel } from '../parts/model';
import { stockAlertSource, watchStock } from '../parts/stock-alerts';
import { UserModel } from '../users/model';
import { account, cast, uniqueEmail, type Account } from './support/auth';
import {
  buildApi,
  customerTokens,
  eventually,
  freePort,
  got,
  kill,
  seedCustomers,
  seedParts,
  startApi,
  startFerret,
} from './support/faults';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { messagesTo, readMessage, waitForMessagesTo } from './support/mailpit';
import { postSucceededWebhook } from './support/stripe-proxy';

// Mail to every buyer against the real app, FerretDB, the emulator, stripe-mock and Mailpit: one
// mail per change (a webhook five times over sends one receipt), in the shop's look with the
// profile's name, nothing secret; admins told of sold-out and running-low parts once per
// crossing; an SMTP server that is down delays the mail; a kill -9 after the change and before
// the send loses none.

let t: TestApp;
let customer: Account;
let admin: Account;
let mailer: Mailer;
let stopStock: () => void;
const adminEmail = uniqueEmail('mailadmin');
let log: ReturnType<typeof createLogger>;

/** A TCP relay to Mailpit's SMTP port that can be switched off, as a mail server going down. */
async function smtpRelay(): Promise<{ url: string; down: () => Promise<void>; up: () => Promise<void> }> {
  const target = new URL(process.env.SMTP_URL ?? '');
  const port = await freePort();
  let server: net.Server | undefined;
  const sockets = new Set<net.Socket>();
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
    });
  await up();
  return { url: `smtp://127.0.0.1:${port}`, down, up };
}

beforeAll(async () => {
  t = await startTestApp('order_mail', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_STRIPE: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, admin } = await cast(t.base, adminEmail));
  log = createLogger(t.env);
  const shop = shopUrl(t.env);
  mailer = startMailer({
    sender: got(createMailTransport(t.env)),
    from: t.env.MAIL_FROM,
    sources: [...orderMailSources(shop), stockAlertSource(shop, t.env.ADMIN_EMAILS)],
    log,
    intervalMs: 100,
  });
  stopStock = watchStock(3, log).stop;
});
afterAll(async () => {
  stopStock();
  await mailer.stop();
  await t.close();
});

const subjects = async (email: string) => (await messagesTo(email)).map((m) => m.Subject);

describe('mail to the buyer', () => {
  it('tells of each change once, in text and HTML, greeting the profile name, with nothing secret', async () => {
    const buyer = await account(t.base, uniqueEmail('mailbuyer'), 'Mail Buyer');
    await UserModel.updateOne({ email: buyer.email }, { $set: { name: 'Marta Rider' } });
    const partsId = await insertPart({ name: 'Mail Test Chain', price: 3, availableQty: 5000 });
    const placed = await call<Order>(t.base, 'POST', '/order', {
      token: buyer.token,
      body: { partsId, qty: 200 },
    });
    expect(placed.status).toBe(201);
    const id = placed.body._id;
    await waitForMessagesTo(buyer.email, { count: 1 });

    // Stripe delivers the same success five times at once: one receipt.
    const paid = await Promise.all(
      Array.from({ length: 5 }, () => postSucceededWebhook(t, id, 60000, 'pi_mail_receipt')),
    );
    expect(paid.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
    await waitForMessagesTo(buyer.email, { count: 2 });
    const ship = await call(t.base, 'PATCH', `/order/${id}/status`, {
      token: admin.token,
      body: { status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999AA10123456784' },
    });
    expect(ship.status).toBe(200);
    await waitForMessagesTo(buyer.email, { count: 3 });
    expect(
      (
        await call(t.base, 'PATCH', `/order/${id}/status`, {
          token: admin.token,
          body: { status: 'delivered' },
        })
      ).status,
    ).toBe(200);
    await waitForMessagesTo(buyer.email, { count: 4 });
    expect(
      (await call(t.base, 'POST', `/order/${id}/refund`, { token: admin.token, body: { amount: 12 } }))
        .status,
    ).toBe(200);
    const all = await waitForMessagesTo(buyer.email, { count: 5 });
    // Give a stray second copy the time to arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    expect(await subjects(buyer.email)).toEqual([
      `Your MotoParts order ${id}`,
      `Receipt for your MotoParts order ${id}`,
      `Your MotoParts order ${id} has shipped`,
      `Your MotoParts order ${id} was delivered`,
      `Refund for your MotoParts order ${id}`,
    ]);
    // One Message-ID per mail, made of the order and the mail's place in its sequence.
    expect(all.map((m) => m.MessageID)).toEqual(
      [0, 1, 2, 3, 4].map((n) => `orders.${id}.${n}@mail.motoparts`),
    );

    const [placedMail, receipt, shipped, , refund] = await Promise.all(all.map((m) => readMessage(m.ID)));
    for (const mail of [placedMail, receipt, shipped, refund]) {
      expect(mail?.Text).toContain('Hello Marta Rider,');
      expect(mail?.HTML).toContain('Hello Marta Rider,');
      expect(mail?.From?.Address).toBe('orders@motoparts.test');
      for (const secret of [buyer.token, buyer.idToken, t.env.JWT_SECRET, t.env.STRIPE_SECRET_KEY]) {
        expect(`${mail?.Text}${mail?.HTML}`).not.toContain(secret);
      }
    }
    expect(placedMail?.Text).toContain('Mail Test Chain: 200 × $3.00 = $600.00');
    expect(placedMail?.Text).toContain(`${shopUrl(t.env)}/dashboard/payment/${id}`);
    expect(receipt?.Text).toContain('Transaction id: pi_mail_receipt');
    expect(shipped?.Text).toContain('Carrier: UPS');
    expect(shipped?.Text).toContain('Tracking number: 1Z999AA10123456784');
    expect(refund?.Text).toContain('We refunded $12.00');
    // Each mail left the queue as it was sent: the order keeps none, and counts five.
    const doc = got(await OrderModel.findById(id).lean());
    expect(doc.outbox).toEqual([]);
    expect(doc.mailSent).toBe(5);
    expect(doc.mailNextAt).toBeUndefined();
  });

  it('a checkout gets one order mail and one receipt for all its lines', async () => {
    const buyer = await account(t.base, uniqueEmail('mailcheckout'), 'Checkout Buyer');
    const a = await insertPart({ name: 'Mail Brake Pads', price: 4, availableQty: 5000 });
    const b = await insertPart({ name: 'Mail Oil Filter', price: 2, availableQty: 5000 });
    await call(t.base, 'PUT', `/cart/lines/${a}`, { token: buyer.token, body: { qty: 100 } });
    await call(t.base, 'PUT', `/cart/lines/${b}`, { token: buyer.token, body: { qty: 300 } });
    const placed = await call<{ checkoutId: string }>(t.base, 'POST', '/checkout', {
      token: buyer.token,
      body: { address: '3 Gear Street, Turin', phone: '+39 011 555 0101' },
    });
    expect(placed.status).toBe(201);
    const { checkoutId } = placed.body;
    await postSucceededWebhook(t, checkoutId, 100000, 'pi_mail_checkout', { checkoutId });
    const mails = await waitForMessagesTo(buyer.email, { count: 2 });
    await new Promise((r) => setTimeout(r, 500));
    expect(await subjects(buyer.email)).toEqual([
      `Your MotoParts order (checkout ${checkoutId})`,
      `Receipt for your MotoParts order (checkout ${checkoutId})`,
    ]);
    const receipt = await readMessage(got(mails[1]).ID);
    expect(receipt.Text).toContain('Mail Brake Pads: 100 × $4.00 = $400.00');
    expect(receipt.Text).toContain('Mail Oil Filter: 300 × $2.00 = $600.00');
    expect(receipt.Text).toContain('Total: $1,000.00');
  });

  it('sends a mail in three commands on its document: the read, the lease, and the update that takes it off', async () => {
    const buyer = await account(t.base, uniqueEmail('mailcommands'), 'Command Buyer');
    const partsId = await insertPart({ name: 'Mail Command Lever', price: 2, availableQty: 5000 });
    const commands: { method: string; id: string }[] = [];
    mongoose.set('debug', (collection: string, method: string, query?: { _id?: unknown }) => {
      if (collection === 'orders') commands.push({ method, id: String(query?._id ?? '') });
    });
    let id = '';
    try {
      const placed = await call<Order>(t.base, 'POST', '/order', {
        token: buyer.token,
        body: { partsId, qty: 100 },
      });
      expect(placed.status).toBe(201);
      id = placed.body._id;
      await waitForMessagesTo(buyer.email, { count: 1 });
      // The pass that sent it, to its end (and one more if it left the order queued).
      await mailer.runOnce();
    } finally {
      mongoose.set('debug', false);
    }
    const worker = commands.filter((c) => c.id === id && c.method !== 'insertOne').map((c) => c.method);
    expect(worker).toEqual(['findOne', 'updateOne', 'findOneAndUpdate']);
    const doc = got(await OrderModel.findById(id).lean());
    expect(doc.outbox).toEqual([]);
    expect(doc.mailSent).toBe(1);
    expect(doc.mailNextAt).toBeUndefined();
  });
});

describe('stock alerts to admins', () => {
  it('running low, then sold out, each once per downward crossing; a restock re-arms them', async () => {
    const name = `Alert Part ${Date.now()}`;
    const partsId = await insertPart({ name, minOrderQty: 100, availableQty: 1000 });
    const buyer = customer;
    const order = (qty: number) =>
      call(t.base, 'POST', '/order', { token: buyer.token, body: { partsId, qty } });
    expect((await order(800)).status).toBe(201); // 200 left: below 3 × 100
    await waitForMessagesTo(adminEmail, { count: 1 });
    expect((await order(100)).status).toBe(201); // 100 left: still low, no new mail
    expect((await order(100)).status).toBe(201); // 0 left: sold out
    await waitForMessagesTo(adminEmail, { count: 2 });
    await new Promise((r) => setTimeout(r, 500));
    const mine = (await subjects(adminEmail)).filter((s) => s.endsWith(name));
    expect(mine).toEqual([`Running low: ${name}`, `Sold out: ${name}`]);
    expect(
      (await call(t.base, 'PUT', `/restockQty/${partsId}`, { token: admin.token, body: { quantity: 1000 } }))
        .status,
    ).toBe(200);
    await eventually(
      async () => (await PartModel.findById(partsId).lean())?.stockAlert === undefined,
      50,
      100,
    );
    expect((await order(800)).status).toBe(201);
    await waitForMessagesTo(adminEmail, { count: 3 });
    expect((await subjects(adminEmail)).filter((s) => s.endsWith(name))).toEqual([
      `Running low: ${name}`,
      `Sold out: ${name}`,
      `Running low: ${name}`,
    ]);
  });

  it('reads the parts of a checkout in one query, and alerts each that fell', async () => {
    const stamp = Date.now();
    const ids = await Promise.all(
      [1, 2, 3].map((n) =>
        insertPart({ name: `Batch Alert ${n} ${stamp}`, minOrderQty: 100, availableQty: 1000 }),
      ),
    );
    const buyer = await account(t.base, uniqueEmail('alertbatch'), 'Alert Batch Buyer');
    for (const id of ids) {
      const line = await call(t.base, 'PUT', `/cart/lines/${id}`, { token: buyer.token, body: { qty: 800 } });
      expect(line.status).toBe(200);
    }
    const reads: string[][] = [];
    mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
      // The watcher's read is the one that asks for the alert level.
      if (collection === 'parts' && method === 'find' && JSON.stringify(args).includes('stockAlert')) {
        const filter = args[0] as { _id?: { $in?: unknown[] } };
        reads.push((filter._id?.$in ?? []).map(String));
      }
    });
    try {
      const placed = await call(t.base, 'POST', '/checkout', {
        token: buyer.token,
        body: { address: '4 Alert Street, Turin', phone: '+39 011 555 0102' },
      });
      expect(placed.status).toBe(201); // 200 left of each: below 3 × 100
      await eventually(
        async () => (await PartModel.find({ _id: { $in: ids } }).lean()).every((p) => p.stockAlert === 'low'),
        50,
        100,
      );
    } finally {
      mongoose.set('debug', false);
    }
    // The first read of any of them reads all three (later ones follow the alerts' own writes).
    const first = reads.find((read) => read.some((id) => ids.includes(id)));
    expect(first).toEqual(expect.arrayContaining(ids));
    const alerts = async () =>
      (await subjects(adminEmail)).filter(
        (s) => s.startsWith('Running low: Batch Alert') && s.endsWith(` ${stamp}`),
      );
    await eventually(async () => (await alerts()).length >= 3, 100, 100);
    // Give a stray second copy the time to arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    expect((await alerts()).sort()).toEqual([1, 2, 3].map((n) => `Running low: Batch Alert ${n} ${stamp}`));
  });
});

describe('when sending fails', () => {
  it('an SMTP server that is down delays the mail; it goes once the server is back', async () => {
    const relay = await smtpRelay();
    await relay.down();
    const down = startMailer({
      sender: got(createMailTransport({ ...t.env, SMTP_URL: relay.url })),
      from: t.env.MAIL_FROM,
      sources: orderMailSources(shopUrl(t.env)),
      log,
      intervalMs: 100,
    });
    // The suite's own mailer is stopped meanwhile, so only the broken one tries.
    await mailer.stop();
    try {
      const buyer = await account(t.base, uniqueEmail('maildown'), 'Down Buyer');
      const placed = await call<Order>(t.base, 'POST', '/order', {
        token: buyer.token,
        body: { partsId: await insertPart(), qty: 100 },
      });
      const tried = await eventually(
        async () => ((await OrderModel.findById(placed.body._id).lean())?.mailAttempts ?? 0) >= 1,
        100,
        100,
      );
      expect(tried).toBe(true);
      expect(await messagesTo(buyer.email)).toEqual([]);
      await relay.up();
      // The first retry waits 5 s.
      await waitForMessagesTo(buyer.email, { count: 1, timeoutMs: 20_000 });
      await new Promise((r) => setTimeout(r, 500));
      expect(await messagesTo(buyer.email)).toHaveLength(1);
    } finally {
      await down.stop();
      await relay.down();
      mailer = startMailer({
        sender: got(createMailTransport(t.env)),
        from: t.env.MAIL_FROM,
        sources: [...orderMailSources(shopUrl(t.env)), stockAlertSource(shopUrl(t.env), t.env.ADMIN_EMAILS)],
        log,
        intervalMs: 100,
      });
    }
  }, 60_000);

  it('kill -9 after the change and before the send: after a restart the mail goes out once', async () => {
    buildApi();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-mailkill-'));
    const dbPort = await freePort();
    let ferret: ChildProcess | undefined;
    let api: Awaited<ReturnType<typeof startApi>> | undefined;
    try {
      ferret = await startFerret(dbPort, dataDir);
      const dbUri = `mongodb://127.0.0.1:${dbPort}/mailkill`;
      const [partId] = [...(await seedParts(dbUri)).keys()];
      const who = got(customerTokens(1, `mailkill${Date.now()}`)[0]);
      await seedCustomers(dbUri, [who]);
      // The first process's mail worker does not come round before the kill: the order is written
      // with its mail queued, and the process dies before sending it.
      api = await startApi(dbUri, { SMTP_URL: process.env.SMTP_URL ?? '', MAIL_INTERVAL_MS: '600000' });
      const placed = await call<Order>(api.base, 'POST', '/order', {
        token: who.token,
        body: { partsId: partId, qty: 100 },
      });
      expect(placed.status).toBe(201);
      await kill(api.child, 'SIGKILL');
      expect(await messagesTo(who.email)).toEqual([]);
      api = await startApi(dbUri, { SMTP_URL: process.env.SMTP_URL ?? '', MAIL_INTERVAL_MS: '100' });
      await waitForMessagesTo(who.email, { count: 1, timeoutMs: 30_000 });
      await new Promise((r) => setTimeout(r, 1000));
      expect(await subjects(who.email)).toEqual([`Your MotoParts order ${placed.body._id}`]);
    } finally {
      if (api) await kill(api.child);
      if (ferret) await kill(ferret);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});

describe('the queue', () => {
  /** A worker of its own over the parts, whose first pass finds a part by its queued mail. */
  async function sendWith(sender: MailSender): Promise<void> {
    const worker = startMailer({
      sender,
      from: t.env.MAIL_FROM,
      sources: [stockAlertSource(shopUrl(t.env), t.env.ADMIN_EMAILS)],
      log,
      intervalMs: 60_000,
    });
    try {
      await worker.runOnce();
      await worker.runOnce();
    } finally {
      await worker.stop();
    }
  }

  it('a mail queued while another is sent goes next: each once, with its own Message-ID', async () => {
    const partsId = await insertPart({ name: `Queue Part ${Date.now()}`, availableQty: 100_000 });
    // Through the driver, so the suite's own worker does not hear of this part.
    const parts = PartModel.collection;
    const _id = new Types.ObjectId(partsId);
    await parts.updateOne({ _id }, withMail({ $set: {} }, [mailEntry('runningLow')]));
    const sent: string[] = [];
    await sendWith({
      async sendMail(mail) {
        sent.push(mail.messageId);
        // Sold out while the first mail goes.
        if (sent.length === 1) await parts.updateOne({ _id }, withMail({ $set: {} }, [mailEntry('soldOut')]));
      },
    });
    expect(sent).toEqual([`<parts.${partsId}.0@mail.motoparts>`, `<parts.${partsId}.1@mail.motoparts>`]);
    const doc = got(await PartModel.findById(partsId).lean());
    expect(doc.outbox).toEqual([]);
    expect(doc.mailSent).toBe(2);
    expect(doc.mailNextAt).toBeUndefined();
  });

  it('an outbox an earlier release kept as documents: only the mail it had not sent goes, once', async () => {
    const partsId = await insertPart({ name: `Legacy Outbox Part ${Date.now()}`, availableQty: 100_000 });
    const _id = new Types.ObjectId(partsId);
    const entry = (kind: string, sent: boolean) => ({
      id: new Types.ObjectId().toHexString(),
      kind,
      createdAt: new Date(),
      ...(sent ? { sentAt: new Date() } : {}),
    });
    await PartModel.collection.updateOne(
      { _id },
      { $set: { outbox: [entry('runningLow', true), entry('soldOut', false)], mailDue: true } },
    );
    const sent: { id: string; subject: string }[] = [];
    await sendWith({
      async sendMail(mail) {
        sent.push({ id: mail.messageId, subject: mail.subject });
      },
    });
    // The first was sent by the earlier release: counted, not sent again.
    expect(sent).toEqual([
      { id: `<parts.${partsId}.1@mail.motoparts>`, subject: expect.stringMatching(/^Sold out: /) },
    ]);
    const doc = got(await PartModel.findById(partsId).lean());
    expect(doc.outbox).toEqual([]);
    expect(doc.mailSent).toBe(2);
    expect(doc.mailNextAt).toBeUndefined();
  });
});
