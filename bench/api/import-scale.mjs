#!/usr/bin/env node
// On-demand benchmark (not part of `npm test`) of the catalogue's CSV import on the scale data set
// (bench/seed-scale: 10,000 parts, 50,000 orders) with the embedded FerretDB, against the compiled
// API as deployed: GET /export/parts.csv, then a 5,000-row file (BENCH_IMPORT_ROWS) made from it,
// half new parts and half edits of exported ones (a new price; every tenth edit also restocks),
// sent as a dry run, applied, and applied again (which changes nothing). Prints each time and
// what each answer counted.
//   npx tsc -b api && node bench/api/import-scale.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  ensureTools,
  freePort,
  serviceEnv,
  startFerret,
  stopChild,
  waitForPort,
} from '../../scripts/services.mjs';
import { ADMIN_EMAIL, ADMIN_INDEX, SCALE, seedScale, uidOf } from '../seed-scale/seed.mjs';
import { apiNodeArgs, waitReady } from './support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 5000);

ensureTools();
const ports = { db: await freePort(), stripe: await freePort(), authEmulator: await freePort() };
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-bench-import-'));
const env = {
  ...process.env,
  ...serviceEnv(ports, {}),
  MONGODB_URI: `mongodb://127.0.0.1:${ports.db}/motoparts-scale`,
  NODE_ENV: 'production',
  ALLOW_LOCAL_SERVICES: '1',
  MAIL_DISABLED: '1',
  LOG_LEVEL: 'warn',
  // One reader on one address stands for many shoppers (as in run.mjs): no per-address limit.
  RATE_LIMIT_LISTING: '0/60',
};

const ferret = await startFerret({ port: ports.db, dataDir });
let api;
try {
  const seedStarted = Date.now();
  await seedScale({ uri: env.MONGODB_URI, log: () => {} });
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const { loadEnv } = require(path.join(root, 'api/dist/lib/env.js'));
  const { signApiToken } = require(path.join(root, 'api/dist/lib/tokens.js'));
  const token = signApiToken(loadEnv(env), {
    uid: uidOf(ADMIN_INDEX),
    email: ADMIN_EMAIL,
    name: 'Scale Admin',
    admin: true,
    epoch: 0,
  });
  const auth = { authorization: `Bearer ${token}` };

  const port = await freePort();
  api = spawn('node', [...apiNodeArgs(), path.join(root, 'api/dist/server.js')], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForPort(port, { child: api });
  await waitReady(base, { tries: 600 });

  const timed = async (what, work) => {
    const started = Date.now();
    const result = await work();
    const seconds = (Date.now() - started) / 1000;
    console.log(`${what.padEnd(44)} ${seconds.toFixed(1).padStart(6)} s  ${result.note ?? ''}`);
    return { ...result, seconds };
  };

  const exported = await timed('GET /export/parts.csv', async () => {
    const res = await fetch(`${base}/export/parts.csv`, { headers: auth });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`export: ${res.status} ${text}`);
    return { text, note: `${(text.length / 1024 / 1024).toFixed(1)} MB` };
  });
  const rows = parse(exported.text, { columns: true });
  const columns = Object.keys(rows[0]);
  const stamp = Date.now().toString(36);
  const edits = rows.slice(0, Math.ceil(ROWS / 2)).map((r, i) => ({
    ...r,
    price: (Number(r.price) + 0.01).toFixed(2),
    // Tiers must stay below the price: an edit that raises the price keeps them valid.
    restock: i % 10 === 0 ? '10' : '',
  }));
  const creates = Array.from({ length: ROWS - edits.length }, (_, i) => ({
    _id: '',
    name: `Imported part ${stamp} ${i}`,
    text: 'A part the import benchmark adds.',
    img: '/images/parts/spin-on-oil-filter.svg',
    price: '9.99',
    qty: '1',
    availableQty: '100',
    category: 'parts',
    priceTiers: '',
    restock: '',
  }));
  const file = stringify([...edits, ...creates], { header: true, columns, record_delimiter: '\r\n' });
  // A second file for the run with a shopper reading meanwhile: other prices and other new names.
  const second = stringify(
    [
      ...edits.map((r) => ({
        ...r,
        price: (Number(r.price) + 0.01).toFixed(2),
        availableQty: String(Number(r.availableQty) + Number(r.restock || 0)),
        restock: '',
      })),
      ...creates.map((r) => ({ ...r, name: `${r.name} b` })),
    ],
    { header: true, columns, record_delimiter: '\r\n' },
  );

  const send =
    (dryRun, content = file) =>
    async () => {
      const res = await fetch(`${base}/import/parts${dryRun ? '?dryRun=true' : ''}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/csv' },
        body: content,
      });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(body)}`);
      const { created, updated, unchanged, errors } = body;
      // The errors by field and message, numbers left out ("is 95 now, not 70" → "is # now, not #").
      const kinds = new Map();
      for (const e of errors) {
        const kind = `${e.field}: ${e.message.replace(/\d+/g, '#')}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      const byKind = [...kinds].map(([k, n]) => `\n    ${n} × ${k}`).join('');
      return {
        note: `created ${created}, updated ${updated}, unchanged ${unchanged}, errors ${errors.length}${byKind}`,
      };
    };
  console.log(
    `\nCSV import, ${ROWS.toLocaleString('en')} rows (${(file.length / 1024 / 1024).toFixed(1)} MB), on ` +
      `${SCALE.parts.toLocaleString('en')} parts and ${SCALE.orders.toLocaleString('en')} orders (seeded in ` +
      `${seedSeconds.toFixed(0)} s), the embedded FerretDB; ${os.cpus().length} CPUs, node ${process.version}`,
  );
  await timed('POST /import/parts?dryRun=true', send(true));
  const applied = await timed('POST /import/parts (applied)', send(false));
  await timed('POST /import/parts (the same file again)', send(false));
  // A shopper paging the catalogue one request at a time while a second file is applied: the
  // catalogue hears of the import once, at its end, so these reads come from memory meanwhile.
  let importing = true;
  const latencies = [];
  let refused = 0;
  const reader = (async () => {
    while (importing) {
      const started = Date.now();
      const res = await fetch(`${base}/parts?page=${1 + Math.floor(Math.random() * 400)}`);
      await res.arrayBuffer();
      latencies.push(Date.now() - started);
      if (res.status !== 200) refused++;
    }
  })();
  const withReader = await timed('POST /import/parts (another file, a reader)', send(false, second));
  importing = false;
  await reader;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  console.log(
    `  meanwhile GET /parts?page: ${latencies.length} reads, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, ` +
      `max ${latencies.at(-1)} ms (${(latencies.length / withReader.seconds).toFixed(0)}/s)` +
      (refused ? `, ${refused} not 200` : ''),
  );
  await timed('GET /parts (the catalogue read again)', async () => {
    const res = await fetch(`${base}/parts`);
    await res.arrayBuffer();
    return { note: `X-Total-Count ${res.headers.get('x-total-count')}` };
  });
  console.log(`target: applied in ≤ 60 s → ${applied.seconds <= 60 ? 'met' : 'NOT met'}`);
} finally {
  if (api && api.exitCode === null) {
    await new Promise((resolve) => {
      api.once('exit', resolve);
      api.kill('SIGTERM');
    });
  }
  await stopChild(ferret);
  rmSync(dataDir, { recursive: true, force: true });
}
