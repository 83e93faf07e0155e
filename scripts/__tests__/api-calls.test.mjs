// The release check that holds each slice's RTK Query calls to the API's OpenAPI document
// (scripts/api-calls.mjs, docs/releasing.md). No browser and no running API: the document is
// made from the built API's routes, as GET /openapi.json serves it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ROOT, SLICES, apiCalls, checkCalls, formatReport, loadDocument } from '../api-calls.mjs';

const FIXTURE = 'scripts/__tests__/fixtures/api-slice/src';
const UNREADABLE = 'scripts/__tests__/fixtures/api-slice-unreadable/src';

/** @type {any} */
let document;
before(async () => {
  // Incremental: a no-op when api/dist is current, which `npm test`'s lint step has made it.
  const tsc = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  document = await loadDocument();
});

describe('reading a slice’s calls', () => {
  test('takes strings, templates, object forms, conditional URLs and every return of a block', () => {
    const calls = apiCalls([FIXTURE]).map((c) => `${c.endpoint} ${c.method} ${c.path}`);
    assert.deepEqual(calls, [
      'getWishlist GET /wishlist',
      'renamePart PATCH /parts/{}',
      'getPart GET /parts/{}?fields=name',
      'moveLine DELETE /checkout/{}',
      'moveLine DELETE /cart/lines/{}',
    ]);
  });

  test('a URL the source does not spell out is reported, never passed', () => {
    const { missing } = checkCalls(apiCalls([UNREADABLE]), document);
    assert.equal(missing.length, 1);
    assert.equal(missing[0]?.endpoint, 'getSomething');
    assert.match(missing[0]?.reason ?? '', /not written in the source/);
  });
});

describe('checking calls against the OpenAPI document', () => {
  test('a call to a path or method the API lacks fails, naming it; offered ones are listed as used', () => {
    const result = checkCalls(apiCalls([FIXTURE]), document);
    assert.deepEqual(
      result.missing.map((m) => `${m.method} ${m.path} (${m.endpoint})`),
      ['GET /wishlist (getWishlist)', 'PATCH /parts/{} (renamePart)'],
    );
    assert.match(result.missing[0]?.reason ?? '', /no such path/);
    assert.match(result.missing[1]?.reason ?? '', /no PATCH/);
    assert.deepEqual(
      result.used.map((u) => `${u.method} ${u.path} ${u.operationId}`),
      [
        'DELETE /cart/lines/{partId} removeCartLine',
        'DELETE /checkout/{id} cancelCheckout',
        'GET /parts/{id} getPart',
      ],
    );
    const report = formatReport('fixture', result);
    assert.match(report, /GET \/wishlist: getWishlist in scripts\/__tests__\/fixtures\/api-slice/);
  });

  for (const [slice, { sources }] of Object.entries(SLICES)) {
    test(`the ${slice} slice calls only operations the API offers`, () => {
      const calls = apiCalls(sources);
      const { used, missing } = checkCalls(calls, document);
      assert.deepEqual(missing, []);
      assert.ok(used.length > 0, `${slice} defines no API calls`);
    });
  }

  test('the command exits non-zero when a call is missing from the document it is given', () => {
    const run = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'scripts', 'api-calls.mjs'),
        'dashboard',
        '--openapi',
        path.join(ROOT, FIXTURE, '..', 'openapi.json'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 1);
    assert.match(run.stdout, /PUT \/parts\/\{\}: editPart in dashboard-mfe/);
  });
});
