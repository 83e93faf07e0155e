#!/usr/bin/env node
// Web benchmark (on demand, not part of `npm test`): cold loads of home, purchase and
// dashboard in Debian's Chromium, unthrottled and with 4× CPU throttling, printing the medians of
// LCP, TBT, CLS, when the page itself had rendered, and the JS bytes transferred; and a click
// from home to a part's purchase page, at once or after resting the pointer on the link. Needs a
// running `npm start` (see README.md).
// Two baselines are measured in the same run, so the figures read as ratios on a noisy machine:
// home without its prerendered first screen (index.html stripped back to an empty #root, i.e.
// LCP waits for the shell, the storefront's remoteEntry and its home chunk), and home as HTML
// only (every script refused: the floor that no JavaScript work can beat).
/* global window, localStorage, PerformanceObserver -- observe() and the init script run in the page */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ports } from '../../scripts/services.mjs';
import { LIGHTHOUSE, lighthouse } from './lighthouse.mjs';

const env = process.env;
// A stack started with PORT_SHELL=… npm start is found on the same ports (WEB_* still win).
const p = ports(env);
const BASE = (env.WEB_BASE_URL ?? `http://localhost:${p.shell}`).replace(/\/$/, '');
const API = (env.WEB_API_URL ?? `http://localhost:${p.api}`).replace(/\/$/, '');
const AUTH_EMULATOR = (env.WEB_AUTH_EMULATOR_URL ?? `http://127.0.0.1:${p.authEmulator}`).replace(/\/$/, '');
const RUNS = Number(env.BENCH_RUNS ?? 5);
const THROTTLES = (env.BENCH_THROTTLES ?? '1,4').split(',').map(Number);
const USER = { email: 'rider@motoparts.test', password: 'rider-pass-2026', displayName: 'Road Rider' };
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The "no first screen" baseline serves a rewritten index.html from Playwright; Chromium counts
  // such a document as public and would refuse its requests to the localhost remotes.
  '--disable-features=LocalNetworkAccessChecks',
];

async function json(url, init) {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url} → ${res.status} ${await res.text()}`);
  return res.json();
}

/** Our API token for the demo rider: emulator REST sign-in, then PUT /user/:email. */
async function apiToken() {
  const { idToken } = await json(
    `${AUTH_EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: USER.email, password: USER.password, returnSecureToken: true }),
    },
  );
  const { token } = await json(`${API}/user/${encodeURIComponent(USER.email)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ email: USER.email }),
  });
  return token;
}

/** Starts every page of `context` signed in as the demo rider, as a returning visitor is. */
function signIn(context, token) {
  return context.addInitScript(
    ({ token, user }) => {
      localStorage.setItem('accessToken', token);
      localStorage.setItem('motoparts.sessionUser', JSON.stringify(user));
    },
    { token, user: { email: USER.email, displayName: USER.displayName, photoURL: null } },
  );
}

/** Collects LCP, long tasks and layout shifts from the very start of the document. */
function observe() {
  const m = { lcp: 0, tbt: 0, cls: 0 };
  window.__bench = m;
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) m.lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) m.tbt += Math.max(0, e.duration - 50);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (!e.hadRecentInput) m.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

async function measure(
  browser,
  { path, ready, session, firstScreen = true, scripts: runScripts = true },
  throttle,
) {
  // A new context per run: empty HTTP cache, storage and connections (a cold visit).
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (session) await signIn(context, session);
    await context.addInitScript(observe);
    const page = await context.newPage();
    if (!runScripts) await page.route(/\.js(\?|$)/, (route) => route.abort());
    if (!firstScreen) {
      await page.route(BASE + path, async (route) => {
        const res = await route.fetch();
        const html = (await res.text()).replace(/(<div id="?root"?>)[\s\S]*(<\/div>\s*<\/body>)/, '$1$2');
        // The body is decoded now: drop the original encoding and length.
        const headers = res.headers();
        delete headers['content-encoding'];
        delete headers['content-length'];
        await route.fulfill({ status: res.status(), headers, body: html });
      });
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    const scripts = [];
    page.on('requestfinished', (req) => {
      if (req.resourceType() === 'script') scripts.push(req);
    });
    await page.goto(BASE + path, { waitUntil: 'load' });
    await page.locator(ready).first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForLoadState(runScripts ? 'networkidle' : 'load');
    await page.waitForTimeout(500);
    let jsBytes = 0;
    for (const req of scripts) jsBytes += (await req.sizes()).responseBodySize; // as transferred (br)
    const m = await page.evaluate(() => window.__bench);
    // When the remote's page itself had rendered (the shell's mark), i.e. answered input: a page
    // whose largest paint is a prerendered stand-in paints well before that.
    const rendered = await page.evaluate(
      () => performance.getEntriesByName('motoparts:page-rendered')[0]?.startTime ?? 0,
    );
    return { ...m, rendered, jsBytes };
  } finally {
    await context.close();
  }
}

/**
 * A navigation within the site: home loaded cold and settled, then a click on its first part's
 * Purchase link, at once or after the pointer rested on it for `rest` ms (when the shell starts
 * the page's code and part: shell/src/app/intent-prefetch.ts). Returns how long after the click
 * the purchase page had rendered (the shell's mark) and its order form was there.
 */
async function measureClick(browser, { rest }, throttle) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await signIn(context, token);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(BASE + '/', { waitUntil: 'load' });
    const link = page
      .getByTestId('part-card')
      .getByRole('link', { name: /^Purchase / })
      .first();
    await link.waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await link.scrollIntoViewIfNeeded();
    if (rest) {
      await link.hover();
      await page.waitForTimeout(rest);
    }
    const clickedAt = await page.evaluate(() => performance.now());
    await link.click();
    await page.locator('[data-testid=order-total]').waitFor({ state: 'visible', timeout: 60_000 });
    const formAt = await page.evaluate(() => performance.now());
    const renderedAt = await page.evaluate(
      () => performance.getEntriesByName('motoparts:page-rendered').at(-1)?.startTime ?? 0,
    );
    return { rendered: renderedAt - clickedAt, form: formAt - clickedAt };
  } finally {
    await context.close();
  }
}

const CLICKS = [
  { name: 'home → purchase, click', rest: 0 },
  { name: 'home → purchase, rest 300 ms, click', rest: 300 },
];

const scripted = (p) => p.scripts !== false;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const parts = await json(`${API}/parts`);
const first = Array.isArray(parts) ? parts[0] : parts.items?.[0];
if (!first?._id) throw new Error(`GET ${API}/parts returned no part`);
const token = await apiToken();

const PAGES = [
  { name: 'home', path: '/', ready: '[data-testid=part-card]' },
  { name: 'home, no first screen', path: '/', ready: '[data-testid=part-card]', firstScreen: false },
  { name: 'home, HTML only', path: '/', ready: '#hero-heading', scripts: false },
  { name: 'purchase', path: `/purchase/${first._id}`, ready: '[data-testid=order-total]', session: token },
  { name: 'dashboard', path: '/dashboard', ready: 'main :is(h1, h2)', session: token },
];

// The public pages Lighthouse measures (BENCH_PAGES=lighthouse, or all pages).
const PUBLIC_PAGES = [
  '/',
  '/home',
  '/parts',
  `/parts/${first._id}`,
  '/reviews',
  '/blogs',
  '/myPortfolio',
  '/login',
  '/signup',
];

// BENCH_PAGES=purchase,dashboard measures only the pages named (by their first word), and the
// HTML-only floor that every ratio is read against; `click` names the navigations below, and
// `lighthouse` the Lighthouse rows.
const only = env.BENCH_PAGES?.split(',').map((n) => n.trim());
const [home, stripped, floor, purchase, dashboard] = PAGES;
const measured = only ? PAGES.filter((p) => p === floor || only.includes(p.name.split(',')[0])) : PAGES;

const browser = await chromium.launch({
  executablePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
console.log(`web bench: ${BASE}, ${RUNS} cold runs each, medians (TBT = long-task time over 50 ms)`);
try {
  for (const throttle of THROTTLES) {
    for (const p of measured) {
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await measure(browser, p, throttle));
      const med = (k) => median(runs.map((r) => r[k]));
      p.lcp = med('lcp');
      console.log(
        `${p.name.padEnd(21)} cpu ${throttle}×  LCP ${String(Math.round(med('lcp'))).padStart(5)} ms` +
          `  TBT ${String(Math.round(med('tbt'))).padStart(4)} ms  CLS ${med('cls').toFixed(3)}` +
          (scripted(p) ? `  page rendered ${String(Math.round(med('rendered'))).padStart(5)} ms` : '') +
          `  JS ${(med('jsBytes') / 1024).toFixed(1).padStart(6)} KB transferred` +
          `  (LCP runs: ${runs.map((r) => Math.round(r.lcp)).join(', ')}; TBT runs: ${runs.map((r) => Math.round(r.tbt)).join(', ')})`,
      );
    }
    if (!floor.lcp) continue; // no paint recorded: no ratio to print
    if (home.lcp && stripped.lcp) {
      console.log(
        `home LCP at cpu ${throttle}×: ${(home.lcp / stripped.lcp).toFixed(2)}× of the app without its first` +
          ` screen, ${(home.lcp / floor.lcp).toFixed(2)}× of the HTML-only floor`,
      );
    }
    // The signed-in pages against the same floor, so that runs on a quicker or slower machine
    // (or hour) can be set side by side.
    for (const p of [purchase, dashboard]) {
      if (p.lcp)
        console.log(
          `${p.name} LCP at cpu ${throttle}×: ${(p.lcp / floor.lcp).toFixed(2)}× of the HTML-only floor`,
        );
    }
  }
  // Navigations within the site (BENCH_PAGES=click, or all pages): the two kinds alternate run by
  // run, so the hour's noise hits both alike.
  if (!only || only.includes('click')) {
    for (const throttle of THROTTLES) {
      const runs = CLICKS.map(() => []);
      for (let i = 0; i < RUNS; i += 1) {
        for (const [k, c] of CLICKS.entries()) runs[k].push(await measureClick(browser, c, throttle));
      }
      for (const [k, c] of CLICKS.entries()) {
        const med = (key) => Math.round(median(runs[k].map((r) => r[key])));
        console.log(
          `${c.name.padEnd(36)} cpu ${throttle}×  page rendered ${String(med('rendered')).padStart(5)} ms` +
            `  order form ${String(med('form')).padStart(5)} ms after the click` +
            `  (rendered runs: ${runs[k].map((r) => Math.round(r.rendered)).join(', ')})`,
        );
      }
    }
  }
} finally {
  await browser.close();
}

// Lighthouse's mobile preset on every public page, after the floor above: the medians of RUNS
// (BENCH_LIGHTHOUSE_RUNS, 3 by default) runs each; a run takes 15–30 s here.
if (!only || only.includes('lighthouse')) {
  const runs = Number(env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  console.log(`${LIGHTHOUSE}, mobile preset (simulated slow 4G, 4× CPU), medians of ${runs}:`);
  console.log('page                          perf  a11y  best   seo    CLS    LCP ms  below 0.9');
  // BENCH_LIGHTHOUSE_PAGES=/parts,/reviews,/parts/:id measures only those.
  const lighthousePages = env.BENCH_LIGHTHOUSE_PAGES?.split(',').map((s) =>
    s.trim().replace(':id', first._id),
  );
  for (const p of PUBLIC_PAGES.filter((q) => !lighthousePages || lighthousePages.includes(q))) {
    const results = [];
    for (let i = 0; i < runs; i += 1) {
      const slug = `${p.replace(first._id, 'id').replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'root'}-${i + 1}`;
      results.push(
        await lighthouse(BASE + p, {
          chromePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          keep: env.BENCH_LIGHTHOUSE_REPORTS && path.join(env.BENCH_LIGHTHOUSE_REPORTS, `${slug}.json`),
        }),
      );
    }
    const med = (k) => median(results.map((r) => r[k]));
    const cell = (v, w) => String(v).padStart(w);
    console.log(
      `${p.replace(first._id, ':id').padEnd(29)}${cell(med('performance'), 5)}${cell(med('accessibility'), 6)}` +
        `${cell(med('bestPractices'), 6)}${cell(med('seo'), 6)}${cell(med('cls').toFixed(3), 7)}` +
        `${cell(Math.round(med('lcp')), 10)}  ${[...new Set(results.flatMap((r) => r.failed))].join(' ') || '—'}`,
    );
  }
}
