import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { STUDIO_OUT, type StudioBuild } from '../../scripts/build-studio.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { SettingsSchema } from '../../src/settings/settings-schema.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { ensureStudioBuilt } from '../helpers/studio.js';

// Livery Studio's files (issue 18, items 1 and 9): served by Livery from dist/studio/, no CDN,
// a strict CSP, cached forever under content-hashed names, and a size budget.

/** The whole studio (.js, .css, .html), gzipped, must stay under this. */
const BUDGET_GZIP_BYTES = 60 * 1024;
/** Libraries that would make the studio a full SPA toolkit or drag the server's schema code in. */
const FORBIDDEN_INPUTS = ['node_modules/typebox', 'ajv', 'lodash', 'react'];

let t: TestContext;
before(async () => {
  // npm test builds the studio first; never rebuilt here, under another file's browser tests.
  await ensureStudioBuilt();
  t = await createTestApp();
});
after(async () => t.close());

/** The /studio/assets/… addresses the page names, by extension. */
function assetsOf(page: string): { script: string; style: string } {
  const script = /<script type="module" src="(\/studio\/assets\/[^"]+\.js)"/.exec(page)?.[1];
  const style = /<link rel="stylesheet" href="(\/studio\/assets\/[^"]+\.css)"/.exec(page)?.[1];
  assert.ok(script !== undefined && style !== undefined, page);
  return { script, style };
}

describe('the studio page and its files', () => {
  test('GET /studio: the page, with a CSP that allows only Livery and no framing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/studio' });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.equal(response.headers['cache-control'], 'no-cache');
    const csp = String(response.headers['content-security-policy']);
    assert.ok(csp.includes("frame-ancestors 'none'"), csp);
    assert.ok(csp.includes("default-src 'self'"), csp);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.doesNotMatch(response.body, /https?:\/\//, 'nothing from the internet');
  });

  test('the script and stylesheet it names: right types, cached for a year, immutable', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/studio' });
    const { script, style } = assetsOf(page.body);
    for (const [url, type] of [
      [script, /^text\/javascript/],
      [style, /^text\/css/],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), type, url);
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable', url);
      assert.ok(response.body.length > 0, url);
    }
  });

  test('an unknown file, another extension or a path out of assets/: 404 envelope', async () => {
    for (const url of [
      '/studio/assets/studio-NOPE.js',
      '/studio/assets/build.json',
      '/studio/assets/..%2Findex.html',
      '/studio/assets/..%2F..%2Fbuild.json',
      '/studio/assets/%2E%2E%2Fbuild.json',
      '/studio/assets/../build.json',
    ]) {
      expectError(await t.app.inject({ method: 'GET', url }), 404);
    }
  });

  test('/studio/schema.json: the schema that validates the API, its shape and defaults', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/studio/schema.json' });
    const body = expectStatus(response, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(body).sort(), [
      'defaults',
      'override',
      'settings',
      'shape',
      'siteOnly',
    ]);
    assert.deepEqual(body.settings, JSON.parse(JSON.stringify(SettingsSchema)));
    assert.deepEqual(body.defaults, JSON.parse(JSON.stringify(DEFAULT_SETTINGS)));
    assert.deepEqual(body.siteOnly, ['ai', 'advancedCustomization', 'insights']);
    const shape = body.shape as Record<string, unknown>;
    assert.equal(typeof shape.styling, 'object', 'styling is a group');
    assert.equal(typeof body.override, 'object');
  });
});

describe('the size budget (dist/studio/build.json)', () => {
  const report = (): StudioBuild =>
    JSON.parse(readFileSync(`${STUDIO_OUT}build.json`, 'utf8')) as StudioBuild;

  test(`.js + .css + .html under ${BUDGET_GZIP_BYTES / 1024} KB gzip`, () => {
    const files = Object.entries(report().files).filter(([name]) => /\.(js|css|html)$/.test(name));
    assert.ok(files.some(([name]) => name.endsWith('.js')));
    assert.ok(files.some(([name]) => name === 'index.html'));
    const total = files.reduce((sum, [, size]) => sum + size.gzip, 0);
    assert.ok(total < BUDGET_GZIP_BYTES, `${total} bytes gzip: ${JSON.stringify(files)}`);
  });

  test('no heavy or server-side library is bundled (preact is fine)', () => {
    const { inputs } = report();
    assert.ok(inputs.some((input) => input.startsWith('studio/')));
    for (const input of inputs) {
      for (const forbidden of FORBIDDEN_INPUTS) {
        const name = forbidden.includes('/') ? forbidden : `node_modules/${forbidden}`;
        assert.equal(input.includes(name), false, `${input} is bundled`);
      }
    }
  });
});
