#!/usr/bin/env node
// Loads the scale data set (10,000 parts, 2,000 users, 50,000 orders) into its own database.
//   npx tsc -b api && node bench/seed-scale/run.mjs [--force]
//   MONGODB_URI (default mongodb://127.0.0.1:27017/motoparts-scale; the name must contain "scale")
// Against the embedded FerretDB, stop the API first (one writer per embedded DB, docs/architecture.md).
import { seedScale } from './seed.mjs';

const uri = process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/motoparts-scale';
const started = Date.now();
try {
  await seedScale({ uri, force: process.argv.includes('--force') });
  console.log(`[seed-scale] ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  console.error(`[seed-scale] failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
