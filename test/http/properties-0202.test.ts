import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  createSite,
  createTestApp,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import { arbitraryFor } from '../helpers/arbitrary.js';

/**
 * Settings bodies generated from GitBook 0.202's own `SiteCustomizationSettingsInput` (the spec
 * inside the installed 0.202 client) are accepted by PUT and read back equal, modulo the canonical
 * form docs/customization.md documents. The generator follows GitBook's schema, except where
 * Livery is deliberately stricter (LIVERY_BOUNDS, listed in docs/customization.md too).
 */

type Schema = Record<string, unknown>;

const spec = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve('gitbook-api-0202/spec/openapi.json'),
    'utf8',
  ),
) as { components: { schemas: Record<string, Schema> } };

/**
 * Where Livery refuses what GitBook's schema allows, by schema name → what is generated instead:
 * link targets of kind `url` must be absolute http(s) or mailto: URLs (a `javascript:` URL would
 * run in a visitor's browser); `URL`s must be absolute http(s) (not `ftp:`, `data:`, …).
 * Lengths and counts stay within Livery's bounds because the generator keeps strings under 25
 * characters and arrays under 4 items.
 */
const LIVERY_BOUNDS: Record<string, Schema> = {
  ContentRefURL: {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: ['url'] },
      url: { type: 'string', pattern: '^(?:[hH][tT][tT][pP][sS]?://|[mM][aA][iI][lL][tT][oO]:)' },
    },
    required: ['kind', 'url'],
  },
  URL: { type: 'string', pattern: '^[hH][tT][tT][pP][sS]?://' },
};

/** GitBook's schema with every `$ref` inlined (a single-schema `allOf` is merged too). */
function inline(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inline);
  if (node === null || typeof node !== 'object') return node;
  const { $ref, allOf, properties, ...rest } = node as Schema;
  let result: Schema = {};
  if (typeof $ref === 'string') {
    const name = $ref.replace('#/components/schemas/', '');
    const target = LIVERY_BOUNDS[name] ?? spec.components.schemas[name];
    assert.ok(target, `${$ref} is defined`);
    result = inline(target) as Schema;
  }
  if (Array.isArray(allOf) && allOf.length === 1) {
    result = { ...result, ...(inline(allOf[0]) as Schema) };
  }
  if (properties !== undefined) {
    const entries = Object.entries(properties as Schema).map(([name, p]) => [name, inline(p)]);
    result.properties = Object.fromEntries(entries);
  }
  for (const [keyword, value] of Object.entries(rest)) {
    if (!ANNOTATIONS.has(keyword)) result[keyword] = inline(value);
  }
  return result;
}
const ANNOTATIONS = new Set(['description', 'default', 'deprecated', 'example']);

const input = inline(spec.components.schemas.SiteCustomizationSettingsInput) as Schema;
const bodies = arbitraryFor(input) as fc.Arbitrary<Record<string, unknown>>;

/**
 * The documented canonical form, restated here as the test's own oracle: `pageActions.items`
 * without duplicates with the 0.130 booleans derived from it; no empty header-item `condition`;
 * `headingFont: null` is no heading font.
 */
function canonicalForm(body: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body) as Record<string, unknown> & {
    pageActions: { items: string[]; externalAI?: boolean; markdown?: boolean };
    header: { links: Record<string, unknown>[] };
    styling: { headingFont?: unknown };
  };
  const items = [...new Set(copy.pageActions.items)];
  copy.pageActions = {
    items,
    externalAI: items.includes('external-ai'),
    markdown: items.includes('markdown'),
  };
  for (const item of copy.header.links) {
    if (item.condition === '') delete item.condition;
  }
  if (copy.styling.headingFont === null) delete copy.styling.headingFont;
  return copy;
}

/** Every field of `expected` is in `actual` with that value (objects recursively). */
function assertContains(actual: unknown, expected: unknown, path = 'settings'): void {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.ok(actual !== null && typeof actual === 'object', `${path} is an object`);
    for (const [key, value] of Object.entries(expected)) {
      assertContains((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    }
  } else {
    assert.deepEqual(actual, expected, path);
  }
}

describe('settings generated from GitBook 0.202’s input schema', () => {
  let t: TestContext;
  let site: SiteFixture;
  before(async () => {
    t = await createTestApp();
    site = await createSite(t, 1);
  });
  after(async () => t.close());

  test('are accepted by PUT and read back equal, modulo the canonical form', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const put = await t.request({
          method: 'PUT',
          url: `${site.base}/customization`,
          payload: body,
        });
        const stored = expectStatus(put, 200);
        assertContains(stored, canonicalForm(body));
        const get = await t.request({ method: 'GET', url: `${site.base}/customization` });
        assert.deepEqual(expectStatus(get, 200), stored);
      }),
      { numRuns: 80 },
    );
  });
});
