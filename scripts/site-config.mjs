#!/usr/bin/env node
// The front ends' config.json with the canary releases an environment names: what a front-end
// container serves when Compose sets a canary (deploy/site-config.envsh runs it at start-up; Helm
// renders the canary into the file itself). Per remote, `<REMOTE>_CANARY_URL` (the release's
// address, `https://cdn…/dashboard/2.2.0/`) and `<REMOTE>_CANARY_PERCENT` (0–100, the share of
// browsers that run it; 0 or unset: no canary), REMOTE being STOREFRONT, AUTH or DASHBOARD.
//   node scripts/site-config.mjs <config.json> <out.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const CANARY_REMOTES = ['storefront', 'auth', 'dashboard'];

/**
 * `config` with the environment's canaries in place of any it named (an environment that names
 * none leaves it as it is). Throws on a value it cannot use, naming the variable.
 */
export function withCanary(config, env) {
  const canary = {};
  let named = false;
  for (const remote of CANARY_REMOTES) {
    const prefix = `${remote.toUpperCase()}_CANARY_`;
    const url = env[`${prefix}URL`] ?? '';
    const percentText = env[`${prefix}PERCENT`] ?? '';
    if (!url && !percentText) continue;
    named = true;
    const percent = percentText === '' ? 0 : Number(percentText);
    if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
      throw new Error(`${prefix}PERCENT must be a number from 0 to 100, not "${percentText}"`);
    }
    if (percent === 0) continue;
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${prefix}URL must be the canary release's absolute URL, not "${url}"`);
    }
    if (!/^https?:$/.test(parsed.protocol)) throw new Error(`${prefix}URL must be an http(s) URL`);
    canary[remote] = { url, percent };
  }
  if (!named) return config;
  const rest = { ...config };
  delete rest.canary;
  return Object.keys(canary).length > 0 ? { ...rest, canary } : rest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: site-config.mjs <config.json> <out.json>');
    process.exit(2);
  }
  try {
    const config = JSON.parse(readFileSync(input, 'utf8'));
    writeFileSync(output, JSON.stringify(withCanary(config, process.env), null, 2) + '\n');
  } catch (err) {
    console.error(`site-config.mjs: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
