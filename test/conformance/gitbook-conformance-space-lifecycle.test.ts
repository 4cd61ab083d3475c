/**
 * GitBook conformance: the life of a space (docs/content.md, "Spaces: delete, restore, duplicate,
 * move"). Every answer of restoreSpace, duplicateSpace and moveSpace judged against GitBook
 * 0.130's and 0.202's response schemas, every body sent valid under its request
 * schema where the request is meant to be valid. Statuses a spec does not declare are not judged.
 */
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
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

describe('GitBook conformance: space lifecycle', () => {
  test('duplicate, delete, restore, move: every status the specs declare', async () => {
    const s = await spaceWithTree(t, 'Lifecycle');
    const url = `/v1/spaces/${s.spaceId}`;
    const copy = await c.call(
      'duplicateSpace',
      { method: 'POST', url: `${url}/duplicate` },
      { status: 201 },
    );
    const copyId = (JSON.parse(copy.body) as { id: string }).id;

    expectStatus(await t.request({ method: 'DELETE', url: `/v1/spaces/${copyId}` }), 205);
    await c.call(
      'restoreSpace',
      { method: 'POST', url: `/v1/spaces/${copyId}/restore` },
      { status: 200 },
    );
    // Neither spec declares an error of restoreSpace or duplicateSpace: their 404s and 409s (GitBook's
    // error envelope, as every error) are tested in test/http/space-lifecycle.test.ts.

    await c.call(
      'moveSpace',
      { method: 'POST', url: `${url}/move`, payload: { parent: null } },
      { status: 409 },
    );
    const after = {
      method: 'POST' as const,
      url: `${url}/move`,
      payload: { position: { after: { type: 'space', space: copyId } } },
    };
    // The copy came last: the space goes after it, and a second time changes nothing.
    await c.call('moveSpace', after, { status: 200 });
    await c.call('moveSpace', after, { status: 409 });
    await c.call(
      'moveSpace',
      { method: 'POST', url: `${url}/move`, payload: { parent: 'collection_x' } },
      { status: 400 },
    );
    await c.call(
      'moveSpace',
      { method: 'POST', url: '/v1/spaces/space_doesnotexist/move', payload: { parent: null } },
      { status: 404 },
    );
    c.assertConforms();
    assertCoverage(c, 'space-lifecycle');
  });
});
