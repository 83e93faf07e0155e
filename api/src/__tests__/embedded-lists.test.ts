import { Types } from 'mongoose';
import type { Order, User } from '@motoparts/contracts';
import { OrderModel } from '../orders/model';
import { createLogger } from '../lib/logger';
import { createStripe } from '../lib/stripe';
import { expireDue } from '../orders/jobs';
import { stripePayments } from '../payments/service';
import { DatabaseOrderReads, MemoryOrderReads } from '../orders/read-models';
import { orderRules } from '../orders/rules';
import { toOrder } from '../orders/wire';
import { OrderTimeline, orderTimeline } from '../orders/timeline';
import { MemoryUserLookup, QueryUserLookup, type UserLookup } from '../users/lookup';
import { UserModel, userWrites } from '../users/model';
import { account, cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

// On the embedded FerretDB the admin's lists (all orders, all users) and the lookups by email are
// answered from what is kept in memory plus reads by `_id`. They must answer exactly what the
// database's queries answer: the same records, order, pages and totals, also after writes.

let t: TestApp;
let admin: Account;
const adminEmail = uniqueEmail('listadmin');

beforeAll(async () => {
  t = await startTestApp('embedded_lists', { ADMIN_EMAILS: adminEmail });
  ({ admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

/** The fields of an unpaid, pending order (a test's own additions go over them). */
const anOrder = (fields: Record<string, unknown>) => ({
  partId: new Types.ObjectId(),
  uid: 'someone',
  user: 'someone@motoparts.test',
  partName: 'A part',
  quantity: 100,
  unitPriceCents: 1,
  priceCents: 100,
  paid: false,
  status: 'pending',
  hold: 'held',
  ...fields,
});

/** An order written through the model, as the API writes it (the hooks see it). */
async function createOrder(at: number, fields: Record<string, unknown> = {}): Promise<string> {
  return String((await OrderModel.create(anOrder({ createdAt: new Date(at), ...fields })))._id);
}

describe('the admin list of all orders', () => {
  // Well past the test's one-hour hold, so the expiry test below finds these due from its first pass.
  const base = Date.now() - 3 * 3_600_000;
  /** An order written straight to the database (no hook sees it), as a seed would. */
  async function insertRaw(fields: Record<string, unknown>): Promise<string> {
    const _id = new Types.ObjectId();
    await OrderModel.collection.insertOne(anOrder({ _id, ...fields }) as never);
    return String(_id);
  }
  async function pagesOf(list: (page: number) => Promise<{ items: Order[]; total: number }>) {
    const pages = [];
    for (let page = 1; page <= 6; page++) pages.push(await list(page));
    return pages;
  }
  // Whole answers, not just ids: the list keeps each order's answer, which a change must not leave stale.
  const byQuery = (page: number) => new DatabaseOrderReads(orderRules(t.env)).listAll(page, 7);
  const byTimeline = (timeline: OrderTimeline) => (page: number) =>
    timeline
      .page(page, 7)
      .then(({ docs, total }) => ({ items: docs.map((d) => toOrder(d, orderRules(t.env))), total }));
  const idsOf = (page: { items: Order[] } | undefined) => page?.items.map((o) => o._id) ?? [];

  it('pages exactly as the sorted query, before and after every kind of write', async () => {
    // Ties on createdAt (the larger _id first), no createdAt at all (last), hidden holds.
    for (let i = 0; i < 20; i++) await insertRaw({ createdAt: new Date(base + (i % 6) * 1000) });
    await insertRaw({});
    await insertRaw({ createdAt: new Date(base + 9000), hold: 'void' });
    await insertRaw({ createdAt: new Date(base + 9000), hold: 'reserving' });
    const timeline = new OrderTimeline();
    await timeline.warm();
    const expected = await pagesOf(byQuery);
    expect(expected[0]?.total).toBeGreaterThan(20);
    expect(await pagesOf(byTimeline(timeline))).toEqual(expected);

    // A new order (first), one in the middle, a cancelled one, one given a hidden hold, one
    // shipped and one paid in place (their kept answers must not stay as they were).
    const newest = await createOrder(Date.now());
    await createOrder(base + 2500);
    const cancelled = await createOrder(base + 4500);
    await OrderModel.deleteOne({ _id: cancelled });
    const voided = await createOrder(base + 3500);
    await OrderModel.updateOne({ _id: voided }, { $set: { hold: 'void' } });
    const [shipped, paid] = idsOf((await byQuery(1)) as { items: Order[] }).slice(2, 4);
    await OrderModel.updateOne({ _id: shipped }, { $set: { status: 'shipped' } });
    await OrderModel.findOneAndUpdate({ _id: paid }, { $set: { paid: true, transactionId: 'pi_paid' } });
    const after = await pagesOf(byQuery);
    expect(idsOf(after[0])[0]).toBe(newest);
    expect(after[0]?.items.find((o) => o._id === shipped)?.status).toBe('shipped');
    expect(after[0]?.items.find((o) => o._id === paid)).toMatchObject({
      paid: true,
      transactionId: 'pi_paid',
    });
    expect(await pagesOf(byTimeline(timeline))).toEqual(after);

    // Writes no hook sees (through the driver, as an operator's shell would): shown after the
    // whole-collection read the expiry pass runs hourly (the API itself writes through the model).
    const [victim, edited] = idsOf(await byQuery(2));
    await OrderModel.collection.deleteOne({ _id: new Types.ObjectId(victim) });
    await OrderModel.collection.updateOne({ _id: new Types.ObjectId(edited) }, { $set: { quantity: 12345 } });
    await timeline.refresh();
    const outside = await pagesOf(byQuery);
    expect(outside.flatMap(idsOf)).not.toContain(victim);
    expect(outside[1]?.items.find((o) => o._id === edited)?.qty).toBe(12345);
    expect(await pagesOf(byTimeline(timeline))).toEqual(outside);

    // A write the hooks cannot narrow down drops the list; the next read makes it again.
    await OrderModel.updateMany({ status: 'pending', uid: 'nobody' }, { $set: { hold: 'released' } });
    expect(await pagesOf(byTimeline(timeline))).toEqual(outside);
  });

  it('pages right with rows it does not keep: one found gone or hidden is dropped at once', async () => {
    const timeline = new OrderTimeline();
    await timeline.warm();
    // An order placed since the list was read has no kept row until its page is read: deleted
    // or hidden behind the API's back before that, it is found gone by that read.
    const fresh = await createOrder(Date.now() + 60_000);
    const hidden = await createOrder(Date.now() + 50_000);
    await OrderModel.collection.updateOne({ _id: new Types.ObjectId(hidden) }, { $set: { hold: 'void' } });
    await OrderModel.collection.deleteOne({ _id: new Types.ObjectId(fresh) });
    const page = await byTimeline(timeline)(1);
    expect(idsOf(page)).not.toContain(fresh);
    expect(idsOf(page)).not.toContain(hidden);
    expect(page).toEqual(await byQuery(1));
  });

  it('GET /orders follows every change, asked twice each time (a kept answer would show)', async () => {
    const pass = async () => {
      const pages = [];
      for (let page = 1; page <= 3; page++) {
        const res = await call<Order[]>(t.base, 'GET', `/orders?page=${page}&limit=7`, {
          token: admin.token,
        });
        expect(res.status).toBe(200);
        pages.push({ items: res.body, total: Number(res.headers.get('x-total-count')) });
      }
      return pages;
    };
    // Each time twice: the second pass answers as the first.
    const viaApi = async () => {
      const first = await pass();
      expect(await pass()).toEqual(first);
      return first;
    };
    const expected = async () => (await pagesOf(byQuery)).slice(0, 3);
    expect(await viaApi()).toEqual(await expected());

    // Placed (first on page 1: every page moves), changed in place, hidden, deleted.
    const placed = await createOrder(Date.now() + 120_000);
    expect(await viaApi()).toEqual(await expected());
    const [, shipped, hidden, deleted] = idsOf((await byQuery(1)) as { items: Order[] });
    await OrderModel.updateOne({ _id: shipped }, { $set: { status: 'shipped' } });
    expect(await viaApi()).toEqual(await expected());
    await OrderModel.updateOne({ _id: hidden }, { $set: { hold: 'void' } });
    await OrderModel.deleteOne({ _id: deleted });
    const after = await viaApi();
    expect(after).toEqual(await expected());
    expect(idsOf(after[0])[0]).toBe(placed);
    expect(after.flatMap(idsOf)).not.toContain(hidden);
    expect(after.flatMap(idsOf)).not.toContain(deleted);

    // Behind the API's back, then the hourly whole-collection read: the pages move with it.
    const [gone] = idsOf(after[1]);
    await OrderModel.collection.deleteOne({ _id: new Types.ObjectId(gone) });
    await orderTimeline().refresh();
    const outside = await viaApi();
    expect(outside).toEqual(await expected());
    expect(outside.flatMap(idsOf)).not.toContain(gone);
  });

  it('GET /orders pages as the query does (the route the dashboard calls)', async () => {
    const expected = await pagesOf(byQuery);
    const viaApi = await pagesOf(async (page) => {
      const res = await call<Order[]>(t.base, 'GET', `/orders?page=${page}&limit=7`, { token: admin.token });
      expect(res.status).toBe(200);
      return { items: res.body, total: Number(res.headers.get('x-total-count')) };
    });
    expect(viaApi).toEqual(expected);
    // GET /order/:id answers from the same kept rows: as the database says, also right after a change.
    const ids = idsOf(expected[0]).slice(0, 3);
    const one = (id: string) => call<Order>(t.base, 'GET', `/order/${id}`, { token: admin.token });
    const stored = async (id: string) => {
      const doc = await OrderModel.findById(id).lean();
      if (!doc) throw new Error(`order ${id} not stored`);
      return toOrder(doc, orderRules(t.env));
    };
    for (const id of ids) expect((await one(id)).body).toEqual(await stored(id));
    await OrderModel.updateOne({ _id: ids[0] }, { $set: { status: 'shipped' } });
    expect((await one(ids[0] ?? '')).body).toEqual(await stored(ids[0] ?? ''));
    expect((await one(ids[0] ?? '')).body.status).toBe('shipped');
    // Someone else's order stays someone else's.
    const stranger = await account(t.base, uniqueEmail('listcustomer'));
    expect((await call(t.base, 'GET', `/order/${ids[1]}`, { token: stranger.token })).status).toBe(403);
  });
});

describe('the expiry pass on the in-memory list', () => {
  it('expires exactly the due unpaid pending orders, also one put back to pending, from the candidates', async () => {
    const rules = orderRules(t.env);
    const reads = new MemoryOrderReads(rules);
    const log = createLogger(t.env);
    const payments = stripePayments(createStripe(t.env));
    // The first pass reads the list (every order once); later ones read only the candidates.
    await expireDue(rules, reads, payments, log);
    const partsId = await insertPart({ availableQty: 1_000_000 });
    const old = Date.now() - rules.holdMs - 60_000;
    const order = (at: number, fields: Record<string, unknown> = {}) =>
      createOrder(at, { partId: partsId, ...fields });
    const due = await order(old);
    const recent = await order(Date.now());
    const paid = await order(old, { paid: true, transactionId: 'pi_x' });
    const reopened = await order(old, { status: 'shipped' });
    await OrderModel.updateOne({ _id: reopened }, { $set: { status: 'pending' } });
    const shipped = await order(old);
    await OrderModel.updateOne({ _id: shipped }, { $set: { paid: true, status: 'shipped' } });

    expect(await expireDue(rules, reads, payments, log)).toBe(2);
    const status = async (id: string) => (await OrderModel.findById(id).lean())?.status;
    expect(await Promise.all([due, recent, paid, reopened, shipped].map(status))).toEqual([
      'expired',
      'pending',
      'pending',
      'expired',
      'shipped',
    ]);
    // Nothing left due: the next pass expires nothing, as the query would say (hidden orders, a
    // tombstone or one left half placed, are never expired, by either pass).
    expect(await expireDue(rules, reads, payments, log)).toBe(0);
    expect(
      await OrderModel.countDocuments({
        paid: false,
        status: 'pending',
        createdAt: { $lte: new Date(old + 60_000) },
        hold: { $nin: ['reserving', 'void'] },
      }),
    ).toBe(0);
  });
});

describe('accounts by email', () => {
  const memory = new MemoryUserLookup();
  const query = new QueryUserLookup();

  async function same(emails: string[]): Promise<void> {
    for (const email of emails) {
      const [m, q] = [await memory.byEmail(email), await query.byEmail(email)];
      expect({ email, id: m && String(m._id) }).toEqual({ email, id: q && String(q._id) });
      const ids = async (lookup: UserLookup) =>
        (await lookup.holders(email)).map((d) => String(d._id)).sort();
      expect({ email, holders: await ids(memory) }).toEqual({ email, holders: await ids(query) });
    }
    for (const limit of [3, 100]) {
      for (let page = 1; page <= 8; page++) {
        const [m, q] = [await memory.page(page, limit), await query.page(page, limit)];
        expect({ page, limit, ids: m.docs.map((d) => String(d._id)), total: m.total }).toEqual({
          page,
          limit,
          ids: q.docs.map((d) => String(d._id)),
          total: q.total,
        });
      }
    }
  }

  it('finds and pages the same records as the email index, also after writes', async () => {
    const emails = ['zed', 'amy', 'bob', 'Cal'.toLowerCase(), 'dee'].map(
      (n) => `${n}-${Date.now()}@lists.test`,
    );
    for (const [i, email] of emails.entries()) {
      await UserModel.create({ _id: `uid-lists-${i}`, email, name: `User ${i}` });
    }
    // An older record with an account's address (the account wins), and one that let go of its own.
    await UserModel.collection.insertOne({ email: emails[1], name: 'Older', role: 'user' } as never);
    await UserModel.create({ _id: 'uid-lists-gone', formerEmail: emails[2], name: 'Gone' });
    const probes = [...emails, 'nobody@lists.test', adminEmail];
    await same(probes);

    // An address moves to another account, and an account signs in again: writes to named
    // accounts, which the memory lookup reads again by `_id` instead of every pair.
    await UserModel.updateOne({ _id: 'uid-lists-0' }, { $unset: { email: 1 } });
    await UserModel.updateOne({ _id: 'uid-lists-3' }, { $set: { email: emails[0] } });
    await UserModel.findOneAndUpdate({ _id: 'uid-lists-4' }, { $set: { name: 'Again' } });
    await same(probes);

    // A new account; a record written through the driver.
    await UserModel.create({ _id: 'uid-lists-new', email: `new-${Date.now()}@lists.test` });
    await UserModel.collection.insertOne({
      _id: 'uid-lists-raw',
      email: `raw-${Date.now()}@lists.test`,
    } as never);
    userWrites.announce('all');
    await same(probes);
  });

  it('GET /user pages and GET /user/:email answer as before for an admin', async () => {
    const res = await call<User[]>(t.base, 'GET', '/user?page=1&limit=100', { token: admin.token });
    expect(res.status).toBe(200);
    const expected = await query.page(1, 100);
    expect(res.body.map((u) => u._id)).toEqual(expected.docs.map((d) => String(d._id)));
    expect(Number(res.headers.get('x-total-count'))).toBe(expected.total);
    // Make Admin shows in the next read of the list (pages read before it are not reused).
    const customer = res.body.find((u) => u.role === 'user' && u.email.startsWith('customer-'));
    if (!customer) throw new Error('no customer in the list');
    const made = await call(t.base, 'PUT', `/user/admin/${encodeURIComponent(customer.email)}`, {
      token: admin.token,
    });
    expect(made.status).toBe(200);
    const again = await call<User[]>(t.base, 'GET', '/user?page=1&limit=100', { token: admin.token });
    expect(again.body.find((u) => u._id === customer._id)?.role).toBe('admin');
    for (const u of res.body) {
      const one = await call<User>(t.base, 'GET', `/user/${encodeURIComponent(u.email)}`, {
        token: admin.token,
      });
      // The account holding the address (before an older record with the same one).
      expect(one.body._id).toBe(String((await query.byEmail(u.email))?._id));
    }
  });
});
