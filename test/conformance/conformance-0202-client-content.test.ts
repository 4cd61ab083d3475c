/**
 * The official client of GitBook 0.202 drives a round trip of every in-scope space, page and
 * change-request operation against a listening Livery, asserting the values that come back, with
 * code typed against 0.202 (issue 14, part 5): `page.tags`, `page.layout`, `space.mergeRules`,
 * `changeRequest.space`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  CLIENT_ROUND_TRIPS,
  failure0202,
  type GitBook0202,
  recordingClient,
  SpaceEditMode,
  TranslationLanguage,
} from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;
let called: Set<string>;

before(async () => {
  t = await createTestApp();
  ({ api, called } = await recordingClient(t));
});
after(async () => t.close());

/** Every page of a tree, depth first. */
function flatten(pages: GitBook0202.RevisionPage[]): GitBook0202.RevisionPage[] {
  return pages.flatMap((page) => [page, ...('pages' in page ? flatten(page.pages) : [])]);
}

function documentPage(page: GitBook0202.RevisionPage): GitBook0202.RevisionPageDocument {
  assert.equal(page.type, 'document');
  return page;
}

describe('the official 0.202 client against Livery: spaces, change requests, pages', () => {
  test('spaces, change requests and pages', async () => {
    const created = await api.orgs.createSpace(t.orgId, { title: 'Handbook', emoji: '📘' });
    assert.equal(created.status, 201);
    const space = created.data;
    assert.equal(space.title, 'Handbook');
    assert.equal(space.emoji, '📘');
    assert.equal(space.permissions.admin, true);
    assert.deepEqual(space.mergeRules, { type: 'inherit' });
    assert.deepEqual((await api.spaces.getSpaceById(space.id)).data, space);
    const { data: spaces } = await api.orgs.listSpacesInOrganizationById(t.orgId);
    assert.ok(spaces.items.some((s) => s.id === space.id));

    const opened = await api.spaces.createChangeRequest(space.id, { subject: 'First pages' });
    assert.equal(opened.status, 201);
    const cr = opened.data;
    assert.equal(cr.subject, 'First pages');
    assert.equal(cr.space, space.id);
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Install',
          slug: 'install',
          document: { markdown: '# Install\n\nRun it.\n' },
        },
      ],
    });
    const { data: crPages } = await api.spaces.listPagesInChangeRequest(space.id, cr.id);
    const install = documentPage(flatten(crPages.pages)[0] ?? assert.fail('a page'));
    assert.equal(install.title, 'Install');
    const { data: byPath } = await api.spaces.getPageInChangeRequestByPath(
      space.id,
      cr.id,
      'install',
    );
    assert.equal(byPath.id, install.id);
    const { data: listed } = await api.spaces.listChangeRequestsForSpace(space.id);
    assert.deepEqual(
      listed.items.map((x) => [x.id, x.space]),
      [[cr.id, space.id]],
    );
    const { data: renamed } = await api.spaces.updateChangeRequestById(space.id, cr.id, {
      subject: 'First pages, reviewed',
    });
    assert.equal(renamed.subject, 'First pages, reviewed');
    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    assert.equal(merged.result, 'merge');
    const { data: after } = await api.spaces.getChangeRequestById(space.id, cr.id);
    assert.equal(after.status, 'merged');

    const { data: tree } = await api.spaces.listPages(space.id);
    const page = documentPage(flatten(tree.pages)[0] ?? assert.fail('a page'));
    assert.deepEqual(
      page.tags.map((tag) => tag.tag.tag),
      [],
    );
    // docs/api.md: Livery shows no tags and no heading anchors, and always the page menu.
    assert.deepEqual(
      [page.layout.tags, page.layout.anchors, page.layout.actions],
      [false, false, true],
    );
    const { data: read } = await api.spaces.getPageById(space.id, page.id, { format: 'markdown' });
    const body = documentPage(read);
    assert.match('markdown' in body ? body.markdown : '', /Run it\./);
    assert.deepEqual(body.tags, []);
    const { data: found } = await api.spaces.getPageByPath(space.id, 'install');
    assert.equal(found.id, page.id);
    const { data: old } = await api.spaces.listPagesInRevisionById(space.id, merged.revision);
    assert.deepEqual(
      flatten(old.pages).map((p) => p.id),
      [page.id],
    );
    const { data: inRevision } = await api.spaces.getPageInRevisionByPath(
      space.id,
      merged.revision,
      'install',
    );
    assert.equal(inRevision.id, page.id);
  });

  test("what 0.202 adds to a space's inputs: language, icon, and what Livery is accepted", async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, {
      title: 'Manuel',
      language: TranslationLanguage.Fr,
      empty: true,
    });
    assert.equal(space.language, 'fr');
    const { data: german } = await api.spaces.updateSpaceById(space.id, {
      language: TranslationLanguage.De,
      defaultLevel: 'inherit',
      mergeRules: { type: 'inherit' },
      editMode: SpaceEditMode.Live,
    });
    assert.equal(german.language, 'de');
    assert.equal(german.editMode, 'live');
    // An icon replaces the emoji; null removes both.
    const { data: iconed } = await api.spaces.updateSpaceById(space.id, {
      icon: 'https://example.com/manual.png',
    });
    assert.equal(
      (iconed as GitBook0202.Space & { icon?: string }).icon,
      'https://example.com/manual.png',
    );
    assert.equal(iconed.emoji, '');
    const { data: plain } = await api.spaces.updateSpaceById(space.id, { emoji: null, icon: null });
    assert.equal('icon' in plain, false);
    const locked = await failure0202(
      api.spaces.updateSpaceById(space.id, { editMode: SpaceEditMode.Locked }),
    );
    assert.equal(locked.code, 400);
    assert.match(locked.message, /body\.editMode: Livery has no locked spaces/);
    // GitBook's "Space did not exist": a second delete, and never a 404.
    assert.equal((await api.spaces.deleteSpaceById(space.id)).status, 205);
    assert.equal((await api.spaces.deleteSpaceById(space.id)).status, 204);
  });

  test('every in-scope space, page and change-request operation went through the 0.202 client', () => {
    assert.deepEqual(
      CLIENT_ROUND_TRIPS.content.filter((id) => !called.has(id)),
      [],
    );
  });
});
