/**
 * GitBook conformance: searching a space or an organization (docs/search.md, "Searching a space
 * or an organization"). Every answer of searchSpaceContent and searchOrganizationContent judged
 * against GitBook's response schemas (0.202 and 0.130), first pages, later pages and empty
 * results.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';
import { newSpace, publishChanges } from '../helpers/insights.js';

let t: TestContext;
let c: Conformance;
let spaceId: string;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
  spaceId = await newSpace(t, 'Handbook');
  await publishChanges(t, spaceId, [
    {
      operation: 'insert_page',
      title: 'Install',
      document: { markdown: 'Install it.\n\n## Upgrade\n\nInstall again.' },
    },
    { operation: 'insert_page', title: 'Guides', type: 'group' },
    { operation: 'insert_page', title: 'Usage', document: { markdown: 'After the install.' } },
  ]);
  const other = await newSpace(t, 'Recipes');
  await publishChanges(t, other, [
    { operation: 'insert_page', title: 'Soup', document: { markdown: 'Install the pot.' } },
  ]);
});
after(async () => t.close());

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

describe('GitBook conformance: space and organization search', () => {
  for (const [operationId, base] of [
    ['searchSpaceContent', () => `/v1/spaces/${spaceId}/search`],
    ['searchOrganizationContent', () => `/v1/orgs/${t.orgId}/search`],
  ] as const) {
    test(`${operationId}: matches, a title-only match, nothing, and a later page`, async () => {
      for (const query of ['install', 'inst', 'upgrade', 'usage', 'nothing%20matches']) {
        await c.call(
          operationId,
          { method: 'GET', url: `${base()}?query=${query}` },
          { status: 200 },
        );
      }
      const first = await c.call(
        operationId,
        { method: 'GET', url: `${base()}?query=install&limit=1` },
        { status: 200 },
      );
      const next = (json(first.body).next as { page: string } | undefined)?.page;
      c.check(() => assert.equal(typeof next, 'string'));
      await c.call(
        operationId,
        { method: 'GET', url: `${base()}?query=install&limit=1&page=${next}` },
        { status: 200 },
      );
      c.assertConforms();
    });
  }

  test('judged exactly its operations, every declared status', () => {
    console.log(c.report('space and organization search'));
    assertCoverage(c, 'search');
  });
});
