#!/usr/bin/env node
// Holds a slice's API calls to the API's OpenAPI document: every RTK Query endpoint the slice
// defines (`build.query` / `build.mutation` / `build.infiniteQuery` with a `query` that returns a
// URL or `{ url, method }`) must be an operation the document offers. A team releasing a front end
// learns here, before its users do, that it calls a route the API does not serve.
//   node scripts/api-calls.mjs <storefront|auth|dashboard|shell> [--openapi <URL or file>] [--json <file>]
// Without --openapi the document is made from the built API (api/dist, `tsc -b`), as it serves it.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
/** @type {typeof import('typescript')} */
const ts = require('typescript');

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What each team releases: its workspace, the sources whose API calls ship with it and the
 * prefixes of its e2e journeys. The shared kit (`state/src`: catalogue, cart, profile) ships with
 * the shell: it is a shared singleton, and in the site every remote runs on the shell's copy.
 */
export const SLICES = {
  storefront: { ws: 'storefront-mfe', sources: ['storefront-mfe/src'], specs: ['storefront-'] },
  auth: { ws: 'auth-mfe', sources: ['auth-mfe/src'], specs: ['auth-'] },
  dashboard: { ws: 'dashboard-mfe', sources: ['dashboard-mfe/src'], specs: ['dashboard-'] },
  shell: { ws: 'shell', sources: ['shell/src', 'state/src'], specs: ['platform-', 'shell-'] },
};

const ENDPOINT_KINDS = new Set(['query', 'mutation', 'infiniteQuery']);

/** Source files of a folder, tests left out (they call what they like, against no API). */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(entry.name) &&
      !/\.(test|spec)\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
      ? [p]
      : [];
  });
}

const unwrap = (node) => {
  let n = node;
  while (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n))
    n = n.expression;
  return n;
};

/**
 * The paths an expression can evaluate to, written as templates: a substitution becomes `{}`, a
 * query string is dropped, both branches of a conditional are kept. Null when it is not written
 * in the source (a variable, a call), which the check reports rather than passes.
 */
function pathsOf(node) {
  const n = unwrap(node);
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return [n.text];
  if (ts.isTemplateExpression(n)) {
    return [n.head.text + n.templateSpans.map((span) => `{}${span.literal.text}`).join('')];
  }
  if (ts.isConditionalExpression(n)) {
    const a = pathsOf(n.whenTrue);
    const b = pathsOf(n.whenFalse);
    return a && b ? [...a, ...b] : null;
  }
  return null;
}

const property = (object, name) =>
  object.properties.find(
    (p) =>
      ts.isPropertyAssignment(p) &&
      (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) &&
      p.name.text === name,
  );

/** The `{ method, path }` pairs one returned value of a `query` stands for. */
function requestsOf(node) {
  const n = unwrap(node);
  if (!ts.isObjectLiteralExpression(n)) {
    const paths = pathsOf(n);
    return paths && paths.map((p) => ({ method: 'GET', path: p }));
  }
  const url = property(n, 'url');
  const method = property(n, 'method');
  const paths = url && pathsOf(url.initializer);
  const methods = method ? pathsOf(method.initializer) : ['GET'];
  if (!paths || !methods) return null;
  return methods.flatMap((m) => paths.map((p) => ({ method: m.toUpperCase(), path: p })));
}

/** The values a `query` function returns: its expression body, or each `return` of its block. */
function returnedValues(fn) {
  if (!ts.isBlock(fn.body)) return [fn.body];
  const values = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression) values.push(node.expression);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return values;
}

/**
 * Every RTK Query endpoint defined in the given folders (relative to `root`): its name, file,
 * and the requests it makes, or `unreadable` when its URL is not written in the source.
 * @returns {{ endpoint: string, file: string, method?: string, path?: string, unreadable?: string }[]}
 */
export function apiCalls(folders, root = ROOT) {
  const calls = [];
  for (const folder of folders) {
    for (const file of sourceFiles(path.join(root, folder))) {
      const rel = path.relative(root, file);
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node) => {
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          ENDPOINT_KINDS.has(node.expression.name.text) &&
          node.arguments[0] &&
          ts.isObjectLiteralExpression(node.arguments[0])
        ) {
          const definition = node.arguments[0];
          const owner = node.parent;
          const endpoint =
            ts.isPropertyAssignment(owner) && ts.isIdentifier(owner.name) ? owner.name.text : '(unnamed)';
          const query = definition.properties.find(
            (p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'query',
          );
          const queryFn = property(definition, 'queryFn');
          let fn = null;
          if (query && ts.isMethodDeclaration(query)) fn = query;
          else if (query && ts.isPropertyAssignment(query)) {
            const init = unwrap(query.initializer);
            if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) fn = init;
          }
          if (fn) {
            for (const value of returnedValues(fn)) {
              const requests = requestsOf(value);
              if (requests) for (const r of requests) calls.push({ endpoint, file: rel, ...r });
              else
                calls.push({
                  endpoint,
                  file: rel,
                  unreadable: 'its URL or method is not written in the source',
                });
            }
          } else if (query || queryFn) {
            calls.push({ endpoint, file: rel, unreadable: 'it has no `query` function returning its URL' });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return calls;
}

/** `/order/{id}/status` and `/order/{}/status` alike: one `{}` for every path parameter. */
const shape = (p) => (p.split('?')[0] ?? '').replace(/\{[^{}]*\}/g, '{}');

/**
 * Matches calls to the document's operations.
 * @returns {{ used: { method: string, path: string, operationId: string, endpoints: string[] }[],
 *   missing: { method: string, path: string, endpoint: string, file: string, reason: string }[] }}
 */
export function checkCalls(calls, document) {
  const operations = new Map();
  const paths = new Set();
  for (const [docPath, item] of Object.entries(document.paths ?? {})) {
    paths.add(shape(docPath));
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!/^(get|put|post|delete|patch|head|options|trace)$/.test(method)) continue;
      operations.set(`${method.toUpperCase()} ${shape(docPath)}`, {
        path: docPath,
        operationId: op.operationId ?? '',
      });
    }
  }
  const used = new Map();
  const missing = [];
  for (const call of calls) {
    if (call.unreadable) {
      missing.push({
        method: '?',
        path: '?',
        endpoint: call.endpoint,
        file: call.file,
        reason: call.unreadable,
      });
      continue;
    }
    const key = `${call.method} ${shape(call.path)}`;
    const op = operations.get(key);
    if (!op) {
      missing.push({
        method: call.method,
        path: call.path,
        endpoint: call.endpoint,
        file: call.file,
        reason: paths.has(shape(call.path))
          ? `the API has ${shape(call.path)} but no ${call.method} on it`
          : 'the API has no such path',
      });
      continue;
    }
    const entry = used.get(key) ?? {
      method: call.method,
      path: op.path,
      operationId: op.operationId,
      endpoints: [],
    };
    if (!entry.endpoints.includes(call.endpoint)) entry.endpoints.push(call.endpoint);
    used.set(key, entry);
  }
  const sorted = [...used.values()].sort(
    (a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
  return { used: sorted, missing };
}

/**
 * The API's OpenAPI document: fetched from a URL (a running API's GET /openapi.json), read from a
 * file, or made from the built API (api/dist) with the routes it registers, without a database.
 */
export async function loadDocument(source) {
  if (source && /^https?:\/\//.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    return res.json();
  }
  if (source) return JSON.parse(readFileSync(source, 'utf8'));
  const app = path.join(ROOT, 'api', 'dist', 'app.js');
  if (!existsSync(app)) throw new Error('api/dist is missing: build the API first (npx tsc -b)');
  const { createRoutes } = require(app);
  const { loadEnv } = require(path.join(ROOT, 'api', 'dist', 'lib', 'env.js'));
  // Placeholders only: the routes are registered, never served, so nothing is connected to.
  const env = loadEnv({
    NODE_ENV: 'test',
    JWT_SECRET: 'document-only-'.repeat(4),
    MONGODB_URI: 'mongodb://127.0.0.1:1/unused',
    STRIPE_SECRET_KEY: 'sk_test_unused',
    STRIPE_WEBHOOK_SECRET: 'whsec_unused',
    FIREBASE_PROJECT_ID: 'demo-motoparts',
    // Limits kept in memory: a shared store would try to index a database that is not there.
    RATE_LIMIT_STORE: 'memory',
    MAIL_DISABLED: '1',
  });
  return JSON.parse(JSON.stringify(createRoutes({ env }).openApi()));
}

/** The report's lines: the operations the slice uses, then every call the API does not offer. */
export function formatReport(slice, { used, missing }) {
  const lines = [`API operations the ${slice} slice uses (${used.length}):`];
  for (const op of used)
    lines.push(`  ${op.method} ${op.path}  ${op.operationId}  (${op.endpoints.join(', ')})`);
  if (missing.length === 0) lines.push('  none missing: every call is an operation of the API');
  else {
    lines.push(`Calls the API does not offer (${missing.length}):`);
    for (const m of missing) lines.push(`  ${m.method} ${m.path}: ${m.endpoint} in ${m.file} (${m.reason})`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { openapi: { type: 'string' }, json: { type: 'string' } },
  });
  const slice = positionals[0];
  if (!slice || !Object.hasOwn(SLICES, slice)) {
    console.error(
      `usage: api-calls.mjs <${Object.keys(SLICES).join('|')}> [--openapi <URL or file>] [--json <file>]`,
    );
    process.exit(2);
  }
  try {
    const result = checkCalls(apiCalls(SLICES[slice].sources), await loadDocument(values.openapi));
    console.log(formatReport(slice, result));
    if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2));
    process.exit(result.missing.length > 0 ? 1 : 0);
  } catch (err) {
    console.error(`api-calls: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
