import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';

/**
 * Site structure (issue 29 §1): sections, section groups, external links, getSiteStructure, in
 * GitBook 0.202's shapes; the rules of GitSyncSiteConfig hold, and a refused change changes
 * nothing (read back).
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Json = Record<string, unknown> & { id: string };
type Structure = { type: string; structure: Json[] };

const post = async (url: string, payload: object, status = 201) =>
  expectStatus(await t.request({ method: 'POST', url, payload }), status) as Json;
const structureOf = async (base: string) =>
  expectStatus(await t.request({ method: 'GET', url: `${base}/structure` }), 200) as Structure;
/** The item at `index`, which must exist. */
function nth<T>(list: readonly T[] | unknown, index: number): T {
  const item = (list as T[])[index];
  assert.ok(item !== undefined, `no item ${index}`);
  return item;
}
const newSpace = async (title: string) => post(`/v1/orgs/${t.orgId}/spaces`, { title });

describe('getSiteStructure', () => {
  test('a site without sections answers its site-spaces', async () => {
    const f = await createSite(t, 2);
    const structure = await structureOf(f.base);
    assert.equal(structure.type, 'siteSpaces');
    assert.deepEqual(
      structure.structure.map((s) => s.id),
      f.siteSpaceIds,
    );
    assert.equal(structure.structure[0]?.object, 'site-space');
  });

  test('an unknown site is a 404', async () => {
    expectError(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites/site_nope/structure` }),
      404,
    );
  });
});

describe('addSectionToSite', () => {
  test('the first section gathers the existing variants into a default section', async () => {
    const f = await createSite(t, 2);
    const space = await newSpace('API reference');
    const section = await post(`${f.base}/sections`, { spaceId: space.id, title: 'API' });
    assert.equal(section.object, 'site-section');
    assert.equal(section.title, 'API');
    assert.equal(section.path, 'api');
    assert.equal(section.default, false);
    assert.equal(section.draft, false);
    const variants = section.siteSpaces as Json[];
    assert.equal(variants.length, 1);
    assert.equal((nth<Json>(variants, 0).space as Json).id, space.id);
    assert.equal(variants[0]?.default, true);
    assert.equal(variants[0]?.section, section.id);

    const structure = await structureOf(f.base);
    assert.equal(structure.type, 'sections');
    assert.equal(structure.structure.length, 2);
    const [first, second] = structure.structure;
    assert.equal(first?.default, true);
    assert.deepEqual(
      (nth<Json>(structure.structure, 0).siteSpaces as Json[]).map((s) => s.id),
      f.siteSpaceIds,
    );
    assert.equal(second?.id, section.id);
  });

  test('spaceId null creates a space titled like the section; a group holds it', async () => {
    const f = await createSite(t, 1);
    await post(`${f.base}/sections`, { spaceId: null, title: 'Guides' });
    const group = await post(`${f.base}/section-groups`, { title: 'Products' });
    const inGroup = await post(`${f.base}/sections`, {
      spaceId: null,
      title: 'Billing',
      siteSectionGroupId: group.id,
      icon: 'credit-card',
    });
    assert.equal(inGroup.sectionGroup, group.id);
    assert.equal(inGroup.icon, 'credit-card');
    const created = nth<Json>(inGroup.siteSpaces, 0).space as Json;
    assert.equal(created.title, 'Billing');
    const structure = await structureOf(f.base);
    const shownGroup = structure.structure.find((n) => n.id === group.id);
    assert.deepEqual(
      ((shownGroup?.children ?? []) as Json[]).map((c) => c.id),
      [inGroup.id],
    );
    assert.deepEqual(
      ((shownGroup?.sections ?? []) as Json[]).map((c) => c.id),
      [inGroup.id],
    );
  });

  test('refusals name the field and change nothing', async () => {
    const f = await createSite(t, 1);
    const before = await structureOf(f.base);
    assert.match(
      expectError(
        await t.request({
          method: 'POST',
          url: `${f.base}/sections`,
          payload: { spaceId: 'space_nope' },
        }),
        400,
      ),
      /body\.spaceId/,
    );
    assert.match(
      expectError(
        await t.request({
          method: 'POST',
          url: `${f.base}/sections`,
          payload: { spaceId: null, siteSectionGroupId: 'sitesg_nope' },
        }),
        400,
      ),
      /body\.siteSectionGroupId/,
    );
    assert.match(
      expectError(
        await t.request({
          method: 'POST',
          url: `${f.base}/sections`,
          payload: { spaceId: null, template: { id: 'x' } },
        }),
        400,
      ),
      /body\.template/,
    );
    assert.deepEqual(await structureOf(f.base), before);
  });
});

describe('addExternalLinkToSite / addSectionGroupToSite', () => {
  test('need a site with sections', async () => {
    const f = await createSite(t, 1);
    assert.match(
      expectError(
        await t.request({
          method: 'POST',
          url: `${f.base}/external-links`,
          payload: { title: 'Status', url: 'https://status.example.com' },
        }),
        400,
      ),
      /body\.url: the site has no sections/,
    );
    assert.match(
      expectError(
        await t.request({
          method: 'POST',
          url: `${f.base}/section-groups`,
          payload: { title: 'Group' },
        }),
        400,
      ),
      /no sections/,
    );
    assert.equal((await structureOf(f.base)).type, 'siteSpaces');
  });

  test('a link at the root and in a group, with localized texts', async () => {
    const f = await createSite(t, 1);
    const section = await post(`${f.base}/sections`, { spaceId: null, title: 'Second' });
    const group = await post(`${f.base}/section-groups`, {
      title: 'More',
      sections: [section.id],
    });
    assert.deepEqual(
      (group.children as Json[]).map((c) => c.id),
      [section.id],
    );
    const link = await post(`${f.base}/external-links`, {
      title: 'Status',
      url: 'https://status.example.com',
      localizedTitle: { fr: 'État' },
      description: 'Is it up?',
      parent: group.id,
    });
    assert.equal(link.object, 'site-external-link');
    assert.deepEqual(link.localizedTitle, { fr: 'État' });
    assert.equal(link.sectionGroup, group.id);
    const root = await post(`${f.base}/external-links`, {
      title: 'Blog',
      url: 'http://blog.example.com/',
    });
    assert.equal(root.sectionGroup, undefined);
    for (const url of ['javascript:alert(1)', 'ftp://x.example.com', '/relative']) {
      assert.match(
        expectError(
          await t.request({
            method: 'POST',
            url: `${f.base}/external-links`,
            payload: { title: 'Bad', url },
          }),
          400,
        ),
        /body\.url/,
      );
    }
    const structure = await structureOf(f.base);
    assert.deepEqual(
      structure.structure.map((n) => n.object),
      ['site-section', 'site-section-group', 'site-external-link'],
    );
  });
});
