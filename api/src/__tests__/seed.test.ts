import { priceTierProblems } from '@motoparts/contracts';
import { PartModel } from '../parts/model';
import { ReviewModel } from '../reviews/model';
import { UserModel } from '../users/model';
import { DEMO_ACCOUNTS, SEED_PARTS, seedAuthAccounts, seedDatabase } from '../seed';
import { signIn } from './support/auth';
import { call, startTestApp, type TestApp } from './support/harness';

let t: TestApp;
beforeAll(async () => {
  // ADMIN_EMAILS empty: the admin role must come from the seed itself.
  t = await startTestApp('seed', { ADMIN_EMAILS: '' });
});
afterAll(() => t.close());

it('is idempotent: a second run duplicates nothing and keeps stock changed since', async () => {
  const first = await seedDatabase();
  expect(first).toEqual({ parts: SEED_PARTS.length, reviews: 3, users: 2 });
  await PartModel.updateOne({ slug: 'iridium-spark-plug' }, { $inc: { availableQty: -100 } });
  const second = await seedDatabase();
  expect(second).toEqual(first);
  expect((await PartModel.findOne({ slug: 'iridium-spark-plug' }).lean())?.availableQty).toBe(2900);
  expect(SEED_PARTS.length).toBeGreaterThanOrEqual(6);
  const parts = await PartModel.find({}).lean();
  // Some demo parts show volume prices, every one valid by the contract's rules.
  expect(parts.filter((p) => p.priceTiers?.length).length).toBeGreaterThanOrEqual(2);
  for (const p of SEED_PARTS) {
    expect({ slug: p.slug, problems: priceTierProblems({ ...p, qty: 100 }) }).toEqual({
      slug: p.slug,
      problems: [],
    });
  }
  for (const p of parts) {
    expect(p.minOrderQty).toBe(100);
    expect(p.availableQty).toBeGreaterThanOrEqual(1000);
    expect(p.img).toBe(`/images/parts/${p.slug}.svg`);
  }
  expect(await ReviewModel.countDocuments({})).toBe(3);
  expect((await UserModel.findOne({ email: 'admin@motoparts.test' }).lean())?.role).toBe('admin');
  expect((await UserModel.findOne({ email: 'rider@motoparts.test' }).lean())?.role).toBe('user');
});

it('creates the demo accounts in the auth emulator (twice without error) and they can sign in', async () => {
  await seedAuthAccounts(t.env);
  await seedAuthAccounts(t.env);
  for (const a of DEMO_ACCOUNTS) {
    const idToken = await signIn(a.email, a.password);
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as {
      name?: string;
    };
    expect(claims.name).toBe(a.displayName);
    const res = await call<{ admin: boolean }>(t.base, 'PUT', `/user/${a.email}`, { token: idToken });
    expect(res.status).toBe(200);
    expect(res.body.admin).toBe(a.role === 'admin');
  }
});
