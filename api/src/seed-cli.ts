import { runCli } from './lib/cli';
import { DEMO_ACCOUNTS, seedAuthAccounts, seedDatabase } from './seed';

/** `node api/dist/seed-cli.js` — run before the API starts (one writer per embedded database: docs/architecture.md). */
runCli('seed', async (env) => {
  const counts = await seedDatabase();
  await seedAuthAccounts(env);
  return (
    `${counts.parts} parts, ${counts.reviews} reviews, ${counts.users} users; demo logins: ` +
    DEMO_ACCOUNTS.map((a) => `${a.email} / ${a.password}`).join(', ')
  );
});
