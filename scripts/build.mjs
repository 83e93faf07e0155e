#!/usr/bin/env node
// `npm run build`: tsc -b for the Node packages, then every front end's production build.
import { buildAll, ensureInstalled } from './stack.mjs';

await ensureInstalled();
await buildAll({ force: process.argv.includes('--force') });
