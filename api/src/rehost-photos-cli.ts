import { runCli } from './lib/cli';
import { createLogger } from './lib/logger';
import { rehostPass } from './images/jobs';

/**
 * `node api/dist/rehost-photos-cli.js` — the one-off migration: hosts every photo still stored as
 * an outside URL (parts and reviews), a batch at a time, until none is left, and prints what it
 * did. The API's background job does the same on its own; this runs it to the end at once. On the
 * embedded database run it while the API is stopped (one writer, as for the seed).
 */
runCli('rehost-photos', async (env) => {
  const logger = createLogger(env);
  const total = { rehosted: 0, failed: 0 };
  for (;;) {
    const pass = await rehostPass(env, logger);
    total.rehosted += pass.rehosted;
    total.failed += pass.failed;
    if (pass.rehosted + pass.failed === 0) break;
  }
  return (
    `${total.rehosted} photos now hosted by the API, ${total.failed} could not be fetched ` +
    '(their reason is in the document’s imgFailed)'
  );
});
