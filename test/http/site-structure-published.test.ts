/**
 * A published site with sections (issue 29 §1): each section's pages at
 * `/s/{site}/{section}/{variant}/{page}` (the default section and each section's default variant
 * without their segment), the URL lookup's answers with the section, and the renderer's published
 * view `{type: 'sections'}`; drafts are not published.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { publishChanges } from '../helpers/insights.js';
import { type PublishedSite, publishedSite, visit } from '../helpers/published.js';

const PUBLIC = 'http://docs.acme.test/s/';
let t: TestContext;
let site: PublishedSite;
let api: { id: string; variants: string[] };
let draft: { id: string };

type Json = Record<string, unknown> & { id: string };
const ok = async (method: 'POST' | 'GET' | 'PATCH', url: string, payload?: object, status = 200) =>
  expectStatus(
    await t.request({ method, url, ...(payload === undefined ? {} : { payload }) }),
    status,
  ) as Json;

/** A new space with one page titled `title` whose text is `text`. */
async function spaceWithPage(spaceTitle: string, title: string, text: string): Promise<string> {
  const space = await ok('POST', `/v1/orgs/${t.orgId}/spaces`, { title: spaceTitle }, 201);
  await publishChanges(t, space.id, [
    { operation: 'insert_page', title, document: { markdown: text } },
  ]);
  return space.id;
}

before(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC });
  site = await publishedSite(t, 'acme');
  const v2 = await spaceWithPage('API v2', 'Endpoints', 'The v2 endpoints');
  const v1 = await spaceWithPage('API v1', 'Endpoints', 'The old v1 endpoints');
  const section = await ok('POST', `${site.base}/sections`, { spaceId: v2, title: 'API' }, 201);
  const second = await ok(
    'POST',
    `${site.base}/site-spaces`,
    { spaceId: v1, sectionId: section.id, title: 'v1' },
    201,
  );
  api = { id: section.id, variants: [(section.siteSpaces as Json[])[0]?.id as string, second.id] };
  const hidden = await spaceWithPage('Secret', 'Plans', 'Not yet');
  draft = await ok(
    'POST',
    `${site.base}/sections`,
    { spaceId: hidden, title: 'Roadmap', draft: true },
    201,
  );
});
after(async () => t.close());

describe('the published site of a site with sections', () => {
  test("each section's pages at their addresses; drafts are not served", async () => {
    const home = await visit(t, '/s/acme/intro');
    assert.equal(home.statusCode, 200, 'the default section keeps the root');
    assert.match(home.body, /Welcome/);
    const v2 = await visit(t, '/s/acme/api/endpoints');
    assert.equal(v2.statusCode, 200);
    assert.match(v2.body, /The v2 endpoints/);
    const v1 = await visit(t, '/s/acme/api/v1/endpoints');
    assert.equal(v1.statusCode, 200);
    assert.match(v1.body, /The old v1 endpoints/);
    const own = await visit(t, '/s/acme/api/api-v2/endpoints');
    assert.equal(own.statusCode, 302, "a section default's own path redirects to the section");
    assert.equal(own.headers.location, '/s/acme/api/endpoints');
    // The variant switcher offers the section's variants (tabs for sections: another part).
    const switcher = /<div class="variants">(.*?)<\/div>/s.exec(v1.body)?.[1] ?? '';
    assert.deepEqual(
      [...switcher.matchAll(/>([^<]+)<\/a>/g)].map((m) => m[1]),
      ['API v2', 'v1'],
    );
    const roadmap = await visit(t, '/s/acme/roadmap/plans');
    assert.equal(roadmap.statusCode, 404, 'a draft section is not published');
    assert.doesNotMatch(roadmap.body, /Not yet/);
  });

  test('the URL lookup names the section and its paths', async () => {
    const resolve = async (url: string) =>
      expectStatus(
        await t.app.inject({
          method: 'POST',
          url: '/v1/urls/published',
          payload: { url: `${PUBLIC}${url}` },
          headers: { authorization: `Bearer ${t.token}` },
        }),
        200,
      );
    const page = await resolve('acme/api/v1/endpoints');
    assert.equal(page.siteSection, api.id);
    assert.equal(page.siteSpace, api.variants[1]);
    assert.equal(page.basePath, '/s/acme/api/v1/');
    assert.equal(page.siteBasePath, '/s/acme/');
    assert.equal(page.pathname, 'endpoints');
    assert.equal(page.canonicalUrl, `${PUBLIC}acme/api/v1/endpoints`);
    assert.equal(page.complete, true);
    const sectionRoot = await resolve('acme/api');
    assert.equal(sectionRoot.siteSpace, api.variants[0]);
    assert.equal(sectionRoot.basePath, '/s/acme/api/');
    assert.equal(sectionRoot.complete, false, 'api/v1 may follow');
    const root = await resolve('acme/intro');
    assert.equal(root.siteSpace, site.siteSpaceIds[0]);
    assert.equal(typeof root.siteSection, 'string', 'the default section');
    assert.equal(root.basePath, '/s/acme/');
    const redirect = await resolve('acme/api/api-v2/endpoints');
    assert.deepEqual(redirect, { target: 'content', redirect: `${PUBLIC}acme/api/endpoints` });
  });

  test("the renderer's published view: sections, drafts left out", async () => {
    const view = await ok('GET', `${site.base}/published`);
    const structure = view.structure as { type: string; structure: Json[] };
    assert.equal(structure.type, 'sections');
    const ids = structure.structure.map((n) => n.id);
    assert.ok(ids.includes(api.id));
    assert.ok(!ids.includes(draft.id), 'the draft section is left out');
    const customized = Object.keys((view.customizations as { siteSpaces: object }).siteSpaces);
    assert.deepEqual(customized.sort(), [site.siteSpaceIds[0], ...api.variants].sort());
    const apiSection = structure.structure.find((n) => n.id === api.id) as Json;
    assert.equal((apiSection.urls as { published: string }).published, `${PUBLIC}acme/api`);
    const variants = apiSection.siteSpaces as Json[];
    assert.equal(
      (variants[1]?.urls as { published?: string } | undefined)?.published,
      `${PUBLIC}acme/api/v1`,
    );
  });
});
