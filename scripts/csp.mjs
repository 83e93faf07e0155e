#!/usr/bin/env node
// The front ends' security headers, derived from the same config.json the browser reads, for
// both static servers: scripts/serve-static.mjs computes them per config, and deploy/nginx.conf
// takes the Content-Security-Policy as a template variable this script prints:
//   node scripts/csp.mjs <config.json> [<built dist dir>]   → the policy for that front end
// The policy allows exactly our own origins (the shell, the remotes, the API: its /uploads/ photos
// included), Firebase (the
// project's auth domain, Google's identity endpoints, the emulator when configured) and Stripe,
// and no inline code except the elements of the served index.html, by their hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What real Stripe.js needs (Stripe's documented CSP: its script, its frames, its API). */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
};
/**
 * What the Firebase Auth web SDK needs: Google's identity endpoints, gapi for the popup, and the
 * Google account photos its users carry as photoURL (the top bar's avatar).
 */
const FIREBASE = {
  script: ['https://apis.google.com'],
  img: ['https://*.googleusercontent.com'],
  connect: [
    'https://identitytoolkit.googleapis.com',
    'https://securetoken.googleapis.com',
    'https://www.googleapis.com',
  ],
};

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const origin = (url) => (url ? new URL(url).origin : null);

/** `'sha256-…'` of every inline <script> and <style> in a page (what the policy lets run). */
export function inlineHashes(html) {
  const inline = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/gi;
  const hashes = { script: [], style: [] };
  for (const [, tag, attrs, body] of html.matchAll(inline)) {
    if (tag.toLowerCase() === 'script' && /\bsrc\s*=/i.test(attrs)) continue;
    // A data block (the site's config as JSON) is never run: nothing to allow.
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1].toLowerCase();
    if (tag.toLowerCase() === 'script' && type && !/^(text|application)\/javascript$|^module$/.test(type))
      continue;
    const list = hashes[tag.toLowerCase()];
    const hash = `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;
    if (!list.includes(hash)) list.push(hash);
  }
  return hashes;
}

/**
 * The Content-Security-Policy for a front end with this runtime config.
 * @param {{ apiBaseUrl: string, shellUrl?: string, remotes?: Record<string, string>,
 *   canary?: Record<string, { url?: string }>, firebase?: { authDomain?: string },
 *   firebaseAuthEmulatorUrl?: string, devRemotes?: Record<string, string> }} config
 * @param {{ script: string[], style: string[] }} [hashes] inline elements of the served page
 */
export function contentSecurityPolicy(config, hashes = { script: [], style: [] }) {
  const ours = [
    ...new Set(
      [
        config.shellUrl,
        ...Object.values(config.remotes ?? {}),
        // A canary release may be served from elsewhere than its stable one.
        ...Object.values(config.canary ?? {}).map((release) => release?.url),
      ]
        .map(origin)
        .filter((o) => o !== null),
    ),
  ];
  const api = origin(config.apiBaseUrl);
  // A remote served by its dev server (npm start -- --dev) sends hot updates over a WebSocket.
  const devSockets = Object.values(config.devRemotes ?? {}).map(origin);
  const emulator = origin(config.firebaseAuthEmulatorUrl);
  const authDomain = config.firebase?.authDomain ? `https://${config.firebase.authDomain}` : null;
  const list = (...items) => [...new Set(items.flat().filter(Boolean))].join(' ');
  const directives = {
    'default-src': "'self'",
    'script-src': list("'self'", ours, hashes.script, STRIPE.script, FIREBASE.script),
    'style-src': list("'self'", ours, hashes.style),
    // Photos come from our own origins only: the catalogue's /images/ on the shell, every uploaded
    // or re-hosted photo from the API's /uploads/ (an outside address given to the API is fetched
    // and hosted there), plus the Google account photos by name and Stripe's.
    'img-src': list("'self'", ours, api, 'data:', FIREBASE.img, STRIPE.img),
    'font-src': list("'self'", ours),
    'connect-src': list("'self'", ours, api, emulator, devSockets, FIREBASE.connect, STRIPE.connect),
    'frame-src': list(STRIPE.frame, authDomain, emulator),
    'object-src': "'none'",
    'base-uri': "'none'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/**
 * A front end's config.json, parsed. The shell's page carries the same text in a `<script>` data
 * block (a server-side include), so a text that could end that block or open a comment there is
 * refused: JSON writes `<` as `\u003c` just as well.
 * @param {string} text
 */
export function parseConfig(text) {
  if (/<\/script|<!--/i.test(text)) {
    throw new Error('config.json must not contain "</script" or "<!--" (write "<" as "\\u003c")');
  }
  return JSON.parse(text);
}

/** All security headers for a front end: the CSP plus nosniff and the referrer policy. */
export function securityHeaders(config, hashes) {
  return { 'content-security-policy': contentSecurityPolicy(config, hashes), ...SECURITY_HEADERS };
}

const isMain =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const [configFile, distDir] = process.argv.slice(2);
  if (!configFile) {
    console.error('usage: csp.mjs <config.json> [<dist dir whose index.html is served>]');
    process.exit(2);
  }
  let config;
  try {
    config = parseConfig(readFileSync(configFile, 'utf8'));
  } catch (err) {
    console.error(`csp.mjs: ${configFile}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const hashes = distDir ? inlineHashes(readFileSync(path.join(distDir, 'index.html'), 'utf8')) : undefined;
  process.stdout.write(`${contentSecurityPolicy(config, hashes)}\n`);
}
