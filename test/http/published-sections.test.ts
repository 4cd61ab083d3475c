import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { publishChanges } from '../helpers/insights.js';
import { rawVisit } from '../helpers/published.js';

/**
 * The published site of a site with sections, over HTTP (issue 29, docs/published-site.md
 * "Sections"): each section at its path, the redirects of default paths, drafts neither served
 * nor listed, the navigation's texts escaped. Built through GitBook 0.202's operations.
 */
let t: TestContext;
type Json = Record<string, unknown> & { id: string };
let site: string;
const ids: Record<string, string> = {};

const send = async (method: 'POST' | 'PATCH', url: string, payload: object) =>
  expectStatus(await t.request({ method, url, payload }), method === 'POST' ? 201 : 200) as Json;

async function space(title: string): Promise<string> {
  const created = await send('POST', `/v1/orgs/${t.orgId}/spaces`, { title });
  await publishChanges(t, created.id, [
    { operation: 'insert_page', title: `Start of ${title}`, document: { markdown: 'Text.' } },
    { operation: 'insert_page', title: 'Second', document: { markdown: 'More.' } },
  ]);
  return created.id;
}

before(async () => {
  t = await createTestApp();
  const created = await send('POST', `/v1/orgs/${t.orgId}/sites`, {
    title: 'Sections site',
    spaces: [await space('Guides'), await space('Guides v1')],
  });
  site = `/v1/orgs/${t.orgId}/sites/${created.id}`;
  expectStatus(await t.request({ method: 'PATCH', url: site, payload: { basename: 'secs' } }), 200);
  const api = await send('POST', `${site}/sections`, { spaceId: await space('API'), title: 'API' });
  ids.api = api.id;
  ids.apiDefault = (api.siteSpaces as Json[])[0]?.id as string;
  const v1 = await send('POST', `${site}/site-spaces`, {
    spaceId: await space('API v1'),
    sectionId: api.id,
  });
  ids.apiV1 = v1.id;
  await send('PATCH', `${site}/site-spaces/${v1.id}`, { path: 'v1' });
  ids.soon = (
    await send('POST', `${site}/sections`, {
      spaceId: await space('Soon'),
      title: 'Soon <b>new</b>',
      draft: true,
    })
  ).id;
  ids.hostile = (
    await send('POST', `${site}/sections`, {
      spaceId: await space('Hostile'),
      title: '<img src=x onerror=alert(1)>',
    })
  ).id;
  await send('POST', `${site}/external-links`, {
    title: '"><script>alert(1)</script>',
    url: 'https://example.test/?a=1&b=<2>',
  });
  expectStatus(await t.request({ method: 'POST', url: `${site}/publish` }), 200);
});
after(async () => t.close());

const h1 = (body: string) => /<h1>(.*?)<\/h1>/.exec(body)?.[1];

describe('a published site with sections', () => {
  test('each section at its path, its variants below it; the navigation lists the live ones', async () => {
    const root = await rawVisit(t, '/s/secs/');
    assert.equal(root.statusCode, 200);
    assert.equal(h1(root.body), 'Start of Guides');
    const nav = /<nav class="site-sections".*?<\/nav>/s.exec(root.body)?.[0] ?? '';
    assert.match(nav, /href="\/s\/secs\/api\/"/);
    assert.doesNotMatch(nav, /Soon/, 'a draft section is not listed');
    const api = await rawVisit(t, '/s/secs/api/');
    assert.equal(h1(api.body), 'Start of API');
    assert.match(api.body, /<a class="section-tab" href="\/s\/secs\/api\/" aria-current="true">/);
    const second = await rawVisit(t, '/s/secs/api/second');
    assert.equal(h1(second.body), 'Second');
    const v1 = await rawVisit(t, '/s/secs/api/v1/');
    assert.equal(h1(v1.body), 'Start of API v1');
    // The switcher of the API section lists its two variants only, at their addresses.
    const switcher = /<div class="variants">.*?<\/div>/s.exec(v1.body)?.[0] ?? '';
    assert.deepEqual(
      [...switcher.matchAll(/href="([^"]+)"/g)].map((m) => m[1]),
      ['/s/secs/api/', '/s/secs/api/v1/'],
    );
  });

  test("default paths redirect: the default section's, a section's default variant's", async () => {
    const structure = expectStatus(await t.request({ url: `${site}/structure` }), 200) as {
      structure: Json[];
    };
    const guides = structure.structure[0] as Json;
    const sectionPath = guides.path as string;
    const moved = await rawVisit(t, `/s/secs/${sectionPath}/second`);
    assert.equal(moved.statusCode, 302);
    assert.equal(moved.headers.location, '/s/secs/second');
    const apiDefault = (
      (structure.structure.find((n) => n.id === ids.api) as Json).siteSpaces as Json[]
    )[0] as Json;
    const variant = await rawVisit(t, `/s/secs/api/${apiDefault.path as string}/second`);
    assert.equal(variant.statusCode, 302);
    assert.equal(variant.headers.location, '/s/secs/api/second');
  });

  test('a draft section is not served: its path reads as a page of the default section', async () => {
    const structure = expectStatus(await t.request({ url: `${site}/structure` }), 200) as {
      structure: Json[];
    };
    const path = (structure.structure.find((n) => n.id === ids.soon) as Json).path as string;
    const soon = await rawVisit(t, `/s/secs/${path}/`);
    assert.equal(soon.statusCode, 404);
    assert.match(soon.body, /site-sections/, "the default section's styled 404");
    // Made live, it is served and listed.
    await send('PATCH', `${site}/sections/${ids.soon}`, { draft: false });
    const live = await rawVisit(t, `/s/secs/${path}/`);
    assert.equal(live.statusCode, 200);
    assert.equal(h1(live.body), 'Start of Soon');
    assert.match(live.body, /<span>Soon &lt;b&gt;new&lt;\/b&gt;<\/span>/);
  });

  test('titles and URLs of the navigation are escaped', async () => {
    const root = await rawVisit(t, '/s/secs/');
    const nav = /<nav class="site-sections".*?<\/nav>/s.exec(root.body)?.[0] ?? '';
    assert.doesNotMatch(nav, /<img|<script/);
    assert.match(nav, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(nav, /&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(nav, /href="https:\/\/example\.test\/\?a=1&amp;b=&lt;2&gt;"/);
  });
});
