import { connectDb, disconnectDb } from './lib/db';
import { EnvError, loadEnv } from './lib/env';
import { DEMO_ACCOUNTS, seedAuthAccounts, seedDatabase } from './seed';

/** `node api/dist/seed-cli.js` — run before the API starts (one writer per embedded database: docs/architecture.md). */
async function main(): Promise<void> {
  const env = loadEnv();
  await connectDb(env);
  try {
    const counts = await seedDatabase();
    await seedAuthAccounts(env);
    process.stdout.write(
      `seed: ${counts.parts} parts, ${counts.reviews} reviews, ${counts.users} users; demo logins: ` +
        DEMO_ACCOUNTS.map((a) => `${a.email} / ${a.password}`).join(', ') +
        '\n',
    );
  } finally {
    await disconnectDb();
  }
}

main()
  .then(() => process.exit(0))
  .catch((err: unknown) => {
    process.stderr.write(
      `seed failed: ${err instanceof EnvError ? err.message : String((err as Error).stack ?? err)}\n`,
    );
    process.exit(1);
  });
