import { connectDb, disconnectDb } from './lib/db';
import { EnvError, loadEnv } from './lib/env';
import { createLogger } from './lib/logger';
import { rehostPass } from './images/jobs';

/**
 * `node api/dist/rehost-photos-cli.js` — the one-off migration: hosts every photo still stored as
 * an outside URL (parts and reviews), a batch at a time, until none is left, and prints what it
 * did. The API's background job does the same on its own; this runs it to the end at once. On the
 * embedded database run it while the API is stopped (one writer, as for the seed).
 */
async function main(): Promise<void> {
  const env = loadEnv();
  const logger = createLogger(env);
  await connectDb(env);
  const total = { rehosted: 0, failed: 0 };
  try {
    for (;;) {
      const pass = await rehostPass(env, logger);
      total.rehosted += pass.rehosted;
      total.failed += pass.failed;
      if (pass.rehosted + pass.failed === 0) break;
    }
    process.stdout.write(
      `rehost-photos: ${total.rehosted} photos now hosted by the API, ${total.failed} could not be fetched ` +
        '(their reason is in the document’s imgFailed)\n',
    );
  } finally {
    await disconnectDb();
  }
}

main()
  .then(() => process.exit(0))
  .catch((err: unknown) => {
    process.stderr.write(
      `rehost-photos failed: ${err instanceof EnvError ? err.message : String((err as Error).stack ?? err)}\n`,
    );
    process.exit(1);
  });
