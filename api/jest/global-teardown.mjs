import { rmSync } from 'node:fs';
import { stopChild } from '../../scripts/services.mjs';

export default async function globalTeardown() {
  const started = globalThis.__MOTOPARTS_SERVICES__;
  if (!started) return;
  await Promise.all(started.children.map((c) => stopChild(c)));
  if (started.dataDir) rmSync(started.dataDir, { recursive: true, force: true });
}
