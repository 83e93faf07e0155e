// Loads the 10,000-part catalogue used by bench/api: 10,000 parts, 2,000 users and 50,000 orders
// (BENCH_USER has exactly 100 of them). Uses the API's compiled models (api/dist), so the
// collections get exactly the API's indexes, and ONE connection (maxPoolSize 1), as every writer
// against the embedded FerretDB must (docs/architecture.md). Deterministic (seeded PRNG).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const requireApi = createRequire(path.join(root, 'api/package.json'));

export const SCALE = { parts: 10_000, users: 2_000, orders: 50_000, benchUserOrders: 100 };
/** Part i's department: 70 % parts, 20 % tools, 10 % gear. */
export const categoryOf = (i) => (i % 10 < 7 ? 'parts' : i % 10 < 9 ? 'tools' : 'gear');
/** Every tenth part (i % 10 === 3) is sold out, so `?inStock=` has something to filter. */
export const soldOut = (i) => i % 10 === 3;
export const BENCH_USER = 'bench-100@motoparts-scale.test';
/** Regular customers: customer-0001 … customer-1999. */
export const customerEmail = (i) => `customer-${String(i).padStart(4, '0')}@motoparts-scale.test`;
/** Accounts are keyed by their Firebase uid; the scale accounts get made-up ones. */
export const BENCH_UID = 'scale-bench-100';
export const customerUid = (i) => `scale-customer-${String(i).padStart(4, '0')}`;
/** The last account is the shop's admin (Manage Order, All Users), with no orders of its own. */
export const ADMIN_INDEX = SCALE.users - 1;
export const ADMIN_EMAIL = 'admin@motoparts-scale.test';
export const uidOf = (i) => (i === 0 ? BENCH_UID : customerUid(i));
/** API tokens of customers 1…n, signed by the API's own `signApiToken` (api/dist/lib/tokens.js). */
export const customerTokens = (signApiToken, apiEnv, n) =>
  Array.from({ length: n }, (_, i) =>
    signApiToken(apiEnv, {
      uid: uidOf(i + 1),
      email: customerEmail(i + 1),
      name: `Customer ${i + 1}`,
      admin: false,
      epoch: 0,
    }),
  );
/** Words that `?q=` searches for in the bench; each matches a few hundred part names. */
export const SEARCH_TERMS = ['brake', 'chain', 'filter', 'lever', 'sprocket', 'mirror', 'clutch', 'piston'];

const BRANDS = ['Apex', 'Brembo', 'Delta', 'Ferro', 'Kappa', 'Moto', 'Nord', 'Ridge', 'Sigma', 'Vento'];
const PRODUCTS = [
  'Brake Pads',
  'Brake Disc',
  'Drive Chain',
  'Oil Filter',
  'Air Filter',
  'Clutch Lever',
  'Brake Lever',
  'Rear Sprocket',
  'Front Sprocket',
  'Mirror Set',
  'Clutch Plates',
  'Piston Kit',
  'Spark Plug',
  'Fork Seals',
  'Handlebar',
  'Grip Set',
  'Chain Guard',
  'Fuel Pump',
  'Headlight',
  'Tail Light',
];

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function loadApiModels() {
  const mongoose = requireApi('mongoose');
  const { PartModel } = requireApi('./dist/parts/model.js');
  const { UserModel } = requireApi('./dist/users/model.js');
  const { OrderModel } = requireApi('./dist/orders/model.js');
  return { mongoose, PartModel, UserModel, OrderModel };
}

async function counts({ PartModel, UserModel, OrderModel }) {
  const [parts, users, orders, benchUserOrders, gear, admins] = await Promise.all([
    PartModel.countDocuments({}),
    UserModel.countDocuments({}),
    OrderModel.countDocuments({}),
    OrderModel.countDocuments({ user: BENCH_USER }),
    // A catalogue seeded before categories existed has none: reload it.
    PartModel.countDocuments({ category: 'gear' }),
    UserModel.countDocuments({ role: 'admin' }),
  ]);
  return { parts, users, orders, benchUserOrders, gear, admins };
}

async function insertInBatches(Model, total, make, { batch = 1000, label, log }) {
  const started = Date.now();
  for (let i = 0; i < total; i += batch) {
    const docs = [];
    for (let j = i; j < Math.min(total, i + batch); j++) docs.push(make(j));
    // lean: the documents are built here, typed as the schema wants; skip per-document hydration.
    await Model.insertMany(docs, { ordered: true, lean: true });
    const done = Math.min(total, i + batch);
    if (done === total || (done / batch) % 10 === 0) {
      const rate = Math.round(done / ((Date.now() - started) / 1000));
      log(`${label}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${rate}/s)`);
    }
  }
}

/**
 * Seeds the scale database at `uri` (its database name must contain "scale": this drops it).
 * Idempotent: when the counts already match, it does nothing unless `force`.
 */
export async function seedScale({ uri, force = false, log = (m) => console.log(`[seed-scale] ${m}`) }) {
  const dbName = new URL(uri.replace(/^mongodb(\+srv)?:/, 'http:')).pathname.slice(1);
  if (!/scale/i.test(dbName)) {
    throw new Error(
      `refusing to drop database "${dbName}": the scale seed only replaces a database whose name contains "scale"`,
    );
  }
  const models = loadApiModels();
  const { mongoose, PartModel, UserModel, OrderModel } = models;
  await mongoose.connect(uri, {
    maxPoolSize: 1,
    minPoolSize: 1,
    serverSelectionTimeoutMS: 5000,
    autoIndex: false,
  });
  try {
    const have = await counts(models);
    const want = {
      parts: SCALE.parts,
      users: SCALE.users,
      orders: SCALE.orders,
      benchUserOrders: SCALE.benchUserOrders,
      gear: SCALE.parts / 10,
      admins: 1,
    };
    if (!force && JSON.stringify(have) === JSON.stringify(want)) {
      log(`already seeded (${JSON.stringify(have)}); pass --force to reload`);
      return have;
    }
    log(`loading into ${dbName} (found ${JSON.stringify(have)})`);
    await mongoose.connection.dropDatabase();
    for (const Model of [PartModel, UserModel, OrderModel]) {
      await Model.createCollection();
      await Model.createIndexes();
    }

    const rnd = mulberry32(2026);
    const day = 24 * 60 * 60 * 1000;
    const t0 = Date.UTC(2026, 0, 1);
    const parts = [];
    await insertInBatches(
      PartModel,
      SCALE.parts,
      (i) => {
        const name = `${BRANDS[i % BRANDS.length]} ${PRODUCTS[Math.floor(rnd() * PRODUCTS.length)]} ${String(i).padStart(5, '0')}`;
        const p = {
          _id: new mongoose.Types.ObjectId(),
          name,
          slug: `scale-${i}`,
          text: `${name}: a part of the 10,000-part benchmark catalogue.`,
          img: '/images/parts/bench.svg',
          priceCents: 100 + Math.floor(rnd() * 50_000),
          minOrderQty: 1 + Math.floor(rnd() * 20),
          availableQty: soldOut(i) ? 0 : 1_000_000,
          category: categoryOf(i),
          createdAt: new Date(t0 + i * 1000),
          updatedAt: new Date(t0 + i * 1000),
        };
        parts.push({ _id: p._id, name: p.name, priceCents: p.priceCents, minOrderQty: p.minOrderQty });
        return p;
      },
      { label: 'parts', log },
    );

    await insertInBatches(
      UserModel,
      SCALE.users,
      (i) => ({
        _id: uidOf(i),
        email: i === 0 ? BENCH_USER : i === ADMIN_INDEX ? ADMIN_EMAIL : customerEmail(i),
        name: i === 0 ? 'Bench Hundred' : i === ADMIN_INDEX ? 'Scale Admin' : `Customer ${i}`,
        role: i === ADMIN_INDEX ? 'admin' : 'user',
        education: '',
        location: '',
        phone: '',
        linkedin: '',
        createdAt: new Date(t0),
        updatedAt: new Date(t0),
      }),
      { label: 'users', log },
    );

    await insertInBatches(
      OrderModel,
      SCALE.orders,
      (i) => {
        // Orders 0..99 belong to the bench user; the rest to customers 1..1999 at random.
        const customer = i < SCALE.benchUserOrders ? 0 : 1 + Math.floor(rnd() * (ADMIN_INDEX - 1));
        const user = customer === 0 ? BENCH_USER : customerEmail(customer);
        const part = parts[Math.floor(rnd() * parts.length)];
        const quantity = part.minOrderQty + Math.floor(rnd() * 50);
        const paid = rnd() < 0.5;
        // Unpaid orders older than the hold have expired (their pieces went back); one in fifty
        // is recent and still holds its stock, as in a shop that has been running for a year.
        // Seeding them all as open would send the API's first expiry pass through ~25,000
        // Stripe calls and stock give-backs before anything else is measured.
        const open = !paid && i % 50 === 0;
        const at = open
          ? new Date(Date.now() - Math.floor(rnd() * 30 * 60_000))
          : new Date(Math.min(Date.now(), t0 + Math.floor(rnd() * 365 * day)));
        return {
          partId: part._id,
          partName: part.name,
          uid: uidOf(customer),
          user,
          userName: user === BENCH_USER ? 'Bench Hundred' : 'Customer',
          quantity,
          unitPriceCents: part.priceCents,
          priceCents: part.priceCents * quantity,
          paid,
          ...(paid ? { transactionId: `pi_scale_${i}`, paidAt: at } : {}),
          status: paid ? (rnd() < 0.5 ? 'shipped' : 'pending') : open ? 'pending' : 'expired',
          hold: paid || open ? 'held' : 'released',
          createdAt: at,
          updatedAt: at,
        };
      },
      { label: 'orders', log },
    );
    const done = await counts(models);
    log(`done: ${JSON.stringify(done)}`);
    return done;
  } finally {
    await mongoose.disconnect();
  }
}
