/**
 * Content and change requests driven through the official clients against a listening Livery
 * (docs/content.md, issue 6), the way GitBook user code calls them after changing the endpoint.
 *
 * Through `@gitbook/api@0.130.0`:
 *   getCurrentRevision, getRevisionById, listPages, getPageById, getPageByPath,
 *   listPagesInChangeRequest, getPageInChangeRequestByPath, getPageInChangeRequestById,
 *   getRevisionOfChangeRequestById, listPagesInRevisionById, getPageInRevisionByPath,
 *   getPageInRevisionById, createChangeRequest, listChangeRequestsForSpace, getChangeRequestById,
 *   updateChangeRequestById, listSpacesInOrganizationById, deleteSpaceById; failures as
 *   GitBookAPIError.
 * Through `gitbook-api-0202` (0.130 cannot edit content): updateChangeRequestContent,
 *   mergeChangeRequest, updateChangeRequest.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeRequest } from '../../node_modules/@gitbook/api/dist/client.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type ContentChange0202,
  client0202,
  clientFailure0202,
  flatten,
  type GitBookClient0202,
  type PageBody,
} from '../helpers/content.js';
import { clientFailure, type GitBookClient, listenWithClient } from '../helpers/gitbook.js';

let t: TestContext;
let api: GitBookClient;
let api202: GitBookClient0202;

before(async () => {
  t = await createTestApp();
  const listening = await listenWithClient(t);
  api = listening.api;
  api202 = client0202(t, listening.endpoint);
});
after(async () => t.close());

const INSTALL_MARKDOWN = '# Install\n\nRun the installer.\n\n- Download it\n- Run it\n';

async function newSpace(title = 'Docs'): Promise<{ id: string; revision: string }> {
  const { data } = await api.orgs.createSpace(t.orgId, { title });
  return { id: data.id, revision: data.revision };
}

const asPages = (pages: unknown) => pages as PageBody[];
const asPage = (page: unknown) => page as PageBody;

/** A page's id in the change request's tree, by title. */
async function pageIdIn(spaceId: string, cr: string, title: string): Promise<string> {
  const { data } = await api.spaces.listPagesInChangeRequest(spaceId, cr);
  const page = flatten(asPages(data.pages)).find((p) => p.title === title);
  assert.ok(page, `${title} in the change request`);
  return page.id;
}

async function edit(spaceId: string, cr: string, changes: ContentChange0202[]) {
  const response = await api202.spaces.updateChangeRequestContent(spaceId, cr, { changes });
  assert.equal(response.status, 200);
  return response.data as ChangeRequest;
}

/**
 * getting-started            Getting started
 *   getting-started/install  Install
 * über-uns                   Über uns
 * built in one change request through 0.202, merged through 0.202.
 */
async function buildDocs() {
  const space = await newSpace('Product docs');
  const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'First content' });
  const first = await edit(space.id, cr.id, [
    {
      operation: 'insert_page',
      title: 'Getting started',
      document: { markdown: '# Getting started\n\nWelcome.\n' },
    },
    {
      operation: 'insert_page',
      title: 'Über uns',
      slug: 'über-uns',
      document: { markdown: '# Über uns\n\nWir.\n' },
    },
  ]);
  assert.equal(first.object, 'change-request');
  assert.equal(first.id, cr.id);
  assert.notEqual(first.revision, cr.revision, 'a new revision of the change request');
  const gettingStarted = await pageIdIn(space.id, cr.id, 'Getting started');
  const uber = await pageIdIn(space.id, cr.id, 'Über uns');
  const last = await edit(space.id, cr.id, [
    {
      operation: 'insert_page',
      title: 'Install',
      slug: 'install',
      into: gettingStarted,
      document: { markdown: INSTALL_MARKDOWN },
    },
  ]);
  const install = await pageIdIn(space.id, cr.id, 'Install');
  const merged = await api202.spaces.mergeChangeRequest(space.id, cr.id);
  assert.equal(merged.status, 200);
  assert.equal(merged.data.result, 'merge');
  return {
    spaceId: space.id,
    initialRevision: space.revision,
    cr,
    crRevision: last.revision,
    revision: merged.data.revision,
    ids: { gettingStarted, install, uber },
  };
}

describe('change requests through the official client', () => {
  test('createChangeRequest answers the whole change request, its Location, and changeRequest = id', async () => {
    const space = await newSpace();
    const response = await api.spaces.createChangeRequest(space.id, { subject: 'Fix typos' });
    assert.equal(response.status, 201);
    const cr = response.data as ChangeRequest & { changeRequest?: unknown };
    assert.equal(cr.object, 'change-request');
    assert.equal(typeof cr.id, 'string');
    assert.equal(cr.changeRequest, cr.id, 'the deprecated changeRequest property is the id');
    assert.equal(cr.number, 1);
    assert.equal(cr.status, 'open');
    assert.equal(cr.subject, 'Fix typos');
    assert.equal(cr.revision, space.revision, 'based on the current revision');
    assert.equal(cr.revisionInitial, space.revision);
    assert.equal(cr.revisionMerged, undefined);
    assert.equal(cr.outdated, false);
    assert.equal(cr.comments, 0);
    assert.equal(cr.createdBy.id, t.userId);
    assert.equal(cr.createdBy.object, 'user');
    assert.equal(response.headers.get('location'), cr.urls.location);
    assert.ok(cr.urls.location.endsWith(`/v1/spaces/${space.id}/change-requests/${cr.id}`));

    const second = await api.spaces.createChangeRequest(space.id, {});
    assert.equal(second.data.number, 2, 'numbers count per space');
    assert.equal(second.data.subject, '');
  });

  test('getChangeRequestById by id and by number; updateChangeRequestById; listChangeRequestsForSpace by status', async () => {
    const space = await newSpace();
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'One' });
    const { data: other } = await api.spaces.createChangeRequest(space.id, { subject: 'Two' });

    const byId = await api.spaces.getChangeRequestById(space.id, cr.id);
    assert.equal(byId.status, 200);
    assert.equal(byId.data.id, cr.id);
    assert.equal(byId.data.subject, 'One');
    assert.equal('changeRequest' in byId.data, false, 'only creation carries the deprecated id');
    const byNumber = await api.spaces.getChangeRequestById(space.id, String(cr.number));
    assert.deepEqual(byNumber.data, byId.data);

    const renamed = await api.spaces.updateChangeRequestById(space.id, cr.id, {
      subject: 'One, renamed',
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.data.subject, 'One, renamed');
    assert.equal(renamed.data.status, 'open');
    const drafted = await api.spaces.updateChangeRequestById(space.id, String(other.number), {
      status: 'draft',
    });
    assert.equal(drafted.data.id, other.id);
    assert.equal(drafted.data.status, 'draft');
    assert.deepEqual(
      (await api.spaces.getChangeRequestById(space.id, other.id)).data,
      drafted.data,
    );

    const open = await api.spaces.listChangeRequestsForSpace(space.id);
    assert.equal(open.status, 200);
    assert.deepEqual(
      open.data.items.map((c) => c.id),
      [cr.id],
      'open by default',
    );
    assert.equal(open.data.items[0]?.subject, 'One, renamed');
    const drafts = await api.spaces.listChangeRequestsForSpace(space.id, {
      status: 'draft' as ChangeRequest['status'],
    });
    assert.deepEqual(
      drafts.data.items.map((c) => c.id),
      [other.id],
    );

    await api.spaces.updateChangeRequestById(space.id, other.id, { status: 'archived' });
    const archived = await api.spaces.listChangeRequestsForSpace(space.id, {
      status: 'archived' as ChangeRequest['status'],
    });
    assert.deepEqual(
      archived.data.items.map((c) => c.id),
      [other.id],
    );
    const failure = await clientFailure0202(
      api202.spaces.updateChangeRequestContent(space.id, other.id, {
        changes: [{ operation: 'insert_page', title: 'Late', document: { markdown: '# Late' } }],
      }),
    );
    assert.equal(failure.code, 409, 'an archived change request cannot change');
  });

  test('a merged change request: status merged, revisionMerged, and further edits are 409', async () => {
    const docs = await buildDocs();
    const { data: cr } = await api.spaces.getChangeRequestById(docs.spaceId, docs.cr.id);
    assert.equal(cr.status, 'merged');
    assert.equal(cr.revisionMerged, docs.revision);
    assert.equal(cr.revision, docs.crRevision);
    const merged = await api.spaces.listChangeRequestsForSpace(docs.spaceId, {
      status: 'merged' as ChangeRequest['status'],
    });
    assert.deepEqual(
      merged.data.items.map((c) => c.id),
      [docs.cr.id],
    );
    assert.equal(
      (
        await clientFailure(
          api.spaces.updateChangeRequestById(docs.spaceId, cr.id, { subject: 'x' }),
        )
      ).code,
      409,
    );
    assert.equal(
      (await clientFailure0202(api202.spaces.mergeChangeRequest(docs.spaceId, cr.id))).code,
      409,
    );
  });
});

describe('content reads through the official client', () => {
  let docs: Awaited<ReturnType<typeof buildDocs>>;
  before(async () => {
    docs = await buildDocs();
  });

  test('getCurrentRevision and getRevisionById: the merge revision', async () => {
    const current = await api.spaces.getCurrentRevision(docs.spaceId);
    assert.equal(current.status, 200);
    const revision = current.data;
    assert.equal(revision.object, 'revision');
    assert.equal(revision.id, docs.revision);
    assert.equal(revision.type, 'merge');
    assert.deepEqual(revision.parents, [docs.initialRevision, docs.crRevision]);
    assert.ok(revision.type === 'merge');
    assert.equal(revision.mergedFrom.id, docs.cr.id);
    assert.equal(revision.mergedFrom.status, 'merged');
    assert.equal((await api.spaces.getSpaceById(docs.spaceId)).data.revision, docs.revision);

    const byId = await api.spaces.getRevisionById(docs.spaceId, docs.revision);
    assert.deepEqual(byId.data, revision);
    const initial = await api.spaces.getRevisionById(docs.spaceId, docs.initialRevision);
    assert.deepEqual(initial.data.pages, []);
    assert.equal(initial.data.type, 'edits');
  });

  test('listPages: the tree with slugs and paths', async () => {
    const { data } = await api.spaces.listPages(docs.spaceId);
    const pages = asPages(data.pages);
    assert.deepEqual(
      pages.map((p) => [p.title, p.type, p.kind, p.slug, p.path]),
      [
        ['Getting started', 'document', 'sheet', 'getting-started', 'getting-started'],
        ['Über uns', 'document', 'sheet', 'über-uns', 'über-uns'],
      ],
    );
    const install = pages[0]?.pages?.[0];
    assert.equal(install?.id, docs.ids.install);
    assert.equal(install?.path, 'getting-started/install');
    assert.equal(install?.documentId, docs.ids.install);
  });

  test('getPageById: format=markdown, format=document, neither', async () => {
    const markdown = await api.spaces.getPageById(docs.spaceId, docs.ids.install, {
      format: 'markdown',
    });
    assert.equal(markdown.status, 200);
    assert.equal(asPage(markdown.data).markdown, INSTALL_MARKDOWN);
    assert.equal(asPage(markdown.data).path, 'getting-started/install');

    const document = asPage(
      (await api.spaces.getPageById(docs.spaceId, docs.ids.install, { format: 'document' })).data,
    ).document;
    assert.equal(document?.object, 'document');
    // `# Install` is the page's title: left out of its document (docs/content.md).
    assert.equal(document?.nodes[0]?.type, 'paragraph');

    const plain = asPage((await api.spaces.getPageById(docs.spaceId, docs.ids.install)).data);
    assert.equal('markdown' in plain, false);
    assert.equal('document' in plain, false);
  });

  test('getPageByPath with a nested path as user code passes it, and pre-encoded', async () => {
    // The client puts the path into the URL as given: `content/path/getting-started/install`.
    const raw = await api.spaces.getPageByPath(docs.spaceId, 'getting-started/install');
    assert.equal(raw.status, 200);
    assert.equal(raw.data.id, docs.ids.install);
    assert.equal(asPage(raw.data).path, 'getting-started/install');
    const encoded = await api.spaces.getPageByPath(docs.spaceId, 'getting-started%2Finstall');
    assert.deepEqual(encoded.data, raw.data);
    const top = await api.spaces.getPageByPath(docs.spaceId, 'getting-started', {
      format: 'markdown',
    });
    assert.equal(top.data.id, docs.ids.gettingStarted);
    assert.equal(asPage(top.data).markdown, '# Getting started\n\nWelcome.\n');
    // A Unicode slug, unencoded (fetch percent-encodes it) and encodeURIComponent'd.
    const uber = await api.spaces.getPageByPath(docs.spaceId, 'über-uns');
    assert.equal(uber.data.id, docs.ids.uber);
    const uberEncoded = await api.spaces.getPageByPath(
      docs.spaceId,
      encodeURIComponent('über-uns'),
    );
    assert.equal(uberEncoded.data.id, docs.ids.uber);
  });

  test('a change request sees its own pages; the space does not until the merge', async () => {
    const { data: cr } = await api.spaces.createChangeRequest(docs.spaceId, { subject: 'Drafts' });
    await edit(docs.spaceId, cr.id, [
      {
        operation: 'insert_page',
        title: 'Upgrade',
        into: docs.ids.gettingStarted,
        document: { markdown: '# Upgrade\n\nLater.\n' },
      },
    ]);
    const listed = await api.spaces.listPagesInChangeRequest(docs.spaceId, cr.id);
    assert.equal(listed.status, 200);
    const upgrade = flatten(asPages(listed.data.pages)).find((p) => p.title === 'Upgrade');
    assert.ok(upgrade);
    assert.equal(upgrade.path, 'getting-started/upgrade');

    const byPath = await api.spaces.getPageInChangeRequestByPath(
      docs.spaceId,
      cr.id,
      'getting-started/upgrade',
    );
    assert.equal(byPath.data.id, upgrade.id);
    const byEncodedPath = await api.spaces.getPageInChangeRequestByPath(
      docs.spaceId,
      String(cr.number),
      'getting-started%2Fupgrade',
    );
    assert.equal(byEncodedPath.data.id, upgrade.id);
    const byId = await api.spaces.getPageInChangeRequestById(docs.spaceId, cr.id, upgrade.id, {
      format: 'markdown',
    });
    assert.equal(asPage(byId.data).markdown, '# Upgrade\n\nLater.\n');
    const crRevision = await api.spaces.getRevisionOfChangeRequestById(docs.spaceId, cr.id);
    assert.equal(
      crRevision.data.id,
      (await api.spaces.getChangeRequestById(docs.spaceId, cr.id)).data.revision,
    );

    const spacePages = flatten(asPages((await api.spaces.listPages(docs.spaceId)).data.pages));
    assert.equal(
      spacePages.some((p) => p.id === upgrade.id),
      false,
    );
    const missing = await clientFailure(
      api.spaces.getPageByPath(docs.spaceId, 'getting-started/upgrade'),
    );
    assert.equal(missing.code, 404);
    assert.ok(missing.errorMessage.includes('getting-started/upgrade'), missing.errorMessage);
  });
});

describe('revisions through the official client', () => {
  test('listPagesInRevisionById, getPageInRevisionByPath, getPageInRevisionById on an older revision after a later merge', async () => {
    const docs = await buildDocs();
    const { data: cr } = await api.spaces.createChangeRequest(docs.spaceId, { subject: 'Rename' });
    await edit(docs.spaceId, cr.id, [
      {
        operation: 'update_page',
        page: docs.ids.install,
        title: 'Installation',
        document: { markdown: '# Installation\n\nNew.\n' },
      },
      { operation: 'update_page', page: docs.ids.gettingStarted, slug: 'start' },
    ]);
    const merged = await api202.spaces.mergeChangeRequest(docs.spaceId, cr.id);
    assert.equal(merged.data.result, 'merge');

    const old = await api.spaces.listPagesInRevisionById(docs.spaceId, docs.revision);
    assert.equal(old.status, 200);
    const oldInstall = flatten(asPages(old.data.pages)).find((p) => p.id === docs.ids.install);
    assert.equal(oldInstall?.title, 'Install');
    assert.equal(oldInstall?.path, 'getting-started/install');

    for (const path of ['getting-started/install', 'getting-started%2Finstall']) {
      const page = await api.spaces.getPageInRevisionByPath(docs.spaceId, docs.revision, path, {
        format: 'markdown',
      });
      assert.equal(page.data.id, docs.ids.install, path);
      assert.equal(page.data.title, 'Install');
      assert.equal(asPage(page.data).markdown, INSTALL_MARKDOWN);
    }
    const oldById = await api.spaces.getPageInRevisionById(
      docs.spaceId,
      docs.revision,
      docs.ids.install,
    );
    assert.equal(oldById.data.title, 'Install');
    assert.equal(
      (
        await clientFailure(
          api.spaces.getPageInRevisionByPath(docs.spaceId, docs.revision, 'start/install'),
        )
      ).code,
      404,
    );

    const current = await api.spaces.getPageByPath(docs.spaceId, 'start/install');
    assert.equal(current.data.id, docs.ids.install);
    assert.equal(current.data.title, 'Installation');
    const newer = await api.spaces.getPageInRevisionByPath(
      docs.spaceId,
      merged.data.revision,
      'start/install',
    );
    assert.deepEqual(newer.data, current.data);
    assert.equal(
      (await clientFailure(api.spaces.getPageByPath(docs.spaceId, 'getting-started/install'))).code,
      404,
    );
  });

  test('updateChangeRequest (0.202) brings an outdated change request up to date, then it merges', async () => {
    const docs = await buildDocs();
    const { data: first } = await api.spaces.createChangeRequest(docs.spaceId, { subject: 'A' });
    const { data: second } = await api.spaces.createChangeRequest(docs.spaceId, { subject: 'B' });
    await edit(docs.spaceId, first.id, [
      { operation: 'insert_page', title: 'Alpha', document: { markdown: '# Alpha' } },
    ]);
    await edit(docs.spaceId, second.id, [
      { operation: 'insert_page', title: 'Beta', document: { markdown: '# Beta' } },
    ]);
    // Not outdated yet: updating changes nothing and answers its current revision.
    const edited = (await api.spaces.getChangeRequestById(docs.spaceId, first.id)).data;
    assert.equal(edited.outdated, false);
    const noop = await api202.spaces.updateChangeRequest(docs.spaceId, first.id);
    assert.deepEqual(noop.data, { revision: edited.revision, result: 'update' });
    assert.equal(
      (await api.spaces.getChangeRequestById(docs.spaceId, first.id)).data.revision,
      edited.revision,
    );

    const mergedFirst = await api202.spaces.mergeChangeRequest(docs.spaceId, first.id);
    assert.equal(mergedFirst.data.result, 'merge');

    const outdated = await api.spaces.getChangeRequestById(docs.spaceId, second.id);
    assert.equal(outdated.data.outdated, true, 'the space moved on since its base');
    const updated = await api202.spaces.updateChangeRequest(docs.spaceId, second.id);
    assert.equal(updated.status, 200);
    assert.equal(updated.data.result, 'update');
    const after = (await api.spaces.getChangeRequestById(docs.spaceId, second.id)).data;
    assert.equal(after.outdated, false);
    assert.equal(after.revision, updated.data.revision);
    assert.equal(after.revisionMergedAncestor, mergedFirst.data.revision);
    const crTitles = flatten(
      asPages((await api.spaces.listPagesInChangeRequest(docs.spaceId, second.id)).data.pages),
    ).map((p) => p.title);
    assert.ok(crTitles.includes('Alpha') && crTitles.includes('Beta'), crTitles.join(', '));

    const mergedSecond = await api202.spaces.mergeChangeRequest(docs.spaceId, second.id);
    assert.equal(mergedSecond.data.result, 'merge');
    const revision = (await api.spaces.getCurrentRevision(docs.spaceId)).data;
    assert.equal(revision.id, mergedSecond.data.revision);
    assert.deepEqual(revision.parents, [mergedFirst.data.revision, updated.data.revision]);
    assert.deepEqual(
      asPages(revision.pages)
        .map((p) => p.title)
        .sort(),
      ['Alpha', 'Beta', 'Getting started', 'Über uns'],
    );
  });
});

describe('spaces through the official client', () => {
  test('listSpacesInOrganizationById lists the organization’s spaces; deleteSpaceById removes one', async () => {
    const keep = await newSpace('Keep');
    const doomed = await buildDocs();
    const listed = await api.orgs.listSpacesInOrganizationById(t.orgId, { limit: 1000 });
    assert.equal(listed.status, 200);
    const ids = listed.data.items.map((s) => s.id);
    assert.ok(ids.includes(keep.id) && ids.includes(doomed.spaceId));
    const entry = listed.data.items.find((s) => s.id === doomed.spaceId);
    assert.equal(entry?.revision, doomed.revision);

    const deleted = await api.spaces.deleteSpaceById(doomed.spaceId);
    assert.equal(deleted.status, 205);
    for (const gone of [
      () => api.spaces.getCurrentRevision(doomed.spaceId),
      () => api.spaces.listPages(doomed.spaceId),
      () => api.spaces.getRevisionById(doomed.spaceId, doomed.revision),
      () => api.spaces.getChangeRequestById(doomed.spaceId, doomed.cr.id),
    ]) {
      assert.equal((await clientFailure(gone())).code, 404);
    }
    const after = await api.orgs.listSpacesInOrganizationById(t.orgId, { limit: 1000 });
    const remaining = after.data.items.map((s) => s.id);
    assert.equal(remaining.includes(doomed.spaceId), false);
    assert.ok(remaining.includes(keep.id));
  });

  test('deleteSpaceById: a space a site shows is a 409 naming the site', async () => {
    const space = await newSpace('Shown');
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Public docs',
      spaces: [space.id],
    });
    const failure = await clientFailure(api.spaces.deleteSpaceById(space.id));
    assert.equal(failure.code, 409);
    assert.ok(
      failure.errorMessage.includes(site.id) || failure.errorMessage.includes('Public docs'),
      failure.errorMessage,
    );
    assert.equal((await api.spaces.getCurrentRevision(space.id)).status, 200, 'still there');
  });
});

describe('failures arrive as GitBookAPIError', () => {
  test('404s: unknown space, revision, page, path, change request', async () => {
    const docs = await buildDocs();
    // Thunks: a call starts only when its turn comes, so no rejection goes unhandled meanwhile.
    const cases: [() => Promise<unknown>, RegExp][] = [
      [() => api.spaces.getCurrentRevision('space_unknown'), /space_unknown/],
      [() => api.spaces.getRevisionById(docs.spaceId, 'rev_unknown'), /rev_unknown/],
      [() => api.spaces.getPageById(docs.spaceId, 'page_unknown'), /page_unknown/],
      [() => api.spaces.getPageByPath(docs.spaceId, 'no/such/page'), /no\/such\/page/],
      [() => api.spaces.getChangeRequestById(docs.spaceId, 'cr_unknown'), /cr_unknown/],
      [() => api.spaces.listPagesInChangeRequest(docs.spaceId, '999'), /999/],
      [() => api.spaces.listPagesInRevisionById(docs.spaceId, 'rev_unknown'), /rev_unknown/],
    ];
    for (const [call, named] of cases) {
      const failure = await clientFailure(call());
      assert.equal(failure.code, 404);
      assert.equal(failure.response.status, 404);
      assert.match(failure.errorMessage, named);
    }
  });
});
