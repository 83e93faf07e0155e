import type { PartCategory, PriceTier } from '@motoparts/contracts';
import type { Env } from './lib/env';
import { firebaseAuth } from './lib/firebase';
import { toCents } from './lib/money';
import { PartModel } from './parts/model';
import { ReviewModel } from './reviews/model';
import { UserModel } from './users/model';

export interface SeedPart {
  slug: string;
  name: string;
  text: string;
  price: number;
  availableQty: number;
  category: PartCategory;
  /** Volume prices, so the demo shows them (above the minimum of 100, below `price`). */
  priceTiers?: PriceTier[];
}

export const SEED_PARTS: SeedPart[] = [
  {
    slug: 'sintered-brake-pads',
    name: 'Sintered Brake Pads (Front Pair)',
    text: 'Copper-sintered pads for dual-piston calipers: strong initial bite, steady wet-weather stopping and long life on street and track.',
    price: 24.99,
    availableQty: 1500,
    category: 'parts',
    priceTiers: [
      { fromQty: 250, price: 23.49 },
      { fromQty: 500, price: 21.99 },
    ],
  },
  {
    slug: 'o-ring-drive-chain',
    name: 'O-Ring Drive Chain 520 x 120L',
    text: 'Heavy-duty 520-pitch chain with sealed O-rings that keep grease in and grit out. Rivet master link included.',
    price: 89.99,
    availableQty: 1200,
    category: 'parts',
  },
  {
    slug: 'iridium-spark-plug',
    name: 'Iridium Spark Plug',
    text: 'Fine-wire iridium tip for a hotter, more stable spark: easier cold starts, smoother idle and up to 40,000 km between changes.',
    price: 12.5,
    availableQty: 3000,
    category: 'parts',
    priceTiers: [
      { fromQty: 500, price: 11.25 },
      { fromQty: 1000, price: 10 },
    ],
  },
  {
    slug: 'braided-brake-line-kit',
    name: 'Stainless Braided Brake Line Kit',
    text: 'PTFE-lined, stainless-braided hoses that do not swell under pressure, for a firm lever and precise braking. DOT approved.',
    price: 64,
    availableQty: 1000,
    category: 'parts',
  },
  {
    slug: 'spin-on-oil-filter',
    name: 'Spin-On Oil Filter',
    text: 'High-flow synthetic media traps fine particles while keeping oil pressure up. Anti-drain-back valve and a 17 mm nut for easy removal.',
    price: 9.75,
    availableQty: 2500,
    category: 'parts',
    priceTiers: [
      { fromQty: 300, price: 9.25 },
      { fromQty: 1000, price: 8.5 },
    ],
  },
  {
    slug: 'led-headlight-bulb-h4',
    name: 'LED Headlight Bulb H4',
    text: 'Plug-and-play H4 LED with a sharp cut-off beam, 6000 K light and a passive heat sink: no fan, no flicker.',
    price: 39.9,
    availableQty: 1100,
    category: 'parts',
  },
  {
    slug: 'steel-rear-sprocket-42t',
    name: 'Steel Rear Sprocket 42T',
    text: 'CNC-machined, heat-treated steel sprocket for 520 chains. Hardened teeth for several times the life of aluminium.',
    price: 34.5,
    availableQty: 1300,
    category: 'parts',
  },
  {
    slug: 'adjustable-lever-set',
    name: 'Adjustable Brake and Clutch Lever Set',
    text: 'Billet aluminium levers with six-position reach adjustment and folding tips that survive a tip-over.',
    price: 45,
    availableQty: 1000,
    category: 'parts',
  },
  {
    slug: 'click-torque-wrench',
    name: 'Click Torque Wrench 3/8" (10-60 Nm)',
    text: 'Reversible ratchet head with an audible click at the set torque, calibrated to ±4 %. For axle nuts, caliper bolts and spark plugs.',
    price: 54,
    availableQty: 1000,
    category: 'tools',
  },
  {
    slug: 'leather-riding-gloves',
    name: 'Leather Riding Gloves',
    text: 'Goatskin gloves with knuckle armour, palm sliders and touchscreen fingertips. Sold in mixed sizes S to XXL.',
    price: 29.5,
    availableQty: 1200,
    category: 'gear',
  },
];

export const SEED_REVIEWS = [
  {
    email: 'maya.torres@example.com',
    name: 'Maya Torres',
    img: '/images/reviewers/1.svg',
    review:
      'Ordered chains and sprockets for our whole rental fleet. Everything arrived in one box, well packed, and fitted first time.',
    rating: 5,
  },
  {
    email: 'daniel.okafor@example.com',
    name: 'Daniel Okafor',
    img: '/images/reviewers/2.svg',
    review:
      'The sintered pads transformed my old naked bike. Great price for a bulk order, and the payment was quick and painless.',
    rating: 5,
  },
  {
    email: 'lena.fischer@example.com',
    name: 'Lena Fischer',
    img: '/images/reviewers/3.svg',
    review:
      'Good parts at fair prices. The minimum order of 100 suits a workshop like ours; I would love a few more tyre sizes.',
    rating: 4,
  },
];

export const DEMO_ACCOUNTS = [
  {
    email: 'admin@motoparts.test',
    password: 'admin-pass-2026',
    displayName: 'Admin Rider',
    role: 'admin' as const,
  },
  {
    email: 'rider@motoparts.test',
    password: 'rider-pass-2026',
    displayName: 'Road Rider',
    role: 'user' as const,
  },
];

/**
 * Demo catalogue, reviews and user records. Idempotent: every row is upserted by a natural key
 * with `$setOnInsert`, so a second run adds nothing and never resets stock that orders changed.
 */
export async function seedDatabase(): Promise<{ parts: number; reviews: number; users: number }> {
  for (const p of SEED_PARTS) {
    await PartModel.updateOne(
      { slug: p.slug },
      {
        $setOnInsert: {
          slug: p.slug,
          name: p.name,
          text: p.text,
          img: `/images/parts/${p.slug}.svg`,
          priceCents: toCents(p.price),
          minOrderQty: 100,
          availableQty: p.availableQty,
          category: p.category,
          ...(p.priceTiers
            ? { priceTiers: p.priceTiers.map((t) => ({ fromQty: t.fromQty, priceCents: toCents(t.price) })) }
            : {}),
        },
      },
      { upsert: true },
    );
    // A catalogue seeded before categories existed gets them now (never overwriting a set one).
    await PartModel.updateOne(
      { slug: p.slug, category: { $exists: false } },
      { $set: { category: p.category } },
    );
  }
  for (const r of SEED_REVIEWS) {
    const { name, ...rest } = r;
    // The display name is what the public sees, so an older seed's unnamed rows get it too.
    await ReviewModel.updateOne(
      { email: r.email, review: r.review },
      { $setOnInsert: rest, $set: { name } },
      { upsert: true },
    );
  }
  for (const a of DEMO_ACCOUNTS) {
    await UserModel.updateOne(
      { email: a.email },
      {
        $setOnInsert: { email: a.email },
        $set: { name: a.displayName, ...(a.role === 'admin' ? { role: 'admin' } : {}) },
      },
      { upsert: true },
    );
  }
  const [parts, reviews, users] = await Promise.all([
    PartModel.countDocuments({}),
    ReviewModel.countDocuments({}),
    UserModel.countDocuments({}),
  ]);
  return { parts, reviews, users };
}

/** The two demo accounts in Firebase Auth (the emulator locally): created if missing, password reset. */
export async function seedAuthAccounts(env: Env): Promise<void> {
  const auth = firebaseAuth(env);
  for (const a of DEMO_ACCOUNTS) {
    try {
      const existing = await auth.getUserByEmail(a.email);
      await auth.updateUser(existing.uid, {
        password: a.password,
        displayName: a.displayName,
        emailVerified: true,
      });
    } catch (err) {
      if ((err as { code?: string }).code !== 'auth/user-not-found') throw err;
      await auth.createUser({
        email: a.email,
        password: a.password,
        displayName: a.displayName,
        emailVerified: true,
      });
    }
  }
}
