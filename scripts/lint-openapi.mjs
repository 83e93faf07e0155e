#!/usr/bin/env node
// Lints an OpenAPI document with Redocly's recommended rules and prints every problem, one a line;
// exits 1 on any error or warning. The API's tests run it on the document the API serves.
//   node scripts/lint-openapi.mjs <file or http(s) URL>     (e.g. http://localhost:5000/openapi.json)
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';

const target = process.argv[2];
if (!target) {
  console.error('usage: node scripts/lint-openapi.mjs <file or URL>');
  process.exit(2);
}
const source = /^https?:\/\//.test(target)
  ? await (await fetch(target)).text()
  : readFileSync(target, 'utf8');
const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
for (const p of problems) {
  console.log(`${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer ?? ''})`);
}
console.log(`${problems.length} problem(s)`);
process.exit(problems.length > 0 ? 1 : 0);
