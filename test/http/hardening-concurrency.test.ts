import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';

// Issue 16, D4 and D5: races between writes that each read a site's or space's rows and decide
// from them (the next change-request number; which variant becomes the default). On PostgreSQL
// (READ COMMITTED, a pool of connections) they reproduced without row locks; SQLite serializes
// writers and must answer the same. No timing: every race is started at once and its end state
// checked, over several rounds.

const ROUNDS = 10;

describe(`hardening: racing writes keep their invariants (${BACKEND})`, () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  });
  after(async () => t.close());

  const newSpace = async () =>
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/spaces`,
        payload: { title: 'Docs' },
      }),
      201,
    ).id as string;

  test('D4: 20 change requests created at once: all 201, numbered 1…20 without gap or repeat', async () => {
    for (let round = 0; round < 3; round++) {
      const spaceId = await newSpace();
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.request({
            method: 'POST',
            url: `/v1/spaces/${spaceId}/change-requests`,
            payload: { subject: `Change ${i}` },
          }),
        ),
      );
      const statuses = replies.map((reply) => reply.statusCode);
      assert.deepEqual(
        statuses,
        statuses.map(() => 201),
        replies.find((r) => r.statusCode !== 201)?.body,
      );
      const numbers = replies.map((reply) => (reply.json() as { number: number }).number);
      assert.deepEqual(
        numbers.sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    }
  });

  const defaults = async (base: string) => {
    const list = expectStatus(
      await t.request({ method: 'GET', url: `${base}/site-spaces?limit=100` }),
      200,
    ) as { items: { id: string; default: boolean; urls: { published?: string } }[] };
    return list.items;
  };

  test('D5: deleting the default variant and the next one at once leaves exactly one default', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const site = await createSite(t, 3);
      expectStatus(await t.request({ method: 'POST', url: `${site.base}/publish` }), 200);
      const [first, second, third] = site.siteSpaceIds;
      const replies = await Promise.all(
        [first, second].map((id) =>
          t.request({ method: 'DELETE', url: `${site.base}/site-spaces/${id}` }),
        ),
      );
      assert.deepEqual(
        replies.map((reply) => reply.statusCode),
        [205, 205],
      );
      const left = await defaults(site.base);
      assert.deepEqual(
        left.map((row) => [row.id, row.default]),
        [[third, true]],
        `round ${round}`,
      );
      // The site publishes its default variant at its root.
      assert.ok(left[0]?.urls.published !== undefined, `round ${round}: no published URL`);
    }
  });

  test('D5: adding a variant while the only one is deleted leaves the new one the default', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const site = await createSite(t, 1);
      const spaceId = await newSpace();
      const [added, deleted] = await Promise.all([
        t.request({ method: 'POST', url: `${site.base}/site-spaces`, payload: { spaceId } }),
        t.request({ method: 'DELETE', url: `${site.base}/site-spaces/${site.siteSpaceIds[0]}` }),
      ]);
      const addedId = expectStatus(added, 201).id as string;
      assert.equal(deleted.statusCode, 205);
      assert.deepEqual(
        (await defaults(site.base)).map((row) => [row.id, row.default]),
        [[addedId, true]],
        `round ${round}`,
      );
    }
  });

  test('D5: variants deleted all at once, and then added all at once: one default throughout', async () => {
    for (let round = 0; round < 3; round++) {
      const site = await createSite(t, 4);
      const deletes = await Promise.all(
        site.siteSpaceIds
          .slice(0, 3)
          .map((id) => t.request({ method: 'DELETE', url: `${site.base}/site-spaces/${id}` })),
      );
      assert.deepEqual(
        deletes.map((reply) => reply.statusCode),
        [205, 205, 205],
      );
      assert.deepEqual(
        (await defaults(site.base)).map((row) => [row.id, row.default]),
        [[site.siteSpaceIds[3], true]],
      );
      const spaces = [await newSpace(), await newSpace(), await newSpace()];
      const adds = await Promise.all(
        spaces.map((spaceId) =>
          t.request({ method: 'POST', url: `${site.base}/site-spaces`, payload: { spaceId } }),
        ),
      );
      for (const reply of adds) expectStatus(reply, 201);
      const all = await defaults(site.base);
      assert.equal(all.length, 4);
      assert.deepEqual(
        all.filter((row) => row.default).map((row) => row.id),
        [site.siteSpaceIds[3]],
      );
    }
  });

  test('a space deleted while it is added to a site, or a variant moved to it: 400 or 409, never a 5xx', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const site = await createSite(t, 1);
      const [toAdd, toMove] = [await newSpace(), await newSpace()];
      const [added, deletedAdded, moved, deletedMoved] = await Promise.all([
        t.request({ method: 'POST', url: `${site.base}/site-spaces`, payload: { spaceId: toAdd } }),
        t.request({ method: 'DELETE', url: `/v1/spaces/${toAdd}` }),
        t.request({
          method: 'PATCH',
          url: `${site.base}/site-spaces/${site.siteSpaceIds[0]}`,
          payload: { spaceId: toMove },
        }),
        t.request({ method: 'DELETE', url: `/v1/spaces/${toMove}` }),
      ]);
      // Either the variant got the space first (the delete then refuses: a site shows it), or
      // the delete went first (the space is unknown to the add or the move).
      for (const [change, deleted] of [
        [added, deletedAdded],
        [moved, deletedMoved],
      ] as const) {
        const pair = `round ${round}: ${change.statusCode} ${change.body} / ${deleted.statusCode} ${deleted.body}`;
        if (deleted.statusCode === 205) {
          assert.equal(change.statusCode, 400, pair);
          assert.match(expectError(change, 400), /body\.spaceId: no space/, pair);
        } else {
          assert.ok(change.statusCode === 200 || change.statusCode === 201, pair);
          assert.match(expectError(deleted, 409), /is shown by site/, pair);
        }
      }
    }
  });
});
