/**
 * GitBook conformance: getSpacePDF (docs/pdf.md). Its answers judged against GitBook 0.202's
 * response schema: the whole space, a page and its descendants, a page alone.
 */
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';
import { spaceWithTree } from '../helpers/insights.js';

let t: TestContext;
let c: Conformance;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
});
after(async () => t.close());

describe('GitBook conformance: PDF export', () => {
  test('getSpacePDF of a space, a chapter and a page', async () => {
    const tree = await spaceWithTree(t, 'Printed');
    const url = `/v1/spaces/${tree.spaceId}/pdf`;
    await c.call('getSpacePDF', { method: 'GET', url }, { status: 200 });
    await c.call(
      'getSpacePDF',
      { method: 'GET', url: `${url}?page=${tree.intro}` },
      { status: 200 },
    );
    await c.call(
      'getSpacePDF',
      { method: 'GET', url: `${url}?page=${tree.intro}&only=true` },
      { status: 200 },
    );
    c.assertConforms();
    assertCoverage(c, 'pdf');
  });
});
