/**
 * GitBook 0.202's fields of change requests, revisions and pages over HTTP (docs/api.md,
 * "Records: GitBook 0.202's fields"): the change request's space, and the tags and layout
 * options as Livery's pages have them (no tags, no covers, no outline, no metadata, the page
 * menu, no visible anchors).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import {
  applyChanges,
  client0202,
  crUrl,
  doc,
  flatten,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
  type PageBody,
  spaceUrl,
} from '../helpers/content.js';
import { listenWithClient } from '../helpers/gitbook.js';

let t: TestContext;
let spaceId: string;
let crId: string;
let revisionId: string;
before(async () => {
  t = await createTestApp();
  spaceId = (await newSpace(t, 'Guides')).id;
  const cr = await openChangeRequest(t, spaceId, 'Pages');
  crId = cr.id;
  await applyChanges(t, spaceId, cr.id, [
    { operation: 'insert_page', ...doc('Start') },
    { operation: 'insert_page', title: 'Reference', type: 'group' },
    {
      operation: 'insert_page',
      title: 'Elsewhere',
      type: 'link',
      target: { kind: 'url', url: 'https://example.com' },
    },
  ]);
  const [start, group] = await pagesOf(`${crUrl(spaceId, cr.id)}/content`);
  await applyChanges(t, spaceId, cr.id, [
    { operation: 'insert_page', into: start?.id, ...doc('Install') },
    { operation: 'insert_page', into: group?.id, ...doc('API') },
  ]);
  revisionId = (await mergeChangeRequest(t, spaceId, cr.id)).revision;
});
after(async () => t.close());

type Json = Record<string, unknown>;
const get = async (url: string) => expectStatus(await t.request({ method: 'GET', url }), 200);
const pagesOf = async (base: string) => (await get(`${base}/pages`)).pages as PageBody[];

/** What Livery's published pages show: no cover, no outline, no metadata, no tags, no anchors. */
const LAYOUT = {
  width: 'default',
  cover: false,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: false,
  pagination: true,
  metadata: false,
  tags: false,
  actions: true,
  anchors: false,
};

/** Documents carry no tags and the one layout; groups and links carry neither. */
function assertRecordFields(page: Json & { type?: unknown; title?: unknown }) {
  if (page.type === 'document') {
    assert.deepEqual(page.tags, [], String(page.title));
    assert.deepEqual(page.layout, LAYOUT, String(page.title));
  } else {
    assert.equal('tags' in page, false, String(page.title));
    assert.equal('layout' in page, false, String(page.title));
  }
}

describe('ChangeRequest.space', () => {
  test('names the space in every form of the change request', async () => {
    const created = expectStatus(
      await t.request({ method: 'POST', url: `${spaceUrl(spaceId)}/change-requests`, payload: {} }),
      201,
    );
    assert.equal(created.space, spaceId);
    const url = crUrl(spaceId, String(created.id));
    assert.equal((await get(url)).space, spaceId);
    const patched = expectStatus(
      await t.request({ method: 'PATCH', url, payload: { subject: 'Renamed' } }),
      200,
    );
    assert.equal(patched.space, spaceId);
    const edited = await applyChanges(t, spaceId, String(created.id), [
      { operation: 'insert_page', ...doc('More') },
    ]);
    assert.equal(edited.space, spaceId);
    const listed = (await get(`${spaceUrl(spaceId)}/change-requests`)).items as Json[];
    assert.ok(listed.length > 0);
    for (const item of listed) assert.equal(item.space, spaceId);
    const merged = (await get(`${spaceUrl(spaceId)}/revisions/${revisionId}`)).mergedFrom as Json;
    assert.equal(merged.id, crId);
    assert.equal(merged.space, spaceId);
  });
});

describe('Revision.tags and the pages of every read', () => {
  const sources = () => [
    `${spaceUrl(spaceId)}/content`,
    `${spaceUrl(spaceId)}/revisions/${revisionId}`,
    `${crUrl(spaceId, crId)}/content`,
  ];

  test('revisions have no tags; every page in their trees has the record fields of its type', async () => {
    for (const source of sources()) {
      const revision = await get(source);
      assert.deepEqual(revision.tags, [], source);
      const tree = flatten(revision.pages as PageBody[]);
      assert.deepEqual(
        tree.map((page) => page.type),
        ['document', 'document', 'group', 'document', 'link'],
        source,
      );
      for (const page of tree) assertRecordFields(page);
      for (const page of flatten(await pagesOf(source))) assertRecordFields(page);
    }
  });

  test('a page read by id or by path has them too', async () => {
    for (const source of sources()) {
      for (const page of flatten(await pagesOf(source))) {
        assertRecordFields(await get(`${source}/page/${page.id}`));
        if (page.path !== undefined) {
          const byPath = await get(`${source}/path/${encodeURIComponent(page.path)}`);
          assert.equal(byPath.id, page.id);
          assertRecordFields(byPath);
        }
      }
    }
  });

  test("GitBook 0.202's client maps a document's tags", async () => {
    const { endpoint } = await listenWithClient(t);
    const api = client0202(t, endpoint);
    const [start] = await pagesOf(`${spaceUrl(spaceId)}/content`);
    const { data: page } = await api.spaces.getPageById(spaceId, String(start?.id));
    assert.equal(page.type, 'document');
    if (page.type !== 'document') return;
    assert.deepEqual(
      page.tags.map((tag) => tag.tag.tag),
      [],
    );
    assert.equal(page.layout.coverMask, 'none');
    const { data: revision } = await api.spaces.getCurrentRevision(spaceId);
    assert.deepEqual(revision.tags, []);
  });
});
