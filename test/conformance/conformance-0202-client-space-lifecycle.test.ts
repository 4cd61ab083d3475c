/**
 * The official client of GitBook 0.202 (`gitbook-api-0202`) drives the life of a space against a
 * listening Livery (issue 30 §7), with code typed against 0.202: duplicateSpace, deleteSpaceById
 * into the trash, restoreSpace, and moveSpace's answers (docs/content.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

describe('the official 0.202 client against Livery: space lifecycle', () => {
  test('duplicate a space, delete the copy, restore it; moves and their refusals', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Handbook', emoji: '📘' });
    const opened = await api.spaces.createChangeRequest(space.id, { subject: 'A page' });
    await api.spaces.updateChangeRequestContent(space.id, opened.data.id, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Install',
          slug: 'install',
          document: { markdown: '# Install\n\nRun it.\n' },
        },
      ],
    });
    await api.spaces.mergeChangeRequest(space.id, opened.data.id);

    const duplicated = await api.spaces.duplicateSpace(space.id);
    assert.equal(duplicated.status, 201);
    const copy = duplicated.data;
    assert.notEqual(copy.id, space.id);
    assert.equal(copy.title, 'Handbook (copy)');
    assert.equal(copy.emoji, '📘');
    assert.equal(copy.organization, t.orgId);
    assert.equal(duplicated.headers.get('location'), copy.urls.location);
    const { data: page } = await api.spaces.getPageByPath(copy.id, 'install');
    assert.equal(page.title, 'Install');

    assert.equal((await api.spaces.deleteSpaceById(copy.id)).status, 205);
    const gone = await failure0202(api.spaces.getSpaceById(copy.id));
    assert.equal(gone.code, 404);
    const restored = await api.spaces.restoreSpace(copy.id);
    assert.equal(restored.status, 200);
    assert.equal(restored.data.id, copy.id);
    assert.equal(restored.data.revision, copy.revision);
    assert.equal((await api.spaces.getPageByPath(copy.id, 'install')).data.title, 'Install');
    const again = await failure0202(api.spaces.restoreSpace(copy.id));
    assert.equal(again.code, 409);
    assert.match(again.message, /not deleted/);
    const unknown = await failure0202(api.spaces.restoreSpace('space_doesnotexist'));
    assert.equal(unknown.code, 404);

    // The copy came last: the space goes after it, as the organization's list then shows.
    const after = { position: { after: { type: 'space' as const, space: copy.id } } };
    const moved = await api.spaces.moveSpace(space.id, after);
    assert.equal(moved.status, 200);
    assert.equal(moved.data.id, space.id);
    assert.equal(moved.data.title, 'Handbook');
    const { data: listed } = await api.orgs.listSpacesInOrganizationById(t.orgId);
    assert.deepEqual(
      listed.items.map((item) => item.id),
      [copy.id, space.id],
    );
    const unchanged = await failure0202(api.spaces.moveSpace(space.id, after));
    assert.equal(unchanged.code, 409);
    assert.match(unchanged.message, /would not result in any update/);
    const intoCollection = await failure0202(
      api.spaces.moveSpace(space.id, { parent: 'collection_x' }),
    );
    assert.equal(intoCollection.code, 400);
    assert.match(intoCollection.message, /: body\.parent: Livery has no collections/);
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Elsewhere',
      ownerName: 'Someone',
    });
    const theirs = await t.services.spaces.create(other.organization.id, 'admin', {
      title: 'Theirs',
    });
    const across = await failure0202(
      api.spaces.moveSpace(space.id, { position: { before: { type: 'space', space: theirs.id } } }),
    );
    assert.equal(across.code, 400);
    assert.match(across.message, /: body\.position\.before\.space: .*within its organization/);
  });
});
