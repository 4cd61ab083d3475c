import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OrgRole } from '../../src/modules/access/permissions.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';
import { rawRequest } from '../helpers/raw-http.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

/**
 * Custom hostnames (issue 29 §3, docs/sites.md "Custom hostnames"): updateSiteById's `hostname`,
 * getCustomHostname / removeCustomHostname / dnsRevalidateCustomHostname, the site served at the
 * root of its hostname, urls.published and canonical addresses, the URL lookup.
 */
const HOST = 'docs.example.test';
type SiteView = { hostname?: string; urls: { published?: string } };
let t: TestContext;
let site: PublishedSite;
let other: { token: string; organization: { id: string } };

before(async () => {
  t = await createTestApp({
    PUBLIC_URL: 'http://pages.livery.test/s/',
    CUSTOM_HOSTNAME_SCHEME: 'https',
  });
  site = await publishedSite(t, 'hosted', { second: true });
  other = await t.services.identity.createOrganizationWithOwner({
    title: 'Other org',
    ownerName: 'Other owner',
  });
});
after(async () => t.close());

const patch = (base: string, payload: object, token = t.token) =>
  t.app.inject({
    method: 'PATCH',
    url: base,
    payload,
    headers: { authorization: `Bearer ${token}` },
  });
const get = (url: string, host: string) => t.app.inject({ method: 'GET', url, headers: { host } });

/** A site of the other organization. */
async function foreignSite(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${other.organization.id}/sites`,
    payload: { title: 'Foreign docs' },
    headers: { authorization: `Bearer ${other.token}` },
  });
  return `/v1/orgs/${other.organization.id}/sites/${expectStatus(created, 201).id}`;
}

describe('setting, reading and removing a hostname', () => {
  test('updateSiteById sets it (case folded); the site, its variants and getCustomHostname show it', async () => {
    const updated = expectStatus(
      await patch(site.base, { hostname: 'Docs.Example.TEST' }),
      200,
    ) as SiteView;
    assert.equal(updated.hostname, HOST);
    assert.equal(updated.urls.published, `https://${HOST}/`);
    const variants = expectStatus(
      await t.request({ method: 'GET', url: `${site.base}/site-spaces` }),
      200,
    ).items as { default: boolean; path: string; urls: { published: string } }[];
    for (const variant of variants) {
      const expected = variant.default ? `https://${HOST}/` : `https://${HOST}/${variant.path}`;
      assert.equal(variant.urls.published, expected);
    }
    const custom = expectStatus(
      await t.request({ method: 'GET', url: `/v1/custom-hostnames/DOCS.example.test` }),
      200,
    );
    assert.deepEqual(custom, {
      object: 'custom-hostname',
      hostname: HOST,
      target: { type: 'site', site: site.siteId },
      isActive: true,
      status: 'live',
      urls: { location: `http://livery.test/v1/custom-hostnames/${HOST}` },
    });
    expectStatus(await t.request({ method: 'PATCH', url: `/v1/custom-hostnames/${HOST}` }), 204);
  });

  test('a hostname another site holds is a 409 naming body.hostname, whatever the organization, and says nothing of the holder', async () => {
    const foreign = await foreignSite();
    const refused = await patch(foreign, { hostname: 'DOCS.example.test' }, other.token);
    const message = expectError(refused, 409);
    assert.match(message, /^body\.hostname: /);
    for (const secret of [site.siteId, t.orgId, 'hosted', 'Docs', 'Test organization']) {
      assert.ok(!message.includes(secret), `${message} names ${secret}`);
    }
    const read = expectStatus(
      await t.app.inject({
        method: 'GET',
        url: foreign,
        headers: { authorization: `Bearer ${other.token}` },
      }),
      200,
    );
    assert.equal(read.hostname, undefined, 'nothing changed');
    // To the other organization, the hostname is unknown: 404, and a removal removes nothing.
    const asOther = { authorization: `Bearer ${other.token}` };
    const url = `/v1/custom-hostnames/${HOST}`;
    expectError(await t.app.inject({ method: 'GET', url, headers: asOther }), 404);
    const revalidate = expectError(
      await t.app.inject({ method: 'PATCH', url, headers: asOther }),
      400,
    );
    assert.match(revalidate, /^params\.hostname: /);
    expectStatus(await t.app.inject({ method: 'DELETE', url, headers: asOther }), 204);
    expectStatus(await t.request({ method: 'GET', url }), 200);
    // Its own site may set the same hostname again: not a conflict with itself.
    expectStatus(await patch(site.base, { hostname: HOST }), 200);
  });

  test('members: read may get it, only admin may revalidate or remove it; below, it is unknown', async () => {
    const url = `/v1/custom-hostnames/${HOST}`;
    const as = async (role: OrgRole, method: 'GET' | 'PATCH' | 'DELETE') =>
      (await requestAs(t, await memberWithRole(t, role), { method, url })).statusCode;
    assert.equal(await as('guest', 'GET'), 404);
    assert.equal(await as('read', 'GET'), 200);
    assert.equal(await as('create', 'PATCH'), 400);
    assert.equal(await as('create', 'DELETE'), 204);
    expectStatus(await t.request({ method: 'GET', url }), 200);
    assert.equal(await as('admin', 'PATCH'), 204);
    // A token restricted to site:read may read it, not remove it.
    const restricted = await t.services.identity.createToken(t.userId, {
      label: 'read only',
      scopes: ['site:read'],
    });
    const headers = { authorization: `Bearer ${restricted.token}` };
    expectStatus(await t.app.inject({ method: 'GET', url, headers }), 200);
    expectError(await t.app.inject({ method: 'DELETE', url, headers }), 403);
    expectStatus(await t.request({ method: 'GET', url }), 200);
  });

  test('validation: the pattern, IP addresses and Livery’s own host are 400s naming body.hostname', async () => {
    const cases: [unknown, RegExp][] = [
      ['localhost', /body\.hostname/],
      ['example.com', /body\.hostname/],
      ['docs..example.com', /body\.hostname/],
      ['-docs.example.com', /body\.hostname/],
      ['docs.example.com.', /body\.hostname/],
      ['docs.example.com:8080', /body\.hostname/],
      ['https://docs.example.com', /body\.hostname/],
      ['10.0.0.10', /^body\.hostname: an IP address/],
      ['pages.livery.test', /^body\.hostname: this is Livery's own address/],
      [42, /body\.hostname/],
      ['', /body\.hostname/],
    ];
    for (const [hostname, expected] of cases) {
      const message = expectError(await patch(site.base, { hostname }), 400);
      assert.match(message, expected, JSON.stringify(hostname));
    }
    const read = expectStatus(await t.request({ method: 'GET', url: site.base }), 200);
    assert.equal(read.hostname, HOST, 'nothing changed');
  });
});

describe('serving the site at its hostname', () => {
  test('`/` is the home page, a path a page, with links, assets and search at the root', async () => {
    const home = get('/', HOST);
    const page = await home;
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1[^>]*>[^<]*Intro/);
    assert.match(page.body, /href="\/intro\/child"/, 'links from the root');
    assert.ok(!page.body.includes('/s/hosted/'), 'no PUBLIC_URL address in the page');
    assert.match(page.body, new RegExp(`<link rel="canonical" href="https://${HOST}/">`));
    const child = await get('/intro/child', HOST);
    assert.equal(child.statusCode, 200);
    assert.match(child.body, /<h1[^>]*>[^<]*Child/);
    assert.match(
      child.body,
      new RegExp(`<link rel="canonical" href="https://${HOST}/intro/child">`),
    );
    const second = await get('/de/', HOST);
    assert.equal(second.statusCode, 200);
    assert.match(second.body, new RegExp(`href="https://${HOST}/de/"`));
    // The script, stylesheet and theme the page names, and the search box.
    for (const href of [...page.body.matchAll(/(?:href|src)="(\/[^"]*\.(?:css|js))"/g)].map(
      (m) => m[1] as string,
    )) {
      assert.equal((await get(href, HOST)).statusCode, 200, href);
    }
    const search = await get(`/@livery/search?q=welcome`, HOST);
    assert.equal(search.statusCode, 200, search.body);
    assert.equal(JSON.parse(search.body).results?.[0]?.href?.startsWith('/'), true, search.body);
    assert.equal((await get('/no-such-page', HOST)).statusCode, 404);
  });

  test('the PUBLIC_URL address still serves the site, naming the hostname as canonical', async () => {
    const page = await get('/s/hosted/intro/child', 'pages.livery.test');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /href="\/s\/hosted\/intro"/);
    assert.match(
      page.body,
      new RegExp(`<link rel="canonical" href="https://${HOST}/intro/child">`),
    );
  });

  test('other hosts are served as before; X-Forwarded-Host is ignored unless TRUST_PROXY', async () => {
    const root = await get('/', 'unknown.example.test');
    assert.doesNotMatch(root.body, /Intro/);
    const forwarded = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { host: 'pages.livery.test', 'x-forwarded-host': HOST },
    });
    assert.doesNotMatch(forwarded.body, /Intro/);
    assert.equal((await get('/s/hosted/', 'unknown.example.test')).statusCode, 200);
  });

  test('a listening server answers `Host: docs.example.test` with the site’s home page at /', async () => {
    const answer = await rawRequest(t.app, '/', { host: `${HOST}:8443` });
    assert.equal(answer.statusCode, 200);
    assert.match(answer.body, /<h1[^>]*>[^<]*Intro/);
    assert.match(answer.body, new RegExp(`<link rel="canonical" href="https://${HOST}/">`));
  });

  test('the URL lookup resolves addresses at the hostname', async () => {
    const lookup = async (url: string) =>
      t.request({ method: 'POST', url: '/v1/urls/published', payload: { url } });
    const found = expectStatus(await lookup(`https://${HOST}/intro/child`), 200);
    assert.equal(found.site, site.siteId);
    assert.equal(found.siteSpace, site.siteSpaceIds[0]);
    assert.equal(found.siteBasePath, '/');
    assert.equal(found.basePath, '/');
    assert.equal(found.pathname, 'intro/child');
    assert.equal(found.canonicalUrl, `https://${HOST}/intro/child`);
    const second = expectStatus(await lookup(`https://${HOST}/de/`), 200);
    assert.equal(second.siteSpace, site.siteSpaceIds[1]);
    assert.equal(second.basePath, '/de/');
    expectError(await lookup('https://unknown.example.test/intro'), 404);
  });
});

describe('removal', () => {
  test('removeCustomHostname: 205, then 204; the host is no longer the site’s; audit entries', async () => {
    const url = `/v1/custom-hostnames/${HOST}`;
    expectStatus(await t.request({ method: 'DELETE', url }), 205);
    expectStatus(await t.request({ method: 'DELETE', url }), 204);
    expectError(await t.request({ method: 'GET', url }), 404);
    const read = expectStatus(await t.request({ method: 'GET', url: site.base }), 200) as SiteView;
    assert.equal(read.hostname, undefined);
    assert.equal(read.urls.published, 'http://pages.livery.test/s/hosted');
    assert.doesNotMatch((await get('/', HOST)).body, /Intro/);
    const page = await get('/s/hosted/intro', 'pages.livery.test');
    assert.doesNotMatch(page.body, /rel="canonical"/);
    // Now free: another organization's site may take it; null removes it again.
    const foreign = await foreignSite();
    expectStatus(await patch(foreign, { hostname: HOST }, other.token), 200);
    expectStatus(await patch(foreign, { hostname: null }, other.token), 200);
    const audit = expectStatus(
      await t.request({
        method: 'GET',
        url: `/v1/orgs/${t.orgId}/audit-log?action=site.hostname.changed`,
      }),
      200,
    ).items as { details: { from: string | null; to: string | null } }[];
    const changes = audit.map((entry) => [entry.details.from, entry.details.to]);
    assert.deepEqual(
      changes.map((c) => JSON.stringify(c)).sort(),
      [
        [HOST, null],
        [null, HOST],
      ]
        .map((c) => JSON.stringify(c))
        .sort(),
    );
  });

  test('deleting a site frees its hostname', async () => {
    const foreign = await foreignSite();
    const asOther = { authorization: `Bearer ${other.token}` };
    expectStatus(await patch(foreign, { hostname: 'gone.example.test' }, other.token), 200);
    expectStatus(await t.app.inject({ method: 'DELETE', url: foreign, headers: asOther }), 205);
    expectStatus(await patch(site.base, { hostname: 'gone.example.test' }), 200);
    expectStatus(await patch(site.base, { hostname: null }), 200);
  });
});

describe('TRUST_PROXY', () => {
  test('with it, X-Forwarded-Host names the host', async () => {
    const trusting = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const hosted = await publishedSite(trusting, 'proxied');
      const set = await trusting.request({
        method: 'PATCH',
        url: hosted.base,
        payload: { hostname: 'proxied.example.test' },
      });
      assert.equal(
        (expectStatus(set, 200) as SiteView).urls.published,
        'http://proxied.example.test/',
      );
      const page = await trusting.app.inject({
        method: 'GET',
        url: '/intro',
        headers: { host: '127.0.0.1:8080', 'x-forwarded-host': 'Proxied.Example.test' },
      });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h1[^>]*>[^<]*Intro/);
    } finally {
      await trusting.close();
    }
  });
});
