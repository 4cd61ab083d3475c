import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { byTitle, pagesOf, publishChanges } from '../helpers/insights.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

/**
 * Site structure changes (issue 29 §1): list, update, delete and move sections, section groups
 * and external links; moveSiteSpace, duplicateSiteSpace, sortSiteStructure; addSpaceToSite and
 * updateSiteById in a site with sections. Every rule of GitSyncSiteConfig and every error case
 * answers a 4xx naming the field, and a refused request changes nothing (read back).
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Json = Record<string, unknown> & { id: string };
type Structure = { type: string; structure: Json[] };

const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object) =>
  t.request({ method, url, ...(payload === undefined ? {} : { payload }) });
const ok = async (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object, status = 200) =>
  expectStatus(await send(method, url, payload), status) as Json;
const structureOf = async (base: string) =>
  (await ok('GET', `${base}/structure`)) as unknown as Structure;

/** The structure as a compact outline: ids of nodes, with groups' children and sections' variants. */
function outline(nodes: readonly Json[]): unknown[] {
  return nodes.map((n) =>
    n.object === 'site-section-group'
      ? { [n.id]: outline(n.children as Json[]) }
      : n.object === 'site-section'
        ? { [n.id]: (n.siteSpaces as Json[]).map((v) => `${v.id}${v.default ? '*' : ''}`) }
        : n.id,
  );
}

/** Asserts a 4xx naming the field, and that the site's structure did not change. */
async function refused(
  base: string,
  request: () => Promise<{ statusCode: number; body: string }>,
  status: number,
  field: RegExp,
) {
  const before = await structureOf(base);
  const response = await request();
  assert.match(expectError(response as never, status), field);
  assert.deepEqual(await structureOf(base), before, 'nothing changed');
}

/**
 * A sectioned site: A (default; the site's two first variants), B, and group G holding C;
 * a link L at the root.
 */
async function sectioned() {
  const f = await createSite(t, 2);
  const b = await ok('POST', `${f.base}/sections`, { spaceId: null, title: 'Bravo' }, 201);
  const c = await ok('POST', `${f.base}/sections`, { spaceId: null, title: 'Charlie' }, 201);
  const g = await ok('POST', `${f.base}/section-groups`, { title: 'Group', sections: [c.id] }, 201);
  const l = await ok(
    'POST',
    `${f.base}/external-links`,
    { title: 'Status', url: 'https://status.example.com' },
    201,
  );
  const structure = await structureOf(f.base);
  const a = structure.structure[0] as Json;
  return { ...f, a, b, c, g, l };
}

describe('listSiteSections / listSiteSectionGroups', () => {
  test('reading order through groups, paginated', async () => {
    const s = await sectioned();
    const inner = await ok(
      'POST',
      `${s.base}/section-groups`,
      { title: 'Inner', parent: s.g.id },
      201,
    );
    const all = await ok('GET', `${s.base}/sections`);
    assert.deepEqual(
      (all.items as Json[]).map((x) => x.id),
      [s.a.id, s.b.id, s.c.id],
    );
    assert.equal(all.count, 3);
    const first = await ok('GET', `${s.base}/sections?limit=2`);
    assert.equal((first.items as Json[]).length, 2);
    const next = (first.next as { page: string }).page;
    const second = await ok('GET', `${s.base}/sections?limit=2&page=${next}`);
    assert.deepEqual(
      (second.items as Json[]).map((x) => x.id),
      [s.c.id],
    );
    assert.equal(second.next, undefined);
    const groups = await ok('GET', `${s.base}/section-groups`);
    assert.deepEqual(
      (groups.items as Json[]).map((x) => x.id),
      [s.g.id, inner.id],
    );
    expectError(await send('GET', `${s.base}/sections?page=nope`), 400);
  });
});

describe('updateSiteSectionById', () => {
  test('changes title, path, icon, texts; moves into a group and back', async () => {
    const s = await sectioned();
    const url = `${s.base}/sections/${s.b.id}`;
    const changed = await ok('PATCH', url, {
      title: 'Billing',
      path: 'billing',
      icon: 'credit-card',
      description: 'Pay',
      localizedTitle: { fr: 'Facturation' },
      localizedDescription: { fr: 'Payer' },
      condition: null,
    });
    assert.equal(changed.title, 'Billing');
    assert.equal(changed.path, 'billing');
    assert.equal(changed.icon, 'credit-card');
    assert.equal(changed.description, 'Pay');
    assert.deepEqual(changed.localizedTitle, { fr: 'Facturation' });
    assert.deepEqual(changed.localizedDescription, { fr: 'Payer' });
    const grouped = await ok('PATCH', url, { siteSectionGroupId: s.g.id });
    assert.equal(grouped.sectionGroup, s.g.id);
    assert.deepEqual(outline((await structureOf(s.base)).structure).length, 3);
    const back = await ok('PATCH', url, {
      siteSectionGroupId: null,
      icon: null,
      description: null,
    });
    assert.equal(back.sectionGroup, undefined);
    assert.equal(back.icon, undefined);
    assert.equal(back.description, undefined);
    const last = (await structureOf(s.base)).structure.at(-1);
    assert.equal(last?.id, s.b.id, 'moved to the root goes last');
  });

  test('refusals name the field and change nothing', async () => {
    const s = await sectioned();
    const url = (id: string) => `${s.base}/sections/${id}`;
    await refused(
      s.base,
      () => send('PATCH', url(s.b.id), { path: s.a.path as string }),
      409,
      /^body\.path/,
    );
    await refused(s.base, () => send('PATCH', url(s.b.id), { path: 'a/b' }), 400, /body\.path/);
    await refused(
      s.base,
      () => send('PATCH', url(s.b.id), { title: 'New', defaultSiteSpace: s.siteSpaceIds[0] }),
      400,
      /^body\.defaultSiteSpace: no site-space .* in section/,
    );
    await refused(
      s.base,
      () => send('PATCH', url(s.a.id), { title: 'New', draft: true }),
      400,
      /^body\.draft: section .* default section/,
    );
    await refused(
      s.base,
      () => send('PATCH', url(s.b.id), { title: 'New', condition: 'visitor.x' }),
      400,
      /^body\.condition: Livery has no conditional structure/,
    );
    await refused(
      s.base,
      () => send('PATCH', url(s.b.id), { title: 'New', siteSectionGroupId: 'sitesg_nope' }),
      400,
      /^body\.siteSectionGroupId/,
    );
    await refused(s.base, () => send('PATCH', url(s.b.id), { title: 'x' }), 400, /body\.title/);
    await refused(
      s.base,
      () => send('PATCH', url(s.b.id), { localizedTitle: { xx: 'a' } }),
      400,
      /body\.localizedTitle/,
    );
    await refused(
      s.base,
      () => send('PATCH', url('sitesc_nope'), { title: 'New' }),
      404,
      /sitesc_nope/,
    );
  });

  test('defaultSiteSpace makes another variant of the section its default', async () => {
    const s = await sectioned();
    const second = s.siteSpaceIds[1] as string;
    const changed = await ok('PATCH', `${s.base}/sections/${s.a.id}`, { defaultSiteSpace: second });
    assert.deepEqual(
      (changed.siteSpaces as Json[]).map((v) => [v.id, v.default]),
      [
        [s.siteSpaceIds[0], false],
        [second, true],
      ],
    );
  });
});

describe('updateSiteById defaultSiteSection', () => {
  test('another section becomes the default; unknown or draft sections are refused', async () => {
    const s = await sectioned();
    await refused(
      s.base,
      () => send('PATCH', s.base, { title: 'Renamed', defaultSiteSection: 'sitesc_nope' }),
      400,
      /^body\.defaultSiteSection: no section/,
    );
    await ok('PATCH', `${s.base}/sections/${s.c.id}`, { draft: true });
    await refused(
      s.base,
      () => send('PATCH', s.base, { defaultSiteSection: s.c.id }),
      400,
      /^body\.defaultSiteSection: section .* is a draft/,
    );
    await ok('PATCH', s.base, { defaultSiteSection: s.b.id });
    const sections = (await ok('GET', `${s.base}/sections`)).items as Json[];
    assert.deepEqual(
      sections.map((x) => x.default),
      [false, true, false],
    );
  });
});

describe('deleteSiteSectionById', () => {
  test('deletes its site-spaces (not their spaces); the default passes on; 205 then 204', async () => {
    const s = await sectioned();
    const del = (id: string) => send('DELETE', `${s.base}/sections/${id}`);
    assert.equal((await del(s.a.id)).statusCode, 205);
    assert.equal((await del(s.a.id)).statusCode, 204);
    const sections = (await ok('GET', `${s.base}/sections`)).items as Json[];
    assert.deepEqual(
      sections.map((x) => [x.id, x.default]),
      [
        [s.b.id, true],
        [s.c.id, false],
      ],
    );
    const variants = (await ok('GET', `${s.base}/site-spaces`)).items as Json[];
    assert.equal(variants.length, 2);
    for (const spaceId of s.spaceIds) await ok('GET', `/v1/spaces/${spaceId}`);
  });

  test('the last section goes only when no group or link remains', async () => {
    const f = await createSite(t, 1);
    const only = (await (async () => {
      await ok('POST', `${f.base}/sections`, { spaceId: null, title: 'Second' }, 201);
      return (await structureOf(f.base)).structure;
    })()) as Json[];
    const [first, second] = only as [Json, Json];
    const link = await ok(
      'POST',
      `${f.base}/external-links`,
      { title: 'Blog', url: 'https://blog.example.com' },
      201,
    );
    assert.equal((await send('DELETE', `${f.base}/sections/${first.id}`)).statusCode, 205);
    await refused(
      f.base,
      () => send('DELETE', `${f.base}/sections/${second.id}`),
      400,
      /^siteSectionId: .* last section/,
    );
    assert.equal((await send('DELETE', `${f.base}/external-links/${link.id}`)).statusCode, 205);
    assert.equal((await send('DELETE', `${f.base}/external-links/${link.id}`)).statusCode, 204);
    assert.equal((await send('DELETE', `${f.base}/sections/${second.id}`)).statusCode, 205);
    assert.deepEqual(await structureOf(f.base), { type: 'siteSpaces', structure: [] });
  });
});

describe('section groups', () => {
  test('groups nest one level, never into themselves; deleting one keeps what it held', async () => {
    const s = await sectioned();
    const inner = await ok(
      'POST',
      `${s.base}/section-groups`,
      { title: 'Inner', parent: s.g.id },
      201,
    );
    assert.equal(inner.sectionGroup, s.g.id);
    await refused(
      s.base,
      () => send('POST', `${s.base}/section-groups`, { title: 'Third', parent: inner.id }),
      400,
      /^body\.parent: group .* nest one level/,
    );
    await refused(
      s.base,
      () => send('POST', `${s.base}/section-groups`, { title: 'X', sections: [s.b.id, s.b.id] }),
      400,
      /^body\.sections\[1\]: .* twice/,
    );
    await refused(
      s.base,
      () => send('POST', `${s.base}/section-groups`, { title: 'X', sections: ['sitesc_nope'] }),
      400,
      /^body\.sections\[0\]/,
    );
    await refused(
      s.base,
      () => send('PATCH', `${s.base}/section-groups/${s.g.id}`, { parentSectionGroupId: inner.id }),
      400,
      /^body\.parentSectionGroupId: group .* into itself or one of its own groups/,
    );
    await refused(
      s.base,
      () => send('PATCH', `${s.base}/section-groups/${s.g.id}`, { parentSectionGroupId: s.g.id }),
      400,
      /^body\.parentSectionGroupId/,
    );
    const other = await ok('POST', `${s.base}/section-groups`, { title: 'Other' }, 201);
    await refused(
      s.base,
      () => send('PATCH', `${s.base}/section-groups/${s.g.id}`, { parentSectionGroupId: other.id }),
      400,
      /^body\.parentSectionGroupId: group .* holds groups/,
    );
    const renamed = await ok('PATCH', `${s.base}/section-groups/${inner.id}`, {
      title: 'Renamed',
      localizedTitle: { de: 'Umbenannt' },
      icon: 'book',
      draft: true,
      parentSectionGroupId: other.id,
    });
    assert.equal(renamed.sectionGroup, other.id);
    assert.equal(renamed.draft, true);
    assert.deepEqual(renamed.localizedTitle, { de: 'Umbenannt' });
    // G (holding C) is deleted: C takes its place, before L.
    assert.equal((await send('DELETE', `${s.base}/section-groups/${s.g.id}`)).statusCode, 205);
    assert.equal((await send('DELETE', `${s.base}/section-groups/${s.g.id}`)).statusCode, 204);
    assert.deepEqual(
      (await structureOf(s.base)).structure.map((n) => n.id),
      [s.a.id, s.b.id, s.c.id, s.l.id, other.id],
    );
  });
});

describe('moveSiteSection / moveSiteSectionGroup / sortSiteStructure', () => {
  test('before and after, into a group by its member, last without a position', async () => {
    const s = await sectioned();
    const move = (id: string, payload?: object) =>
      ok('POST', `${s.base}/sections/${id}/move`, payload);
    await move(s.b.id, { position: { before: { type: 'site-section', siteSection: s.a.id } } });
    assert.deepEqual(
      (await structureOf(s.base)).structure.map((n) => n.id),
      [s.b.id, s.a.id, s.g.id, s.l.id],
    );
    const joined = await move(s.a.id, {
      position: { after: { type: 'site-section', siteSection: s.c.id } },
    });
    assert.equal(joined.sectionGroup, s.g.id);
    const group = (await structureOf(s.base)).structure.find((n) => n.id === s.g.id) as Json;
    assert.deepEqual(
      (group.children as Json[]).map((n) => n.id),
      [s.c.id, s.a.id],
    );
    const last = await move(s.a.id);
    assert.equal(last.sectionGroup, undefined);
    assert.equal((await structureOf(s.base)).structure.at(-1)?.id, s.a.id);
  });

  test('refusals: unknown, itself, both sides, a cycle of groups, the wrong kind', async () => {
    const s = await sectioned();
    const url = (id: string) => `${s.base}/sections/${id}/move`;
    const pointer = (id: string) => ({ type: 'site-section', siteSection: id });
    await refused(
      s.base,
      () => send('POST', url(s.b.id), { position: { before: pointer('sitesc_nope') } }),
      400,
      /^body\.position\.before: no site-section/,
    );
    await refused(
      s.base,
      () => send('POST', url(s.b.id), { position: { after: pointer(s.b.id) } }),
      400,
      /^body\.position\.after: .* itself/,
    );
    await refused(
      s.base,
      () =>
        send('POST', url(s.b.id), {
          position: { before: pointer(s.a.id), after: pointer(s.c.id) },
        }),
      400,
      /^body\.position: give before or after/,
    );
    await refused(s.base, () => send('POST', url('sitesc_nope'), {}), 404, /sitesc_nope/);
    // Moving group G next to C, which G holds, would put G inside itself.
    await refused(
      s.base,
      () =>
        send('POST', `${s.base}/section-groups/${s.g.id}/move`, {
          position: { before: { type: 'site-section', id: s.c.id } },
        }),
      400,
      /^body\.position\.before: group .* into itself/,
    );
    await refused(
      s.base,
      () =>
        send('PATCH', `${s.base}/structure/sort`, {
          item: { type: 'site-section', id: s.b.id },
          position: { before: { type: 'site-space', id: s.siteSpaceIds[0] } },
        }),
      400,
      /^body\.position\.before: a site-section moves among/,
    );
    await refused(
      s.base,
      () =>
        send('PATCH', `${s.base}/structure/sort`, {
          item: { type: 'site-external-link', id: 'siteel_nope' },
          position: {},
        }),
      404,
      /siteel_nope/,
    );
  });

  test('groups move among nodes; sort moves any item and answers it', async () => {
    const s = await sectioned();
    const moved = await ok('POST', `${s.base}/section-groups/${s.g.id}/move`, {
      position: { before: { type: 'site-section', id: s.a.id } },
    });
    assert.equal(moved.object, 'site-section-group');
    assert.equal((await structureOf(s.base)).structure[0]?.id, s.g.id);
    const link = await ok('PATCH', `${s.base}/structure/sort`, {
      item: { type: 'site-external-link', id: s.l.id },
      position: { after: { type: 'site-section', id: s.c.id } },
    });
    assert.equal(link.object, 'site-external-link');
    assert.equal(link.sectionGroup, s.g.id);
    const variant = await ok('PATCH', `${s.base}/structure/sort`, {
      item: { type: 'site-space', id: s.siteSpaceIds[1] },
      position: { before: { type: 'site-space', id: s.siteSpaceIds[0] } },
    });
    assert.equal(variant.object, 'site-space');
    const a = (await ok('GET', `${s.base}/sections`)).items as Json[];
    assert.deepEqual(
      ((a.find((x) => x.id === s.a.id) as Json).siteSpaces as Json[]).map((v) => v.id),
      [s.siteSpaceIds[1], s.siteSpaceIds[0]],
    );
  });
});

describe('site-spaces in sections', () => {
  test('addSpaceToSite needs a section in a sectioned site; paths are unique per section', async () => {
    const s = await sectioned();
    const spaceId = s.spaceIds[0] as string;
    await refused(
      s.base,
      () => send('POST', `${s.base}/site-spaces`, { spaceId }),
      400,
      /^body\.sectionId: the site has sections/,
    );
    await refused(
      s.base,
      () => send('POST', `${s.base}/site-spaces`, { spaceId, sectionId: 'sitesc_nope' }),
      400,
      /^body\.sectionId: no section/,
    );
    const added = await ok(
      'POST',
      `${s.base}/site-spaces`,
      { spaceId, sectionId: s.b.id, title: 'Variant 0' },
      201,
    );
    assert.equal(added.section, s.b.id);
    assert.equal(added.default, false);
    // The same path as a variant of section A: allowed in another section.
    const listed = (await ok('GET', `${s.base}/site-spaces`)).items as Json[];
    const aPath = listed.find((v) => v.id === s.siteSpaceIds[0])?.path as string;
    const samePath = await ok('PATCH', `${s.base}/site-spaces/${added.id}`, { path: aPath });
    assert.equal(samePath.path, aPath);
    const second = s.siteSpaceIds[1] as string;
    await refused(
      s.base,
      () => send('PATCH', `${s.base}/site-spaces/${second}`, { path: aPath }),
      409,
      /^body\.path/,
    );
  });

  test('the last site-space of a section is never deleted or moved out alone', async () => {
    const s = await sectioned();
    const bVariant = (s.b.siteSpaces as Json[])[0]?.id as string;
    await refused(
      s.base,
      () => send('DELETE', `${s.base}/site-spaces/${bVariant}`),
      400,
      /^siteSpaceId: .* only one of its section/,
    );
    await refused(
      s.base,
      () =>
        send('POST', `${s.base}/site-spaces/${bVariant}/move`, {
          position: { after: { type: 'site-space', siteSpace: s.siteSpaceIds[0] } },
        }),
      400,
      /^body\.position\.after: .* only one of (its )?section/,
    );
  });

  test('moveSiteSpace: to another section (the default passes on), path clash 409', async () => {
    const s = await sectioned();
    const [first, second] = s.siteSpaceIds as [string, string];
    const bVariant = (s.b.siteSpaces as Json[])[0]?.id as string;
    const moved = await ok('POST', `${s.base}/site-spaces/${first}/move`, {
      position: { before: { type: 'site-space', siteSpace: bVariant } },
    });
    assert.equal(moved.section, s.b.id);
    assert.equal(moved.default, false);
    const structure = outline((await structureOf(s.base)).structure);
    assert.deepEqual(structure[0], { [s.a.id]: [`${second}*`] });
    assert.deepEqual(structure[1], { [s.b.id]: [first, `${bVariant}*`] });
    // A variant with the same path as one of section A cannot join it.
    const clash = await ok(
      'POST',
      `${s.base}/site-spaces`,
      { spaceId: s.spaceIds[0], sectionId: s.b.id, title: 'Variant 1' },
      201,
    );
    await refused(
      s.base,
      () =>
        send('POST', `${s.base}/site-spaces/${clash.id}/move`, {
          position: { after: { type: 'site-space', siteSpace: second } },
        }),
      409,
      /^body\.position\.after: site-space .* already has the path/,
    );
    const end = await ok('POST', `${s.base}/site-spaces/${first}/move`, {});
    assert.equal(end.section, s.b.id);
  });

  test('duplicateSiteSpace: a copy of the space and its pages, right after it', async () => {
    const s = await sectioned();
    const [first, second] = s.siteSpaceIds as [string, string];
    const spaceId = s.spaceIds[0] as string;
    await publishChanges(t, spaceId, [
      { operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello copy' } },
    ]);
    const copy = await ok('POST', `${s.base}/site-spaces/${first}/duplicate`, { draft: true }, 201);
    assert.equal(copy.draft, true);
    assert.equal(copy.default, false);
    assert.equal(copy.section, s.a.id);
    assert.match(copy.path as string, /-copy$/);
    const copied = copy.space as Json;
    assert.notEqual(copied.id, spaceId);
    assert.equal(copied.title, 'Variant 0 (copy)');
    const pages = await pagesOf(t, copied.id);
    const intro = byTitle(pages, 'Intro');
    const doc = await ok('GET', `/v1/spaces/${copied.id}/content/page/${intro.id}?format=markdown`);
    assert.match(JSON.stringify(doc), /Hello copy/);
    const a = outline((await structureOf(s.base)).structure)[0];
    assert.deepEqual(a, { [s.a.id]: [`${first}*`, copy.id, second] });
    await refused(
      s.base,
      () => send('POST', `${s.base}/site-spaces/sitesp_nope/duplicate`),
      404,
      /sitesp_nope/,
    );
  });
});

describe('external links', () => {
  test('update: url, texts, parent; null removes; refusals change nothing', async () => {
    const s = await sectioned();
    const url = `${s.base}/external-links/${s.l.id}`;
    const changed = await ok('PATCH', url, {
      title: 'Uptime',
      url: 'http://uptime.example.com/',
      localizedTitle: { fr: 'Disponibilité' },
      description: 'Up?',
      parent: s.g.id,
      draft: true,
    });
    assert.equal(changed.url, 'http://uptime.example.com/');
    assert.equal(changed.sectionGroup, s.g.id);
    assert.equal(changed.draft, true);
    const cleared = await ok('PATCH', url, {
      localizedTitle: null,
      description: null,
      parent: null,
    });
    assert.equal(cleared.localizedTitle, undefined);
    assert.equal(cleared.description, undefined);
    assert.equal(cleared.sectionGroup, undefined);
    await refused(
      s.base,
      () => send('PATCH', url, { url: 'javascript:alert(1)' }),
      400,
      /^body\.url/,
    );
    await refused(
      s.base,
      () => send('PATCH', url, { title: 'Ok', parent: 'sitesg_nope' }),
      400,
      /^body\.parent/,
    );
    await refused(s.base, () => send('PATCH', url, { condition: 'x' }), 400, /^body\.condition/);
    await refused(
      s.base,
      () => send('PATCH', `${s.base}/external-links/siteel_nope`, { title: 'Ok' }),
      404,
      /siteel_nope/,
    );
  });
});

describe('permissions and audit', () => {
  test('a reader reads the structure and changes nothing; changes are audited', async () => {
    const s = await sectioned();
    const reader = await memberWithRole(t, 'read');
    const read = await requestAs(t, reader, { method: 'GET', url: `${s.base}/structure` });
    assert.equal(read.statusCode, 200);
    await refused(
      s.base,
      () =>
        requestAs(t, reader, {
          method: 'POST',
          url: `${s.base}/sections`,
          payload: { spaceId: null },
        }),
      403,
      /admin/,
    );
    const log = await ok('GET', `/v1/orgs/${t.orgId}/audit-log?action=site.structure.changed`);
    const ops = (log.items as { details: { operation: string; kind: string } }[]).map(
      (e) => `${e.details.operation} ${e.details.kind}`,
    );
    for (const expected of [
      'add site-section',
      'add site-section-group',
      'add site-external-link',
    ]) {
      assert.ok(ops.includes(expected), expected);
    }
  });
});
