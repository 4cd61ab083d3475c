import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Static } from 'typebox';
import type {
  ChangeRequestSchema,
  CreatedChangeRequestSchema,
} from '../../src/modules/content/schemas.js';
import type { SpaceSchema } from '../../src/modules/spaces/schemas.js';
import { SpaceTrashSweep } from '../../src/modules/spaces/trash.js';
import { SpaceTrashRepository } from '../../src/modules/spaces/trash-repository.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import type { ListOf } from '../helpers/schemas.js';

/**
 * Change requests over HTTP (issue 6): create, list, read, PATCH, content change lists (all or
 * nothing), merge, update from main, the space's counters, concurrent edits and merges, who may
 * do what, and deleting the space. Every refused write is checked to change nothing (read back).
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type ChangeRequest = Static<typeof ChangeRequestSchema>;
type Created = Static<typeof CreatedChangeRequestSchema>;
type Page = {
  id: string;
  title: string;
  type: string;
  slug?: string;
  path?: string;
  markdown?: string;
  pages?: Page[];
};
type Space = Static<typeof SpaceSchema>;
type List = ListOf<typeof ChangeRequestSchema>;
type Change = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const auth = (token: string | undefined) =>
  token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } };

const crUrl = (spaceId: string, ref?: string | number) =>
  `/v1/spaces/${spaceId}/change-requests${ref === undefined ? '' : `/${ref}`}`;

async function newSpace(title = 'Docs'): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/spaces`,
    payload: { title },
  });
  return expectStatus(response, 201).id as string;
}

const getSpace = async (spaceId: string) =>
  expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}` }), 200) as Space;

async function createCr(spaceId: string, subject = 'A change', token?: string): Promise<Created> {
  const response = await t.request({
    method: 'POST',
    url: crUrl(spaceId),
    payload: { subject },
    ...auth(token),
  });
  return expectStatus(response, 201) as Created;
}

const getCr = async (spaceId: string, ref: string | number) =>
  expectStatus(await t.request({ method: 'GET', url: crUrl(spaceId, ref) }), 200) as ChangeRequest;

const patchCr = (spaceId: string, ref: string | number, payload: unknown, token?: string) =>
  t.request({
    method: 'PATCH',
    url: crUrl(spaceId, ref),
    payload: payload as object,
    ...auth(token),
  });

const editCr = (spaceId: string, ref: string | number, changes: unknown, token?: string) =>
  t.request({
    method: 'POST',
    url: `${crUrl(spaceId, ref)}/content`,
    payload: { changes } as object,
    ...auth(token),
  });

async function edited(spaceId: string, ref: string | number, changes: Change[]) {
  return expectStatus(await editCr(spaceId, ref, changes), 200) as ChangeRequest;
}

const mergeCr = (spaceId: string, ref: string | number, token?: string) =>
  t.request({ method: 'POST', url: `${crUrl(spaceId, ref)}/merge`, ...auth(token) });

const updateCr = (spaceId: string, ref: string | number, token?: string) =>
  t.request({ method: 'POST', url: `${crUrl(spaceId, ref)}/update`, ...auth(token) });

async function merged(spaceId: string, ref: string | number): Promise<string> {
  const body = expectStatus(await mergeCr(spaceId, ref), 200);
  assert.equal(body.result, 'merge');
  return body.revision as string;
}

const crPages = async (spaceId: string, ref: string | number) =>
  (
    expectStatus(
      await t.request({ method: 'GET', url: `${crUrl(spaceId, ref)}/content/pages` }),
      200,
    ) as { pages: Page[] }
  ).pages;

const spacePages = async (spaceId: string) =>
  (
    expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/content/pages` }),
      200,
    ) as { pages: Page[] }
  ).pages;

/** A page's Markdown, in a change request (`ref`) or in the space's current content. */
async function markdownOf(spaceId: string, ref: string | number | undefined, pageId: string) {
  const base =
    ref === undefined ? `/v1/spaces/${spaceId}/content` : `${crUrl(spaceId, ref)}/content`;
  const page = expectStatus(
    await t.request({ method: 'GET', url: `${base}/page/${pageId}?format=markdown` }),
    200,
  ) as Page;
  return page.markdown;
}

const flat = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);

function pageById(pages: Page[], id: string): Page {
  const page = flat(pages).find((p) => p.id === id);
  assert.ok(page, `page ${id} in ${JSON.stringify(pages)}`);
  return page;
}

function pageByTitle(pages: Page[], title: string): Page {
  const page = flat(pages).find((p) => p.title === title);
  assert.ok(page, `page titled ${title} in ${JSON.stringify(pages.map((p) => p.title))}`);
  return page;
}

/** A space whose main content holds one top-level document per title (merged from a CR). */
async function seededSpace(titles: string[]): Promise<{ spaceId: string; ids: string[] }> {
  const spaceId = await newSpace();
  const seed = await createCr(spaceId, 'Seed');
  await edited(
    spaceId,
    seed.id,
    titles.map((title) => ({
      operation: 'insert_page',
      title,
      document: { markdown: `original ${title}` },
    })),
  );
  await merged(spaceId, seed.id);
  const pages = await spacePages(spaceId);
  assert.deepEqual(
    pages.map((p) => p.title),
    titles,
  );
  return { spaceId, ids: pages.map((p) => p.id) };
}

function two<T>(items: T[]): [T, T] {
  const [a, b] = items;
  assert.ok(a !== undefined && b !== undefined);
  return [a, b];
}

async function member(role: string): Promise<{ userId: string; token: string }> {
  const user = await t.services.identity.createUser({
    displayName: `A ${role}`,
    email: `${role}-${Math.random().toString(36).slice(2)}@example.com`,
  });
  await t.services.identity.setMemberRole(t.orgId, user.id, role);
  const { token } = await t.services.identity.createToken(user.id, { label: role });
  return { userId: user.id, token };
}

/** The change request and its page tree, to compare before and after a refused write. */
async function snapshot(spaceId: string, ref: string) {
  return { request: await getCr(spaceId, ref), pages: await crPages(spaceId, ref) };
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('createChangeRequest', () => {
  test('201 + Location + the whole change request, numbered 1 then 2 in the space', async () => {
    const spaceId = await newSpace();
    const space = await getSpace(spaceId);
    const me = expectStatus(await t.request({ method: 'GET', url: '/v1/user' }), 200);
    const response = await t.request({
      method: 'POST',
      url: crUrl(spaceId),
      payload: { subject: 'First change' },
    });
    const body = expectStatus(response, 201) as Created;
    assert.equal(response.headers.location, body.urls.location);
    assert.ok(!Number.isNaN(Date.parse(body.createdAt)), body.createdAt);
    assert.ok(!Number.isNaN(Date.parse(body.updatedAt)), body.updatedAt);
    assert.match(body.urls.app, /^https?:\/\//);
    const location = `http://livery.test/v1/spaces/${spaceId}/change-requests/${body.id}`;
    assert.deepEqual(body, {
      object: 'change-request',
      id: body.id,
      number: 1,
      status: 'open',
      subject: 'First change',
      createdBy: me,
      createdAt: body.createdAt,
      updatedAt: body.updatedAt,
      space: spaceId, // GitBook 0.202: the space the change request belongs to
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: { app: body.urls.app, location },
      changeRequest: body.id,
    });
    const { changeRequest: _deprecated, ...stored } = body;
    assert.deepEqual(await getCr(spaceId, body.id), stored, 'GET answers what POST answered');

    const second = await createCr(spaceId, 'Second change');
    assert.equal(second.number, 2);
    assert.notEqual(second.id, body.id);
    assert.equal(second.changeRequest, second.id);

    const otherSpace = await newSpace('Other');
    assert.equal((await createCr(otherSpace)).number, 1, 'numbers count per space');
  });

  test('a subject of 100 characters is fine; 101 or an unknown field is a 400 creating nothing', async () => {
    const spaceId = await newSpace();
    const long = await createCr(spaceId, 's'.repeat(100));
    assert.equal(long.subject, 's'.repeat(100));
    const count = async () =>
      (expectStatus(await t.request({ method: 'GET', url: crUrl(spaceId) }), 200) as List).count;
    assert.equal(await count(), 1);
    const tooLong = await t.request({
      method: 'POST',
      url: crUrl(spaceId),
      payload: { subject: 's'.repeat(101) },
    });
    assert.match(expectError(tooLong, 400), /subject/);
    const unknown = await t.request({
      method: 'POST',
      url: crUrl(spaceId),
      payload: { subject: 'ok', title: 'not a field' },
    });
    assert.match(expectError(unknown, 400), /title/);
    assert.equal(await count(), 1, 'nothing created');
    const next = await createCr(spaceId, 'after the refusals');
    assert.equal(next.number, 2, 'refusals used no number');
  });

  test('no body at all: 201 with an empty subject', async () => {
    const spaceId = await newSpace();
    const response = await t.request({ method: 'POST', url: crUrl(spaceId) });
    const body = expectStatus(response, 201) as Created;
    assert.equal(body.subject, '');
    assert.equal(body.status, 'open');
    assert.equal(response.headers.location, body.urls.location);
    assert.equal((await getCr(spaceId, body.id)).subject, '');
  });

  test('an unknown space is a 404 naming it', async () => {
    const message = expectError(
      await t.request({ method: 'POST', url: crUrl('space_nope'), payload: { subject: 'x' } }),
      404,
    );
    assert.match(message, /space_nope/);
  });
});

describe('space counters', () => {
  test('changeRequests / changeRequestsOpen / changeRequestsDraft follow creates and status changes', async () => {
    const spaceId = await newSpace();
    const counts = async () => {
      const space = await getSpace(spaceId);
      return [space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft];
    };
    assert.deepEqual(await counts(), [0, 0, 0]);
    const a = await createCr(spaceId, 'a');
    assert.deepEqual(await counts(), [1, 1, 0]);
    const b = await createCr(spaceId, 'b');
    const c = await createCr(spaceId, 'c');
    assert.deepEqual(await counts(), [3, 3, 0]);
    expectStatus(await patchCr(spaceId, b.id, { status: 'draft' }), 200);
    assert.deepEqual(await counts(), [3, 2, 1]);
    expectStatus(await patchCr(spaceId, c.id, { status: 'archived' }), 200);
    assert.deepEqual(await counts(), [3, 1, 1]);
    await merged(spaceId, a.id);
    assert.deepEqual(await counts(), [3, 0, 1], 'a merged change request is no longer open');
    expectStatus(await patchCr(spaceId, b.id, { status: 'open' }), 200);
    assert.deepEqual(await counts(), [3, 1, 0]);

    // The organization's space list shows the same counters.
    const list = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/spaces?limit=1000` }),
      200,
    ) as { items: Space[] };
    const listed = list.items.find((s) => s.id === spaceId);
    assert.ok(listed);
    assert.deepEqual(
      [listed.changeRequests, listed.changeRequestsOpen, listed.changeRequestsDraft],
      [3, 1, 0],
    );
  });
});

describe('listChangeRequestsForSpace', () => {
  test('default status open; ?status= filters; a bad status is a 400', async () => {
    const spaceId = await newSpace();
    const open = [await createCr(spaceId, 'o1'), await createCr(spaceId, 'o2')];
    const draft = await createCr(spaceId, 'd');
    const archived = await createCr(spaceId, 'a');
    const merging = await createCr(spaceId, 'm');
    expectStatus(await patchCr(spaceId, draft.id, { status: 'draft' }), 200);
    expectStatus(await patchCr(spaceId, archived.id, { status: 'archived' }), 200);
    await merged(spaceId, merging.id);
    const list = async (query: string) =>
      expectStatus(
        await t.request({ method: 'GET', url: `${crUrl(spaceId)}${query}` }),
        200,
      ) as List;
    const ids = (l: List) => l.items.map((c) => c.id).sort();

    const byDefault = await list('');
    assert.deepEqual(ids(byDefault), open.map((c) => c.id).sort());
    assert.equal(byDefault.count, 2);
    for (const item of byDefault.items) {
      assert.equal(item.status, 'open');
      assert.deepEqual(item, await getCr(spaceId, item.id), 'list items are whole change requests');
    }
    assert.deepEqual(ids(await list('?status=open')), ids(byDefault));
    const drafts = await list('?status=draft');
    assert.deepEqual(ids(drafts), [draft.id]);
    assert.equal(drafts.items[0]?.status, 'draft');
    const archivedList = await list('?status=archived');
    assert.deepEqual(ids(archivedList), [archived.id]);
    assert.equal(archivedList.items[0]?.status, 'archived');
    const mergedList = await list('?status=merged');
    assert.deepEqual(ids(mergedList), [merging.id]);
    assert.equal(mergedList.items[0]?.status, 'merged');
    assert.equal(mergedList.count, 1);

    const bad = await t.request({ method: 'GET', url: `${crUrl(spaceId)}?status=closed` });
    assert.match(expectError(bad, 400), /status/);
  });

  test('limit=1 and next.page walk every item once', async () => {
    const spaceId = await newSpace();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createCr(spaceId, `cr ${i}`)).id);
    const seen: string[] = [];
    let url: string | undefined = `${crUrl(spaceId)}?limit=1`;
    let pages = 0;
    while (url !== undefined) {
      const page = expectStatus(await t.request({ method: 'GET', url }), 200) as List;
      pages++;
      assert.equal(page.items.length, 1);
      assert.equal(page.count, 5);
      seen.push(...page.items.map((c) => c.id));
      url =
        page.next === undefined
          ? undefined
          : `${crUrl(spaceId)}?limit=1&page=${encodeURIComponent(page.next.page)}`;
      assert.ok(pages <= 5, 'the walk ends');
    }
    assert.equal(pages, 5);
    assert.equal(new Set(seen).size, seen.length, `no repeats: ${seen.join(', ')}`);
    assert.deepEqual([...seen].sort(), [...created].sort());
  });
});

describe('getChangeRequestById', () => {
  test('by id and by number; unknown id or number is a 404 naming it; another space’s is a 404', async () => {
    const spaceId = await newSpace();
    const first = await createCr(spaceId, 'first');
    const second = await createCr(spaceId, 'second');
    assert.deepEqual(await getCr(spaceId, 1), await getCr(spaceId, first.id));
    assert.deepEqual(await getCr(spaceId, 2), await getCr(spaceId, second.id));
    assert.equal((await getCr(spaceId, 2)).subject, 'second');

    const unknownId = expectError(
      await t.request({ method: 'GET', url: crUrl(spaceId, 'cr_nope') }),
      404,
    );
    assert.match(unknownId, /cr_nope/);
    const unknownNumber = expectError(
      await t.request({ method: 'GET', url: crUrl(spaceId, 99) }),
      404,
    );
    assert.match(unknownNumber, /99/);

    const otherSpace = await newSpace('Other');
    const foreign = await createCr(otherSpace, 'foreign');
    await edited(otherSpace, foreign.id, [
      { operation: 'insert_page', title: 'Foreign page', document: { markdown: 'x' } },
    ]);
    const before = await snapshot(otherSpace, foreign.id);
    const through = crUrl(spaceId, foreign.id);
    assert.match(
      expectError(await t.request({ method: 'GET', url: through }), 404),
      /change request/,
    );
    expectError(await t.request({ method: 'GET', url: `${through}/content/pages` }), 404);
    expectError(await patchCr(spaceId, foreign.id, { subject: 'hijacked' }), 404);
    expectError(
      await editCr(spaceId, foreign.id, [
        { operation: 'insert_page', title: 'x', document: { markdown: '' } },
      ]),
      404,
    );
    expectError(await mergeCr(spaceId, foreign.id), 404);
    expectError(await updateCr(spaceId, foreign.id), 404);
    assert.deepEqual(
      await snapshot(otherSpace, foreign.id),
      before,
      'the other space’s CR is untouched',
    );
    assert.deepEqual(await spacePages(spaceId), [], 'nothing merged into this space');
  });
});

describe('updateChangeRequestById (PATCH)', () => {
  test('subject and status change; bad bodies are 400s changing nothing; a merged CR is a 409', async () => {
    const spaceId = await newSpace();
    const cr = await createCr(spaceId, 'Before');
    const renamed = expectStatus(
      await patchCr(spaceId, cr.id, { subject: 'After' }),
      200,
    ) as ChangeRequest;
    assert.equal(renamed.subject, 'After');
    assert.equal(renamed.status, 'open');
    assert.equal(renamed.id, cr.id);
    assert.deepEqual(await getCr(spaceId, cr.id), renamed, 'stored');

    for (const status of ['draft', 'archived', 'open']) {
      const patched = expectStatus(
        await patchCr(spaceId, cr.number, { status }),
        200,
      ) as ChangeRequest;
      assert.equal(patched.status, status);
      assert.equal(patched.subject, 'After', 'absent fields are unchanged');
      assert.equal((await getCr(spaceId, cr.id)).status, status);
    }
    const both = expectStatus(
      await patchCr(spaceId, cr.id, { subject: '', status: 'draft' }),
      200,
    ) as ChangeRequest;
    assert.equal(both.subject, '');
    assert.equal(both.status, 'draft');
    expectStatus(await patchCr(spaceId, cr.id, { subject: 'Kept', status: 'open' }), 200);

    const before = await getCr(spaceId, cr.id);
    const cases: [unknown, RegExp][] = [
      [{ subject: 's'.repeat(101) }, /subject/],
      [{ status: 'merged' }, /status/],
      [{ status: 'closed' }, /status/],
      [{}, /body/],
      [{ subject: 'x', title: 'not a field' }, /title/],
    ];
    for (const [payload, message] of cases) {
      assert.match(
        expectError(await patchCr(spaceId, cr.id, payload), 400),
        message,
        JSON.stringify(payload),
      );
      assert.deepEqual(
        await getCr(spaceId, cr.id),
        before,
        `unchanged after ${JSON.stringify(payload)}`,
      );
    }

    await merged(spaceId, cr.id);
    const afterMerge = await getCr(spaceId, cr.id);
    for (const payload of [{ subject: 'Too late' }, { status: 'open' }, { status: 'archived' }]) {
      assert.match(expectError(await patchCr(spaceId, cr.id, payload), 409), /merged/);
      assert.deepEqual(await getCr(spaceId, cr.id), afterMerge);
    }
  });

  test('an unknown change request is a 404 naming it', async () => {
    const spaceId = await newSpace();
    assert.match(expectError(await patchCr(spaceId, 'cr_gone', { subject: 'x' }), 404), /cr_gone/);
    assert.match(expectError(await patchCr(spaceId, 7, { subject: 'x' }), 404), /7/);
  });
});

describe('updateChangeRequestContent', () => {
  test('insert, update (title, slug, document, move) and delete: a new revision with those pages', async () => {
    const { spaceId, ids } = await seededSpace(['Getting started', 'Reference', 'Obsolete']);
    const [gettingStarted, reference, obsolete] = ids as [string, string, string];
    const mainBefore = await spacePages(spaceId);
    const cr = await createCr(spaceId, 'Restructure');
    const result = await edited(spaceId, cr.id, [
      {
        operation: 'insert_page',
        title: 'Install',
        into: gettingStarted,
        document: { markdown: 'Run the installer.' },
      },
      {
        operation: 'update_page',
        page: reference,
        title: 'API reference',
        slug: 'api',
        document: { markdown: 'Every endpoint.' },
      },
      { operation: 'update_page', page: reference, into: gettingStarted, at: 0 },
      { operation: 'delete_page', page: obsolete },
    ]);
    assert.equal(result.id, cr.id);
    assert.notEqual(result.revision, cr.revision, 'a new revision');
    assert.equal(result.revisionInitial, cr.revisionInitial);
    assert.equal(result.status, 'open');
    assert.deepEqual(await getCr(spaceId, cr.id), result, 'stored');

    const pages = await crPages(spaceId, cr.id);
    assert.deepEqual(
      pages.map((p) => p.id),
      [gettingStarted],
      'Obsolete deleted, Reference moved',
    );
    const top = pageById(pages, gettingStarted);
    const children = top.pages ?? [];
    assert.deepEqual(
      children.map((p) => p.title),
      ['API reference', 'Install'],
      'moved to index 0 of its new parent',
    );
    const [api, install] = two(children);
    assert.equal(api.id, reference);
    assert.equal(api.slug, 'api');
    assert.equal(api.path, `${top.slug}/api`);
    assert.equal(install.slug, 'install');
    assert.equal(install.path, `${top.slug}/install`);
    assert.equal(await markdownOf(spaceId, cr.id, reference), 'Every endpoint.');
    assert.equal(await markdownOf(spaceId, cr.id, install.id), 'Run the installer.');
    const byPath = expectStatus(
      await t.request({
        method: 'GET',
        url: `${crUrl(spaceId, cr.id)}/content/path/${top.slug}%2Fapi`,
      }),
      200,
    ) as Page;
    assert.equal(byPath.id, reference);

    // The revision itself is readable, and the space's content did not move.
    const revision = expectStatus(
      await t.request({ method: 'GET', url: `${crUrl(spaceId, cr.id)}/content` }),
      200,
    );
    assert.equal(revision.id, result.revision);
    assert.deepEqual(await spacePages(spaceId), mainBefore, 'the space is unchanged until merged');
  });

  test('derived slugs that clash get a numeric suffix', async () => {
    const spaceId = await newSpace();
    const cr = await createCr(spaceId);
    const insert = { operation: 'insert_page', title: 'Install', document: { markdown: '' } };
    await edited(spaceId, cr.id, [insert, insert]);
    await edited(spaceId, cr.id, [insert]);
    const pages = await crPages(spaceId, cr.id);
    assert.deepEqual(
      pages.map((p) => p.slug),
      ['install', 'install-2', 'install-3'],
    );
    assert.deepEqual(
      pages.map((p) => p.path),
      ['install', 'install-2', 'install-3'],
    );
    assert.equal(new Set(pages.map((p) => p.id)).size, 3);
  });

  test('every invalid list is refused whole and leaves the change request exactly as it was', async () => {
    const { spaceId, ids } = await seededSpace(['Alpha', 'Beta']);
    const [alpha, beta] = ids as [string, string];
    const cr = await createCr(spaceId, 'Edits');
    await edited(spaceId, cr.id, [
      { operation: 'update_page', page: alpha, document: { markdown: 'edited alpha' } },
    ]);
    const before = await snapshot(spaceId, cr.id);
    const betaSlug = pageById(before.pages, beta).slug;
    assert.ok(betaSlug);
    const fine = { operation: 'insert_page', title: 'Fine', document: { markdown: 'fine' } };

    const cases: { name: string; changes: unknown; status: number; messages: RegExp[] }[] = [
      {
        name: 'page deleted earlier in the same list',
        changes: [
          { operation: 'delete_page', page: alpha },
          { operation: 'update_page', page: alpha, title: 'Ghost' },
        ],
        status: 400,
        messages: [/changes\[1\]/, /changes\[0\]/, new RegExp(alpha)],
      },
      {
        name: 'unknown page',
        changes: [fine, { operation: 'update_page', page: 'page_unknown', title: 'x' }],
        status: 400,
        messages: [/changes\[1\]\.page/, /page_unknown/],
      },
      {
        name: 'slug with a slash',
        changes: [fine, { operation: 'update_page', page: alpha, slug: 'a/b' }],
        status: 400,
        messages: [/changes\[1\]\.slug/, /"\/"/],
      },
      {
        name: 'slug of 101 characters',
        changes: [{ operation: 'insert_page', title: 'Long', slug: 'a'.repeat(101), document: {} }],
        status: 400,
        messages: [/changes\[0\]\.slug/],
      },
      {
        name: 'explicit slug of a sibling',
        changes: [fine, { operation: 'update_page', page: alpha, slug: betaSlug }],
        status: 409,
        messages: [/changes\[1\]\.slug/, new RegExp(beta)],
      },
      {
        name: 'more than 50 changes',
        changes: Array.from({ length: 51 }, (_, i) => ({ ...fine, title: `Page ${i}` })),
        status: 400,
        messages: [/body\.changes/],
      },
      { name: 'zero changes', changes: [], status: 400, messages: [/body\.changes/] },
      {
        name: 'unknown operation',
        changes: [{ operation: 'rename_page', page: alpha, title: 'x' }],
        status: 400,
        messages: [/changes\[0\]\.operation/],
      },
      {
        name: 'a ProseMirror document instead of Markdown',
        changes: [
          fine,
          {
            operation: 'update_page',
            page: beta,
            document: { document: { object: 'document', nodes: [] } },
          },
        ],
        status: 400,
        messages: [/changes\[1\]\.document/],
      },
      {
        name: 'a list of 50 whose last change is bad',
        changes: [
          ...Array.from({ length: 49 }, (_, i) => ({ ...fine, title: `Bulk ${i}` })),
          { operation: 'delete_page', page: 'page_unknown' },
        ],
        status: 400,
        messages: [/changes\[49\]\.page/],
      },
    ];
    for (const { name, changes, status, messages } of cases) {
      const message = expectError(await editCr(spaceId, cr.id, changes), status);
      for (const pattern of messages) assert.match(message, pattern, name);
      assert.deepEqual(await snapshot(spaceId, cr.id), before, `unchanged after: ${name}`);
    }
    assert.equal(await markdownOf(spaceId, cr.id, alpha), 'edited alpha');
  });

  test('a merged change request is a 409; an archived one too, until it is open again', async () => {
    const spaceId = await newSpace();
    const change = [{ operation: 'insert_page', title: 'New', document: { markdown: 'x' } }];

    const mergedCr = await createCr(spaceId, 'merged');
    await merged(spaceId, mergedCr.id);
    const mergedBefore = await snapshot(spaceId, mergedCr.id);
    assert.match(expectError(await editCr(spaceId, mergedCr.id, change), 409), /merged/);
    assert.deepEqual(await snapshot(spaceId, mergedCr.id), mergedBefore);

    const archived = await createCr(spaceId, 'archived');
    expectStatus(await patchCr(spaceId, archived.id, { status: 'archived' }), 200);
    const archivedBefore = await snapshot(spaceId, archived.id);
    assert.match(expectError(await editCr(spaceId, archived.id, change), 409), /archived/);
    assert.match(expectError(await mergeCr(spaceId, archived.id), 409), /archived/);
    assert.deepEqual(await snapshot(spaceId, archived.id), archivedBefore);

    expectStatus(await patchCr(spaceId, archived.id, { status: 'open' }), 200);
    const reopened = await edited(spaceId, archived.id, change);
    assert.notEqual(reopened.revision, archivedBefore.request.revision);
    assert.deepEqual(
      (await crPages(spaceId, archived.id)).map((p) => p.title),
      ['New'],
    );

    // A draft can be edited.
    expectStatus(await patchCr(spaceId, archived.id, { status: 'draft' }), 200);
    await edited(spaceId, archived.id, [{ ...change[0], title: 'Drafted' }]);
    assert.deepEqual(
      (await crPages(spaceId, archived.id)).map((p) => p.title),
      ['New', 'Drafted'],
    );
  });
});

describe('mergeChangeRequest', () => {
  test('merge: {revision, result}; the CR is merged at that revision; the space moves to it; again is a 409', async () => {
    const spaceId = await newSpace();
    const cr = await createCr(spaceId, 'Add a page');
    await edited(spaceId, cr.id, [
      { operation: 'insert_page', title: 'Hello', document: { markdown: 'Hello world' } },
    ]);
    const spaceBefore = await getSpace(spaceId);
    const body = expectStatus(await mergeCr(spaceId, cr.number), 200);
    assert.deepEqual(Object.keys(body).sort(), ['result', 'revision']);
    assert.equal(body.result, 'merge');
    const revision = body.revision as string;
    assert.notEqual(revision, spaceBefore.revision);

    const after = await getCr(spaceId, cr.id);
    assert.equal(after.status, 'merged');
    assert.equal(after.revisionMerged, revision);
    assert.equal(after.outdated, false);
    assert.equal((await getSpace(spaceId)).revision, revision);
    const pages = await spacePages(spaceId);
    assert.deepEqual(
      pages.map((p) => p.title),
      ['Hello'],
    );
    assert.equal(
      await markdownOf(spaceId, undefined, pageByTitle(pages, 'Hello').id),
      'Hello world',
    );
    const current = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/content` }),
      200,
    );
    assert.equal(current.id, revision);

    assert.match(expectError(await mergeCr(spaceId, cr.id), 409), /merged/);
    assert.equal((await getSpace(spaceId)).revision, revision, 'a refused merge changes nothing');
    assert.match(expectError(await updateCr(spaceId, cr.id), 409), /merged/);
    assert.match(expectError(await mergeCr(spaceId, 'cr_unknown'), 404), /cr_unknown/);
  });

  test('outdated, then a clean merge when no page was touched by both', async () => {
    const { spaceId, ids } = await seededSpace(['X', 'Y']);
    const [x, y] = ids as [string, string];
    const a = await createCr(spaceId, 'A');
    const b = await createCr(spaceId, 'B');
    assert.equal(a.revisionInitial, b.revisionInitial, 'same base');
    await edited(spaceId, a.id, [
      { operation: 'update_page', page: x, title: 'X by A', document: { markdown: 'A wrote X' } },
    ]);
    await edited(spaceId, b.id, [
      { operation: 'update_page', page: y, title: 'Y by B', document: { markdown: 'B wrote Y' } },
    ]);
    assert.equal((await getCr(spaceId, b.id)).outdated, false);

    const mergedA = await merged(spaceId, a.id);
    const bAfter = await getCr(spaceId, b.id);
    assert.equal(bAfter.outdated, true, 'the space moved on since B’s base');
    assert.equal((await getCr(spaceId, a.id)).outdated, false);
    const listed = expectStatus(
      await t.request({ method: 'GET', url: crUrl(spaceId) }),
      200,
    ) as List;
    assert.equal(listed.items.find((c) => c.id === b.id)?.outdated, true, 'in the list too');

    const mergedB = await merged(spaceId, b.id);
    assert.notEqual(mergedB, mergedA);
    assert.equal((await getSpace(spaceId)).revision, mergedB);
    assert.equal((await getCr(spaceId, b.id)).revisionMerged, mergedB);
    const pages = await spacePages(spaceId);
    assert.deepEqual(
      pages.map((p) => [p.id, p.title]),
      [
        [x, 'X by A'],
        [y, 'Y by B'],
      ],
    );
    assert.equal(await markdownOf(spaceId, undefined, x), 'A wrote X');
    assert.equal(await markdownOf(spaceId, undefined, y), 'B wrote Y');
  });

  test('pages changed on both sides: merge and update are 409s naming the page; B is unchanged', async () => {
    const { spaceId, ids } = await seededSpace(['X', 'Y']);
    const [x] = ids as [string, string];
    const a = await createCr(spaceId, 'A');
    const b = await createCr(spaceId, 'B');
    await edited(spaceId, a.id, [
      { operation: 'update_page', page: x, title: 'X from A', document: { markdown: 'A' } },
    ]);
    await edited(spaceId, b.id, [
      { operation: 'update_page', page: x, title: 'X from B', document: { markdown: 'B' } },
    ]);
    const mergedA = await merged(spaceId, a.id);
    const before = await snapshot(spaceId, b.id);
    assert.equal(before.request.outdated, true);

    const mergeMessage = expectError(await mergeCr(spaceId, b.id), 409);
    assert.ok(mergeMessage.includes(x), `names the page id: ${mergeMessage}`);
    assert.match(mergeMessage, /"X from [AB]"/, 'names the page title');
    assert.deepEqual(await snapshot(spaceId, b.id), before, 'B unchanged');
    assert.equal(before.request.status, 'open');
    assert.equal((await getSpace(spaceId)).revision, mergedA, 'the space did not move');
    assert.equal(pageById(await spacePages(spaceId), x).title, 'X from A');

    const updateMessage = expectError(await updateCr(spaceId, b.id), 409);
    assert.ok(updateMessage.includes(x), `names the page id: ${updateMessage}`);
    assert.match(updateMessage, /"X from [AB]"/);
    assert.deepEqual(await snapshot(spaceId, b.id), before, 'B unchanged after the refused update');
  });

  test('update from main without conflicts: outdated false, main’s change and its own; then merge', async () => {
    const { spaceId, ids } = await seededSpace(['X', 'Y']);
    const [x, y] = ids as [string, string];
    const c = await createCr(spaceId, 'C');
    await edited(spaceId, c.id, [
      { operation: 'update_page', page: y, title: 'Y by C', document: { markdown: 'C wrote Y' } },
    ]);
    const d = await createCr(spaceId, 'D');
    await edited(spaceId, d.id, [
      { operation: 'update_page', page: x, title: 'X by main', document: { markdown: 'main X' } },
    ]);
    const mainRevision = await merged(spaceId, d.id);
    assert.equal((await getCr(spaceId, c.id)).outdated, true);

    const body = expectStatus(await updateCr(spaceId, c.id), 200);
    assert.deepEqual(Object.keys(body).sort(), ['result', 'revision']);
    assert.equal(body.result, 'update');
    const after = await getCr(spaceId, c.id);
    assert.equal(after.outdated, false);
    assert.equal(after.revisionMergedAncestor, mainRevision);
    assert.equal(after.revisionMergedAncestor, (await getSpace(spaceId)).revision);
    assert.equal(after.revision, body.revision);
    assert.equal(after.status, 'open');
    const pages = await crPages(spaceId, c.id);
    assert.deepEqual(
      pages.map((p) => [p.id, p.title]),
      [
        [x, 'X by main'],
        [y, 'Y by C'],
      ],
    );
    assert.equal(await markdownOf(spaceId, c.id, x), 'main X');
    assert.equal(await markdownOf(spaceId, c.id, y), 'C wrote Y');

    // Updating again with nothing new changes nothing.
    const again = expectStatus(await updateCr(spaceId, c.id), 200);
    assert.equal(again.result, 'update');
    assert.equal((await getCr(spaceId, c.id)).revision, after.revision);

    const mergedC = await merged(spaceId, c.id);
    assert.equal((await getSpace(spaceId)).revision, mergedC);
    const main = await spacePages(spaceId);
    assert.deepEqual(
      main.map((p) => [p.id, p.title]),
      [
        [x, 'X by main'],
        [y, 'Y by C'],
      ],
    );
    assert.equal(await markdownOf(spaceId, undefined, x), 'main X');
    assert.equal(await markdownOf(spaceId, undefined, y), 'C wrote Y');
  });
});

describe('concurrency', () => {
  // Writes to one space's content are queued in the process (KeyedQueue), so every one of
  // these lands; across processes the compare-and-swap keeps them from losing each other.
  test('10 parallel content updates to one CR: every one lands, none lost', async () => {
    const spaceId = await newSpace();
    const cr = await createCr(spaceId, 'Busy');
    const titles = Array.from({ length: 10 }, (_, i) => `Parallel ${i}`);
    const responses = await Promise.all(
      titles.map((title) =>
        editCr(spaceId, cr.id, [
          { operation: 'insert_page', title, document: { markdown: title } },
        ]),
      ),
    );
    for (const response of responses) assert.equal(response.statusCode, 200, response.body);
    const accepted = titles;
    const pages = await crPages(spaceId, cr.id);
    assert.equal(pages.length, accepted.length, 'one page per accepted update');
    assert.deepEqual(pages.map((p) => p.title).sort(), [...accepted].sort(), 'no insert lost');
    assert.equal(new Set(pages.map((p) => p.slug)).size, pages.length, 'distinct slugs');
  });

  test('two CRs touching different pages merged in parallel: both merge, the space keeps both', async () => {
    const { spaceId, ids } = await seededSpace(['X', 'Y']);
    const [x, y] = ids as [string, string];
    const a = await createCr(spaceId, 'A');
    const b = await createCr(spaceId, 'B');
    await edited(spaceId, a.id, [
      { operation: 'update_page', page: x, title: 'X by A' },
      { operation: 'insert_page', title: 'New from A', document: { markdown: 'a' } },
    ]);
    await edited(spaceId, b.id, [
      { operation: 'update_page', page: y, title: 'Y by B' },
      { operation: 'insert_page', title: 'New from B', document: { markdown: 'b' } },
    ]);
    const responses = await Promise.all([mergeCr(spaceId, a.id), mergeCr(spaceId, b.id)]);
    for (const response of responses) assert.equal(response.statusCode, 200, response.body);
    const expected: Record<string, string> = {};
    const revisions: string[] = [];
    for (const [i, response] of responses.entries()) {
      const cr = i === 0 ? a : b;
      if (response.statusCode === 200) {
        const body = response.json() as { revision: string; result: string };
        assert.equal(body.result, 'merge');
        revisions.push(body.revision);
        assert.equal((await getCr(spaceId, cr.id)).status, 'merged');
        if (i === 0) Object.assign(expected, { [x]: 'X by A' });
        else Object.assign(expected, { [y]: 'Y by B' });
      } else {
        assert.match(expectError(response, 409), /kept changing/, response.body);
        assert.equal((await getCr(spaceId, cr.id)).status, 'open');
      }
    }
    assert.ok(revisions.length > 0, 'at least one merge went through');
    const space = await getSpace(spaceId);
    assert.ok(revisions.includes(space.revision), 'the space is at one of the merges');
    const pages = await spacePages(spaceId);
    for (const [id, title] of Object.entries(expected)) {
      assert.equal(pageById(pages, id).title, title);
    }
    const titles = pages.map((p) => p.title);
    if (responses[0]?.statusCode === 200) assert.ok(titles.includes('New from A'), titles.join());
    if (responses[1]?.statusCode === 200) assert.ok(titles.includes('New from B'), titles.join());
    assert.equal(
      pages.length,
      2 + revisions.length,
      'the seeded pages plus one new page per merge, none lost',
    );
  });
});

describe('permissions', () => {
  test('role read: 403 on every write, but may list and read', async () => {
    const reader = await member('read');
    const spaceId = await newSpace();
    const cr = await createCr(spaceId, 'Owner’s');
    await edited(spaceId, cr.id, [
      { operation: 'insert_page', title: 'Owned', document: { markdown: 'x' } },
    ]);
    const before = await snapshot(spaceId, cr.id);
    const change = [{ operation: 'insert_page', title: 'Intruder', document: { markdown: 'x' } }];

    const create = await t.request({
      method: 'POST',
      url: crUrl(spaceId),
      payload: { subject: 'mine' },
      ...auth(reader.token),
    });
    assert.match(expectError(create, 403), /edit/);
    assert.match(expectError(await editCr(spaceId, cr.id, change, reader.token), 403), /edit/);
    assert.match(
      expectError(await patchCr(spaceId, cr.id, { subject: 'renamed' }, reader.token), 403),
      /edit/,
    );
    assert.match(expectError(await mergeCr(spaceId, cr.id, reader.token), 403), /review/);
    assert.match(expectError(await updateCr(spaceId, cr.id, reader.token), 403), /edit/);
    assert.deepEqual(await snapshot(spaceId, cr.id), before, 'nothing changed');
    assert.deepEqual(await spacePages(spaceId), [], 'nothing merged');

    const list = t.request({ method: 'GET', url: crUrl(spaceId), ...auth(reader.token) });
    assert.deepEqual(
      (expectStatus(await list, 200) as List).items.map((c) => c.id),
      [cr.id],
    );
    const got = expectStatus(
      await t.request({ method: 'GET', url: crUrl(spaceId, cr.id), ...auth(reader.token) }),
      200,
    );
    assert.deepEqual(got, before.request);
    const pages = expectStatus(
      await t.request({
        method: 'GET',
        url: `${crUrl(spaceId, cr.id)}/content/pages`,
        ...auth(reader.token),
      }),
      200,
    );
    assert.deepEqual(pages.pages, before.pages);
  });

  test('role edit creates, edits and (being above review) merges; role review merges but cannot create', async () => {
    const editor = await member('edit');
    const reviewer = await member('review');
    const spaceId = await newSpace();

    const created = await createCr(spaceId, 'By the editor', editor.token);
    assert.equal(created.createdBy.id, editor.userId);
    assert.equal(created.createdBy.displayName, 'A edit');
    const editedBody = expectStatus(
      await editCr(
        spaceId,
        created.id,
        [{ operation: 'insert_page', title: 'Edited', document: { markdown: 'e' } }],
        editor.token,
      ),
      200,
    ) as ChangeRequest;
    assert.notEqual(editedBody.revision, created.revision);
    expectStatus(await patchCr(spaceId, created.id, { subject: 'Renamed' }, editor.token), 200);
    const mergedBody = expectStatus(await mergeCr(spaceId, created.id, editor.token), 200);
    assert.equal(mergedBody.result, 'merge');
    assert.deepEqual(
      (await spacePages(spaceId)).map((p) => p.title),
      ['Edited'],
    );

    const refused = await t.request({
      method: 'POST',
      url: crUrl(spaceId),
      payload: { subject: 'by the reviewer' },
      ...auth(reviewer.token),
    });
    assert.match(expectError(refused, 403), /edit/);
    const second = await createCr(spaceId, 'For review', editor.token);
    await edited(spaceId, second.id, [
      { operation: 'insert_page', title: 'Reviewed', document: { markdown: 'r' } },
    ]);
    assert.match(
      expectError(
        await editCr(
          spaceId,
          second.id,
          [{ operation: 'insert_page', title: 'No', document: { markdown: '' } }],
          reviewer.token,
        ),
        403,
      ),
      /edit/,
    );
    const reviewed = expectStatus(await mergeCr(spaceId, second.id, reviewer.token), 200);
    assert.equal((await getSpace(spaceId)).revision, reviewed.revision);
    assert.deepEqual(
      (await spacePages(spaceId)).map((p) => p.title),
      ['Edited', 'Reviewed'],
    );
  });

  test('a token scoped to space:read cannot create; space:write without change-request:merge cannot merge', async () => {
    const spaceId = await newSpace();
    const readOnly = (await t.services.identity.createToken(t.userId, { scopes: ['space:read'] }))
      .token;
    const refused = await t.request({
      method: 'POST',
      url: crUrl(spaceId),
      payload: { subject: 'x' },
      ...auth(readOnly),
    });
    assert.match(expectError(refused, 403), /space:write/);
    const list = expectStatus(
      await t.request({ method: 'GET', url: crUrl(spaceId), ...auth(readOnly) }),
      200,
    ) as List;
    assert.equal(list.count, 0, 'nothing was created');

    const writer = (
      await t.services.identity.createToken(t.userId, { scopes: ['space:read', 'space:write'] })
    ).token;
    const cr = await createCr(spaceId, 'scoped', writer);
    expectStatus(
      await editCr(
        spaceId,
        cr.id,
        [{ operation: 'insert_page', title: 'Scoped', document: { markdown: '' } }],
        writer,
      ),
      200,
    );
    const before = await snapshot(spaceId, cr.id);
    assert.match(expectError(await mergeCr(spaceId, cr.id, writer), 403), /change-request:merge/);
    assert.match(expectError(await mergeCr(spaceId, cr.id, readOnly), 403), /change-request:merge/);
    assert.deepEqual(await snapshot(spaceId, cr.id), before);
    const merger = (
      await t.services.identity.createToken(t.userId, { scopes: ['change-request:merge'] })
    ).token;
    expectStatus(await mergeCr(spaceId, cr.id, merger), 200);
    assert.equal((await getCr(spaceId, cr.id)).status, 'merged');
  });
});

describe('deleting the space', () => {
  test('205, and once purged its change requests and revisions are gone; other spaces keep theirs', async () => {
    const spaceId = await newSpace('Doomed');
    const first = await createCr(spaceId, 'one');
    await edited(spaceId, first.id, [
      { operation: 'insert_page', title: 'Page', document: { markdown: 'x' } },
    ]);
    await merged(spaceId, first.id);
    const second = await createCr(spaceId, 'two');
    const keptSpace = await newSpace('Kept');
    const kept = await createCr(keptSpace, 'kept');

    const response = await t.request({ method: 'DELETE', url: `/v1/spaces/${spaceId}` });
    assert.equal(response.statusCode, 205, response.body);
    for (const ref of [first.id, second.id, 1, 2]) {
      expectError(await t.request({ method: 'GET', url: crUrl(spaceId, ref) }), 404);
    }
    expectError(await t.request({ method: 'GET', url: crUrl(spaceId) }), 404);
    // In the trash for 7 days (docs/content.md); the purge after them takes the rows.
    const later = () => Date.now() + 8 * 24 * 60 * 60 * 1000;
    // At least this one: the file's other tests may have deleted spaces too.
    assert.ok((await new SpaceTrashSweep(new SpaceTrashRepository(t.db), later).sweep()) >= 1);
    const rows = await t.db
      .selectFrom('change_requests')
      .select('id')
      .where('space_id', '=', spaceId)
      .execute();
    assert.deepEqual(rows, [], 'no change request row left');
    const revisions = await t.db
      .selectFrom('revisions')
      .select('id')
      .where('space_id', '=', spaceId)
      .execute();
    assert.deepEqual(revisions, [], 'no revision row left');
    assert.equal((await getCr(keptSpace, kept.id)).subject, 'kept');
  });

  test('a space a site shows is a 409 and keeps its change requests', async () => {
    const site = await createSite(t, 1);
    const [spaceId] = site.spaceIds;
    assert.ok(spaceId);
    const cr = await createCr(spaceId, 'shown');
    const message = expectError(
      await t.request({ method: 'DELETE', url: `/v1/spaces/${spaceId}` }),
      409,
    );
    assert.ok(message.includes(site.siteId), message);
    assert.equal((await getCr(spaceId, cr.id)).subject, 'shown');
  });
});
