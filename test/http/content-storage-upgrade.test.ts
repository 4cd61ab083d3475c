/**
 * Migration 0015 (content-addressed pages): revisions stored as whole trees before it read back
 * identically after it, through the API of a server that never saw them; the nodes and bodies it
 * makes are the ones the live code makes (same hashes), so revisions written afterwards share them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import { createMigrator } from '../../src/db/migrate.js';
import { encodeTree } from '../../src/modules/content/storage/encode.js';
import type { Tree } from '../../src/modules/content/tree.js';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';
import {
  applyChanges,
  crUrl,
  doc,
  flatten,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
  type PageBody,
  spacePages,
} from '../helpers/content.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

/** The database before 0015: revisions with their whole tree in `pages`. */
type OldRevisions = Kysely<{
  revisions: {
    id: string;
    space_id: string;
    type: string;
    parents: string;
    merged_from: string | null;
    pages: string;
    touched: string;
    created_by: string | null;
    created_at: string;
  };
}>;

async function read(app: FastifyInstance, url: string): Promise<unknown> {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${t.token}` },
  });
  return expectStatus(response, 200);
}

/** Every read of a revision: the revision, its tree, each page by id with its body, both forms. */
async function readAll(app: FastifyInstance, space: string, revisions: string[], pagesEach = 20) {
  const answers = new Map<string, unknown>();
  for (const revision of revisions) {
    const base = `/v1/spaces/${space}/revisions/${revision}`;
    const body = (await read(app, base)) as { pages: PageBody[] };
    answers.set(base, body);
    const pages = flatten(body.pages).filter((page) => page.type !== 'link');
    for (const page of pages.slice(0, pagesEach)) {
      for (const format of ['markdown', 'document']) {
        const url = `${base}/page/${page.id}?format=${format}`;
        answers.set(url, await read(app, url));
      }
    }
  }
  return answers;
}

const revisionsOf = async (space: string) =>
  (
    await t.db
      .selectFrom('revisions')
      .select('id')
      .where('space_id', '=', space)
      .orderBy('id')
      .execute()
  ).map((row) => row.id);

const storedRows = async () => ({
  nodes: (
    await t.db.selectFrom('page_nodes').selectAll().orderBy(['space_id', 'hash']).execute()
  ).map((row) => `${row.space_id} ${row.hash} ${row.node}`),
  bodies: (
    await t.db.selectFrom('page_bodies').selectAll().orderBy(['space_id', 'hash']).execute()
  ).map((row) => `${row.space_id} ${row.hash} ${row.markdown}`),
});

test(`upgrading moves whole-tree revisions to nodes and bodies, read back identically (${BACKEND})`, async () => {
  // A space with history: groups, nesting, links, optional fields, Unicode, empty documents,
  // edits, moves and deletes, two merges and an open change request.
  const docs = await newSpace(t, 'Docs');
  const first = await openChangeRequest(t, docs.id, 'First');
  await applyChanges(t, docs.id, first.id, [
    { operation: 'insert_page', type: 'group', title: 'Guides', emoji: '📘' },
    { operation: 'insert_page', ...doc('Über uns'), description: 'Wer wir sind', hidden: true },
    { operation: 'insert_page', title: 'Empty', document: {} },
    {
      operation: 'insert_page',
      type: 'link',
      title: 'Site',
      target: { kind: 'url', url: 'https://example.com' },
    },
  ]);
  const [guides, about] = (await crPages(docs.id, first.id)).map((page) => page.id);
  await applyChanges(t, docs.id, first.id, [
    { operation: 'insert_page', ...doc('Install'), into: guides },
    { operation: 'insert_page', ...doc('Configure'), into: guides },
  ]);
  const install = flatten(await crPages(docs.id, first.id)).find((p) => p.title === 'Install');
  await applyChanges(t, docs.id, first.id, [
    { operation: 'insert_page', ...doc('Linux'), into: install?.id },
    {
      operation: 'insert_page',
      type: 'link',
      title: 'Back',
      target: { kind: 'page', page: about },
    },
  ]);
  await mergeChangeRequest(t, docs.id, first.id);
  const second = await openChangeRequest(t, docs.id, 'Second');
  await applyChanges(t, docs.id, second.id, [
    {
      operation: 'update_page',
      page: install?.id,
      title: 'Installing',
      document: { markdown: '# Installing\n\n```sh\nnpm i\n```\n' },
    },
    { operation: 'update_page', page: about, into: guides, at: 0 },
    { operation: 'delete_page', page: (await crPages(docs.id, second.id))[2]?.id },
  ]);
  await mergeChangeRequest(t, docs.id, second.id);
  const open = await openChangeRequest(t, docs.id, 'Open');
  await applyChanges(t, docs.id, open.id, [{ operation: 'insert_page', ...doc('Draft') }]);

  // A wide space: more top-level pages than one `IN (…)` lookup or insert takes.
  const wide = await newSpace(t, 'Wide');
  const wideCr = await openChangeRequest(t, wide.id, 'Wide');
  for (let batch = 0; batch < 12; batch++) {
    const changes = Array.from({ length: 50 }, (_, i) => ({
      operation: 'insert_page' as const,
      ...doc(`Page ${batch * 50 + i}`),
    }));
    await applyChanges(t, wide.id, wideCr.id, changes);
  }
  await mergeChangeRequest(t, wide.id, wideCr.id);
  assert.equal((await spacePages(t, wide.id)).length, 600);

  const docsRevisions = await revisionsOf(docs.id);
  const wideRevisions = await revisionsOf(wide.id);
  const answers = await readAll(t.app, docs.id, docsRevisions);
  const wideAnswers = await readAll(t.app, wide.id, wideRevisions, 3);
  const rows = await storedRows();

  // Back to the release before (revisions as whole trees), plus a revision written by it.
  const migrator = await createMigrator(t.db);
  const down = await migrator.migrateTo('0014_studio_sessions');
  assert.equal(down.error, undefined);
  const old = t.db as unknown as OldRevisions;
  const current = await old
    .selectFrom('revisions')
    .selectAll()
    .where('id', '=', (await spaceRevision(docs.id)) as string)
    .executeTakeFirstOrThrow();
  const tree = JSON.parse(current.pages) as Tree;
  const installing = tree[0]?.pages[1];
  assert.equal(installing?.markdown, '# Installing\n\n```sh\nnpm i\n```\n');
  // As the release before wrote them: its own key order, `hidden: false` kept.
  const handTree: Tree = [
    {
      id: 'hand-page',
      type: 'document',
      title: 'Written before',
      createdAt: current.created_at,
      updatedAt: current.created_at,
      pages: [],
      slug: 'written-before',
      markdown: '# Written before\n\nBy the release before 0015.\n',
      hidden: false,
    },
    ...tree,
  ];
  await old
    .insertInto('revisions')
    .values({
      ...current,
      id: 'hand-written',
      parents: JSON.stringify([current.id]),
      merged_from: null,
      type: 'edits',
      pages: JSON.stringify(handTree),
      touched: '["hand-page"]',
    })
    .execute();

  const up = await migrator.migrateToLatest();
  assert.equal(up.error, undefined);
  assert.ok(up.results?.some((r) => r.migrationName === '0015_content_addressed_pages'));

  // The migration's frozen serialization is the live one: the same rows, and the hand-written
  // revision's top-level nodes are those the live code computes for its tree.
  const upgraded = await storedRows();
  const handEncoded = encodeTree(handTree, []);
  const handRow = await t.db
    .selectFrom('revisions')
    .select('page_nodes')
    .where('id', '=', 'hand-written')
    .executeTakeFirstOrThrow();
  assert.deepEqual(JSON.parse(handRow.page_nodes), handEncoded.roots);
  const added = (list: string[], before: string[]) => list.filter((row) => !before.includes(row));
  assert.deepEqual(
    added(upgraded.nodes, rows.nodes).map((row) => row.split(' ')[1]),
    [...handEncoded.nodes.keys()].filter((hash) => !rows.nodes.some((r) => r.includes(hash))),
  );
  assert.equal(upgraded.nodes.length, rows.nodes.length + 1, 'one new node: the new page');
  assert.deepEqual(added(rows.nodes, upgraded.nodes), []);
  assert.equal(upgraded.bodies.length, rows.bodies.length + 1, 'one new body');
  assert.deepEqual(added(rows.bodies, upgraded.bodies), []);

  // A server that never read them (no cache) answers every read as before.
  const fresh = await buildApp({ config: t.config, db: t.db });
  try {
    assert.deepEqual(await readAll(fresh, docs.id, docsRevisions), answers);
    assert.deepEqual(await readAll(fresh, wide.id, wideRevisions, 3), wideAnswers);
    const hand = (await read(fresh, `/v1/spaces/${docs.id}/revisions/hand-written`)) as {
      pages: PageBody[];
    };
    const base = answers.get(`/v1/spaces/${docs.id}/revisions/${current.id}`) as {
      pages: PageBody[];
    };
    assert.deepEqual(hand.pages.slice(1), base.pages);
    assert.equal(hand.pages[0]?.title, 'Written before');
    assert.equal(hand.pages[0]?.hidden, undefined);
    const page = (await read(
      fresh,
      `/v1/spaces/${docs.id}/revisions/hand-written/page/hand-page?format=markdown`,
    )) as PageBody;
    assert.equal(page.markdown, '# Written before\n\nBy the release before 0015.\n');

    // Writing on a migrated revision shares its nodes: an edit of one top-level page stores that
    // page's node (and no body: its Markdown is unchanged).
    const response = await fresh.inject({
      method: 'POST',
      url: `${crUrl(docs.id, open.id)}/content`,
      headers: { authorization: `Bearer ${t.token}` },
      payload: { changes: [{ operation: 'update_page', page: about, title: 'About us' }] },
    });
    expectStatus(response, 200);
    const afterEdit = await storedRows();
    assert.equal(afterEdit.nodes.length, upgraded.nodes.length + 2, 'the page and its group');
    assert.equal(afterEdit.bodies.length, upgraded.bodies.length);
  } finally {
    await fresh.close();
  }
});

async function crPages(space: string, cr: string): Promise<PageBody[]> {
  const response = await t.request({ method: 'GET', url: `${crUrl(space, cr)}/content/pages` });
  return (expectStatus(response, 200) as { pages: PageBody[] }).pages;
}

async function spaceRevision(space: string): Promise<string | undefined> {
  const row = await t.db
    .selectFrom('spaces')
    .select('revision_id')
    .where('id', '=', space)
    .executeTakeFirst();
  return row?.revision_id;
}
