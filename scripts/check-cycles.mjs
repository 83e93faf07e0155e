#!/usr/bin/env node
// Fails (exit 1) on any import cycle, type-only imports included, within the API, the shared
// packages, the shell and each remote: one way through the code, dependencies pointing down.
// Part of `npm run lint`. madge follows each package's own sources; other packages' builds
// (a workspace package's dist) and node_modules are not followed.
//   node scripts/check-cycles.mjs            (every package)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGES = ['api', 'contracts', 'state', 'shell', 'storefront-mfe', 'auth-mfe', 'dashboard-mfe'];

/** The import cycles among the TypeScript sources below `dir`, each as a list of files. */
export async function cyclesIn(dir, tsConfig) {
  const result = await madge(dir, {
    fileExtensions: ['ts', 'tsx'],
    ...(tsConfig && existsSync(tsConfig) ? { tsConfig } : {}),
    excludeRegExp: [/node_modules/, /(^|\/)dist\//],
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  return result.circular();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const pkg of PACKAGES) {
    const cycles = await cyclesIn(path.join(ROOT, pkg, 'src'), path.join(ROOT, pkg, 'tsconfig.json'));
    for (const cycle of cycles)
      console.error(`import cycle in ${pkg}/src: ${[...cycle, cycle[0]].join(' → ')}`);
    failed ||= cycles.length > 0;
  }
  if (failed) process.exit(1);
  console.log(`no import cycles in ${PACKAGES.join(', ')}`);
}
