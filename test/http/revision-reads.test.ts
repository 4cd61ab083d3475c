/**
 * GitBook 0.202's reads of a space by its other ids (issue 30, item 8): what a revision changed
 * (getRevisionSemanticChanges), a document by its id (getDocumentById) and a page's meta links in
 * the space's current revision (listSpacePageMetaLinks); good and bad inputs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import {
  applyChanges,
  doc,
  flatten,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
  type PageBody,
  spacePages,
  spaceUrl,
} from '../helpers/content.js';
import { importAndWait } from '../helpers/git-import.js';
import { TestRepo } from '../helpers/git-repo.js';

let t: TestContext;
let spaceId: string;
let initial: string;
let first: string;
let second: string;
let firstCr: string;
let ids: Record<string, string>;

const get = (url: string) => t.request({ method: 'GET', url });
const changesOf = async (revision: string, query = '') =>
  expectStatus(await get(`${spaceUrl(spaceId)}/revisions/${revision}/changes${query}`), 200) as {
    changes: Record<string, unknown>[];
    more?: number;
    mergedFrom?: { id: string };
  };
/** `type id` of each change. */
const kinds = (changes: Record<string, unknown>[]) =>
  changes.map((c) => `${c.type} ${(c.page as { id: string }).id}`);

before(async () => {
  t = await createTestApp();
  ({ id: spaceId, revision: initial } = await newSpace(t, 'Manual'));
  const cr = await openChangeRequest(t, spaceId, 'First pages');
  firstCr = cr.id;
  await applyChanges(t, spaceId, cr.id, [
    { operation: 'insert_page', type: 'group', title: 'Guides', slug: 'guides' },
    { operation: 'insert_page', ...doc('FAQ', { slug: 'faq' }) },
    {
      operation: 'insert_page',
      type: 'link',
      title: 'Website',
      target: { kind: 'url', url: 'https://example.com/' },
    },
  ]);
  const guides = (await spacePagesOfCr(cr.id)).find((p) => p.title === 'Guides');
  await applyChanges(t, spaceId, cr.id, [
    { operation: 'insert_page', ...doc('Install', { slug: 'install', into: guides?.id }) },
  ]);
  first = (await mergeChangeRequest(t, spaceId, cr.id)).revision;
  ids = Object.fromEntries(flatten(await spacePages(t, spaceId)).map((p) => [p.title, p.id]));
  const next = await openChangeRequest(t, spaceId, 'Reorganize');
  await applyChanges(t, spaceId, next.id, [
    { operation: 'update_page', page: ids.Install, title: 'Installing', slug: 'installing' },
    { operation: 'update_page', page: ids.FAQ, into: ids.Guides },
    { operation: 'update_page', page: ids.FAQ, document: { markdown: '# FAQ\n\nNew answers.\n' } },
    { operation: 'delete_page', page: ids.Website },
  ]);
  second = (await mergeChangeRequest(t, spaceId, next.id)).revision;
});
after(async () => t.close());

async function spacePagesOfCr(cr: string): Promise<PageBody[]> {
  const body = expectStatus(
    await get(`${spaceUrl(spaceId)}/change-requests/${cr}/content/pages`),
    200,
  );
  return flatten(body.pages as PageBody[]);
}

describe('getRevisionSemanticChanges', () => {
  test("a space's first revision, empty: no change, no parent needed", async () => {
    assert.deepEqual(await changesOf(initial), { changes: [] });
  });

  test('a merge: every page it created, and the change request it merged', async () => {
    const body = await changesOf(first);
    assert.deepEqual(kinds(body.changes), [
      `page_created ${ids.Guides}`,
      `page_created ${ids.Install}`,
      `page_created ${ids.FAQ}`,
      `page_created ${ids.Website}`,
    ]);
    assert.deepEqual(body.changes[1], {
      type: 'page_created',
      page: { id: ids.Install, type: 'document', title: 'Install', path: 'guides/install' },
    });
    assert.deepEqual(body.changes[3], {
      type: 'page_created',
      page: { id: ids.Website, type: 'link', title: 'Website' },
    });
    assert.equal(body.mergedFrom?.id, firstCr);
    assert.equal(body.more, undefined);
  });

  test('a rename is an edit, a move a move (with the edit of its body), a deletion a deletion', async () => {
    const body = await changesOf(second);
    assert.deepEqual(body.changes, [
      {
        type: 'page_edited',
        page: { id: ids.Install, type: 'document', title: 'Installing', path: 'guides/installing' },
        attributes: {
          title: { before: 'Install', after: 'Installing' },
          slug: { before: 'install', after: 'installing' },
        },
      },
      {
        type: 'page_moved',
        page: { id: ids.FAQ, type: 'document', title: 'FAQ', path: 'guides/faq' },
        parent: { after: { id: ids.Guides, type: 'group', title: 'Guides', path: 'guides' } },
      },
      {
        type: 'page_edited',
        page: { id: ids.FAQ, type: 'document', title: 'FAQ', path: 'guides/faq' },
        attributes: { document: { before: ids.FAQ, after: ids.FAQ } },
      },
      { type: 'page_deleted', page: { id: ids.Website, type: 'link', title: 'Website' } },
    ]);
  });

  test('`limit` keeps the first changes and `more` counts the others (10 by default)', async () => {
    const limited = await changesOf(second, '?limit=1&metadata=false&computed=true');
    assert.deepEqual(kinds(limited.changes), [`page_edited ${ids.Install}`]);
    assert.equal(limited.more, 3);
    assert.equal((await changesOf(second, '?limit=4')).more, undefined);
  });

  test('bad inputs: a 400 naming the parameter; unknown space or revision: 404', async () => {
    for (const limit of ['0', '1001', '2.5', 'many', '']) {
      const message = expectError(
        await get(`${spaceUrl(spaceId)}/revisions/${second}/changes?limit=${limit}`),
        400,
      );
      assert.match(message, /^querystring\.limit /, limit);
    }
    assert.match(
      expectError(
        await get(`${spaceUrl(spaceId)}/revisions/${second}/changes?metadata=maybe`),
        400,
      ),
      /^querystring\.metadata /,
    );
    assert.match(
      expectError(await get(`${spaceUrl(spaceId)}/revisions/nope/changes`), 404),
      /"nope"/,
    );
    expectError(await get(`${spaceUrl('nospace')}/revisions/${second}/changes`), 404);
    // A revision of another space is not this space's.
    const other = await newSpace(t, 'Other');
    expectError(await get(`${spaceUrl(other.id)}/revisions/${second}/changes`), 404);
  });
});

describe('getDocumentById', () => {
  test("a document page's documentId names its body in the current revision", async () => {
    const page = expectStatus(await get(`${spaceUrl(spaceId)}/content/page/${ids.FAQ}`), 200);
    assert.equal(page.documentId, ids.FAQ);
    const byId = await get(`${spaceUrl(spaceId)}/documents/${page.documentId}?schema=current`);
    const inRevision = await get(
      `${spaceUrl(spaceId)}/revisions/${second}/page/${ids.FAQ}/document`,
    );
    assert.equal(byId.statusCode, 200, byId.body);
    assert.equal(byId.body, inRevision.body);
    assert.match(byId.body, /New answers\./);
  });

  test('a group, a link, a deleted page or an unknown id: 404 naming it; a bad schema: 400', async () => {
    for (const id of [ids.Guides, ids.Website, 'unknown']) {
      assert.match(
        expectError(await get(`${spaceUrl(spaceId)}/documents/${id}`), 404),
        new RegExp(`No document found with id "${id}"`),
      );
    }
    assert.match(
      expectError(await get(`${spaceUrl(spaceId)}/documents/${ids.FAQ}?schema=old`), 400),
      /^querystring\.schema /,
    );
    expectError(await get(`${spaceUrl('nospace')}/documents/${ids.FAQ}`), 404);
  });
});

describe('listSpacePageMetaLinks', () => {
  test("the page in the space's current revision: no canonical, no alternates for a member", async () => {
    assert.deepEqual(
      expectStatus(await get(`${spaceUrl(spaceId)}/content/page/${ids.Install}/meta-links`), 200),
      { alternates: [] },
    );
    // Website is in the first revision only: its revision form answers, the space's does not.
    expectStatus(
      await get(`${spaceUrl(spaceId)}/revisions/${first}/page/${ids.Website}/meta-links`),
      200,
    );
    assert.match(
      expectError(await get(`${spaceUrl(spaceId)}/content/page/${ids.Website}/meta-links`), 404),
      /No page found/,
    );
    expectError(await get(`${spaceUrl('nospace')}/content/page/${ids.Install}/meta-links`), 404);
  });
});

describe('files and reusable contents, imported from Git', () => {
  const repo = new TestRepo();
  let g: TestContext;
  before(async () => {
    g = await createTestApp({ GIT_LOCAL_DIRS: repo.root, GIT_CACHE_DIR: `${repo.root}/.cache` });
  });
  after(async () => {
    await g.close();
    repo.dispose();
  });

  test('changes of files and reusable contents; a reusable content read as a document', async () => {
    const importCommit = async (spaceOf: string, files: Record<string, string | null>) => {
      repo.commit(files);
      const state = await importAndWait(g, spaceOf, {
        url: `file://${repo.dir}`,
        ref: 'refs/heads/main',
      });
      assert.equal(state.operation.state, 'success', JSON.stringify(state));
      const revision = expectStatus(await g.request({ url: `/v1/spaces/${spaceOf}/content` }), 200);
      return revision as { id: string; reusableContents: { id: string; document: string }[] };
    };
    const space = (await newSpace(g, 'Imported')).id;
    await importCommit(space, {
      'README.md': '# Welcome\n\n{% include ".gitbook/includes/note.md" %}\n',
      '.gitbook/includes/note.md': '---\ntitle: Note\n---\n\nA reusable note.\n',
      '.gitbook/includes/old.md': '---\ntitle: Old\n---\n\nOld.\n',
      '.gitbook/assets/a.txt': 'first',
    });
    const revision = await importCommit(space, {
      '.gitbook/includes/note.md': '---\ntitle: Note\n---\n\nA changed note.\n',
      '.gitbook/includes/old.md': null,
      '.gitbook/assets/a.txt': null,
      '.gitbook/assets/b.txt': 'second',
    });
    const body = expectStatus(
      await g.request({ url: `/v1/spaces/${space}/revisions/${revision.id}/changes?limit=20` }),
      200,
    ) as { changes: { type: string }[] };
    const types = body.changes.map((c) => c.type).sort();
    assert.ok(types.includes('reusable_content_edited'), JSON.stringify(body));
    assert.ok(types.includes('reusable_content_deleted'), JSON.stringify(body));
    assert.ok(
      types.includes('file_created') || types.includes('file_edited'),
      JSON.stringify(body),
    );
    const note = revision.reusableContents[0];
    assert.ok(note);
    const document = await g.request({ url: `/v1/spaces/${space}/documents/${note.document}` });
    assert.equal(document.statusCode, 200, document.body);
    assert.match(document.body, /A changed note\./);
  });
});
