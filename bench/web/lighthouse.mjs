// Lighthouse (mobile preset: a mid-range phone's screen, 4× CPU slowdown and a slow 4G network,
// simulated) over the shop's public pages, as bench/web/run.mjs's `lighthouse` rows. Lighthouse
// itself is fetched by npx at the version pinned here (it is not a dependency of the repo: it
// brings some 150 packages that nothing else needs), and drives Debian's Chromium (CHROME_PATH).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Lighthouse 12 runs on Node 20; pinned so runs compare. */
export const LIGHTHOUSE = 'lighthouse@12.8.2';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * One Lighthouse run of `url`: the four category scores (0–100), CLS and LCP (ms).
 * @param {string} url
 * `keep`: a path to keep the full JSON report at (its audits: bootup-time, long-tasks, the LCP
 * element…).
 * @param {{ chromePath: string, keep?: string }} o
 */
export async function lighthouse(url, { chromePath, keep }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
  const out = path.join(dir, 'report.json');
  try {
    await run(
      'npx',
      [
        '--yes',
        LIGHTHOUSE,
        url,
        '--output=json',
        `--output-path=${out}`,
        `--only-categories=${CATEGORIES.join(',')}`,
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 64 * 1024 * 1024 },
    );
    if (keep) {
      mkdirSync(path.dirname(keep), { recursive: true });
      copyFileSync(out, keep);
    }
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const score = (c) => Math.round((report.categories[c]?.score ?? 0) * 100);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      cls: report.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      lcp: report.audits['largest-contentful-paint']?.numericValue ?? NaN,
      // What kept a category from 100, for the reader of the line.
      failed: Object.values(report.categories)
        .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => report.audits[r.id]))
        .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
        .map((a) => a.id),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
