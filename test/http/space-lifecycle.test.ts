import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { Static } from 'typebox';
import type { SpaceSchema } from '../../src/modules/spaces/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { spaceWithTree } from '../helpers/insights.js';

/**
 * deleteSpaceById (into the trash), restoreSpace, duplicateSpace and moveSpace over HTTP
 * (docs/content.md, "Spaces: delete, restore, duplicate, move"). The purge after 7 days, across a
 * restart: test/http/space-purge.test.ts. Moves and the order they make: test/http/space-order.test.ts.
 */

type Space = Static<typeof SpaceSchema>;

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const post = (url: string, payload?: object): InjectOptions => ({
  method: 'POST',
  url,
  ...(payload === undefined ? {} : { payload }),
});

async function newSpace(title: string): Promise<string> {
  const res = await t.request(post(`/v1/orgs/${t.orgId}/spaces`, { title }));
  return expectStatus(res, 201).id as string;
}

async function auditActions(targetId: string): Promise<string[]> {
  const res = await t.request({ url: `/v1/orgs/${t.orgId}/audit-log?limit=1000` });
  const items = expectStatus(res, 200).items as { action: string; target: { id: string } }[];
  return items
    .filter((e) => e.target.id === targetId)
    .map((e) => e.action)
    .reverse();
}

async function otherOrganization() {
  const other = await t.services.identity.createOrganizationWithOwner({
    title: 'Other',
    ownerName: 'Other owner',
  });
  const space = await t.app.inject({
    ...post(`/v1/orgs/${other.organization.id}/spaces`, { title: 'Theirs' }),
    headers: { authorization: `Bearer ${other.token}` },
  });
  return { ...other, spaceId: expectStatus(space, 201).id as string };
}

describe('deleteSpaceById and restoreSpace', () => {
  test('a deleted space is absent from every read until restored, then back as it was', async () => {
    const s = await spaceWithTree(t, 'Trashed');
    const url = `/v1/spaces/${s.spaceId}`;
    const space = expectStatus(await t.request({ url }), 200);
    const content = expectStatus(await t.request({ url: `${url}/content` }), 200);

    const deleted = await t.request({ method: 'DELETE', url });
    assert.equal(deleted.statusCode, 205, deleted.body);
    for (const read of [
      url,
      `${url}/content`,
      `${url}/content/page/${s.intro}`,
      `${url}/revisions/${space.revision}`,
      `${url}/change-requests`,
      `${url}/git/info`,
    ]) {
      expectError(await t.request({ url: read }), 404);
    }
    // Writes too: the space is not there to change.
    expectError(await t.request({ method: 'PATCH', url, payload: { title: 'New' } }), 404);
    expectError(await t.request(post(`${url}/change-requests`, { subject: 'x' })), 404);
    expectError(await t.request(post(`${url}/duplicate`)), 404);
    expectError(await t.request(post(`${url}/move`, { parent: null })), 404);
    const listed = expectStatus(
      await t.request({ url: `/v1/orgs/${t.orgId}/spaces?limit=1000` }),
      200,
    ).items as { id: string }[];
    assert.ok(!listed.some((x) => x.id === s.spaceId), 'not listed');
    const mine = expectStatus(await t.request({ url: '/v1/users/me/spaces?limit=1000' }), 200)
      .items as { space: { id: string } }[];
    assert.ok(!mine.some((x) => x.space.id === s.spaceId), 'not among the user spaces');
    // No site can show it.
    const site = await t.request(
      post(`/v1/orgs/${t.orgId}/sites`, { title: 'Docs', spaces: [s.spaceId] }),
    );
    assert.ok(site.statusCode >= 400 && site.statusCode < 500, site.body);
    // Deleting it again: GitBook's "did not exist".
    assert.equal((await t.request({ method: 'DELETE', url })).statusCode, 204);

    const restored = await t.request(post(`${url}/restore`));
    assert.equal(restored.statusCode, 200, restored.body);
    assert.deepEqual(restored.json(), space);
    assert.deepEqual(expectStatus(await t.request({ url: `${url}/content` }), 200), content);
    assert.deepEqual(await auditActions(s.spaceId), ['space.deleted', 'space.restored']);
  });

  test('restore: never deleted 409, past 7 days or unknown 404, not an admin 403', async () => {
    const spaceId = await newSpace('Live');
    const url = `/v1/spaces/${spaceId}`;
    const live = expectError(await t.request(post(`${url}/restore`)), 409);
    assert.match(live, /not deleted/);
    expectError(await t.request(post('/v1/spaces/space_doesnotexist/restore')), 404);

    // Deleted 8 days ago (as the database says): past its 7 days, even before the sweep ran.
    assert.equal((await t.request({ method: 'DELETE', url })).statusCode, 205);
    await t.db
      .updateTable('spaces')
      .set({ deleted_at: new Date(Date.now() - 8 * DAY_MS).toISOString() })
      .where('id', '=', spaceId)
      .execute();
    expectError(await t.request(post(`${url}/restore`)), 404);

    // Another organization's deleted space: the same 404 as none.
    const other = await otherOrganization();
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/spaces/${other.spaceId}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expectError(await t.request(post(`/v1/spaces/${other.spaceId}/restore`)), 404);
  });

  test('a space a site shows is not deleted (409) and stays readable', async () => {
    const spaceId = await newSpace('Shown');
    expectStatus(
      await t.request(post(`/v1/orgs/${t.orgId}/sites`, { title: 'Shows', spaces: [spaceId] })),
      201,
    );
    expectError(await t.request({ method: 'DELETE', url: `/v1/spaces/${spaceId}` }), 409);
    expectStatus(await t.request({ url: `/v1/spaces/${spaceId}` }), 200);
    expectError(await t.request(post(`/v1/spaces/${spaceId}/restore`)), 409);
  });
});

describe('duplicateSpace', () => {
  test('201: a new space in the organization with the same pages; the original unchanged', async () => {
    const s = await spaceWithTree(t, 'Original');
    const url = `/v1/spaces/${s.spaceId}`;
    const before = expectStatus(await t.request({ url: `${url}/content` }), 200);
    const res = await t.request(post(`${url}/duplicate`));
    const copy = expectStatus(res, 201) as unknown as Space;
    assert.notEqual(copy.id, s.spaceId);
    assert.equal(copy.title, 'Original (copy)');
    assert.equal(copy.organization, t.orgId);
    assert.equal(res.headers.location, copy.urls.location);
    assert.equal(copy.object, 'space');
    const copied = expectStatus(await t.request({ url: `/v1/spaces/${copy.id}/content` }), 200);
    assert.equal(copied.id, copy.revision);
    // The same pages, ids and all; only their addresses name the new space.
    assert.deepEqual(
      JSON.parse(JSON.stringify(copied.pages).replaceAll(copy.id, s.spaceId)),
      before.pages,
    );
    assert.deepEqual(expectStatus(await t.request({ url: `${url}/content` }), 200), before);
    // The copy's history is its own: one revision.
    const page = expectStatus(
      await t.request({ url: `/v1/spaces/${copy.id}/content/page/${s.intro}` }),
      200,
    );
    assert.equal(page.title, 'Intro');
    assert.deepEqual(await auditActions(copy.id), ['space.duplicated']);
    // The copy lives its own life: deleting the original leaves it.
    assert.equal((await t.request({ method: 'DELETE', url })).statusCode, 205);
    expectStatus(await t.request({ url: `/v1/spaces/${copy.id}/content` }), 200);
  });

  test('a retry with the same Idempotency-Key makes one copy', async () => {
    const spaceId = await newSpace('Retried');
    const once = {
      ...post(`/v1/spaces/${spaceId}/duplicate`),
      headers: { 'idempotency-key': `dup-${spaceId}` },
    };
    const first = expectStatus(await t.request(once), 201);
    const replay = await t.request(once);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(expectStatus(replay, 201).id as string, first.id as string);
  });

  test('unknown, deleted or another organization’s space: 404', async () => {
    expectError(await t.request(post('/v1/spaces/space_doesnotexist/duplicate')), 404);
    const other = await otherOrganization();
    expectError(await t.request(post(`/v1/spaces/${other.spaceId}/duplicate`)), 404);
  });
});

describe('moveSpace', () => {
  test('a move that changes nothing is a 409; collections and other organizations are 400s', async () => {
    const spaceId = await newSpace('Moved');
    const sibling = await newSpace('Sibling');
    const url = `/v1/spaces/${spaceId}/move`;
    const expect400 = async (payload: object, field: RegExp) =>
      assert.match(expectError(await t.request(post(url, payload)), 400), field);

    await expect400({}, /body/);
    await expect400({ parent: 'collection_x' }, /^body\.parent: .*collections/);
    await expect400(
      { position: { before: { type: 'collection', collection: 'c1' } } },
      /^body\.position\.before\.collection: /,
    );
    await expect400(
      { position: { after: { type: 'space', space: spaceId } } },
      /^body\.position\.after\.space: .*itself/,
    );
    await expect400(
      {
        position: {
          before: { type: 'space', space: sibling },
          after: { type: 'space', space: sibling },
        },
      },
      /^body\.position: /,
    );
    const other = await otherOrganization();
    const across = expectError(
      await t.request(post(url, { position: { after: { type: 'space', space: other.spaceId } } })),
      400,
    );
    assert.match(across, /^body\.position\.after\.space: .*within its organization/);
    // The same answer for a space that does not exist: no id of another organization is confirmed.
    const none = expectError(
      await t.request(post(url, { position: { after: { type: 'space', space: 'nope' } } })),
      400,
    );
    assert.equal(none.replace('nope', other.spaceId), across);
    await expect400({ organization: other.organization.id }, /^body\.organization /);
    await expect400({ position: { after: { type: 'space' } } }, /body\.position\.after/);

    // Where the space already is (it was created first: it is before its sibling).
    for (const payload of [
      { parent: null },
      { position: { before: { type: 'space', space: sibling } } },
      { parent: null, position: {} },
    ]) {
      const message = expectError(await t.request(post(url, payload)), 409);
      assert.match(message, /would not result in any update/);
    }
    expectError(await t.request(post('/v1/spaces/space_doesnotexist/move', { parent: null })), 404);
  });
});
