/**
 * Origins that go into a header (docs/published-site.md, "CSP"): a custom font file's origin is
 * parsed as a URL and written into the page's Content-Security-Policy from its parts. A URL
 * whose host a CSP source cannot hold (the URL parser keeps `;`, `,`, quotes … in a host) is
 * refused when settings are written, and ignored when it is already stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type PublishedSite, publishedSite, visit } from '../helpers/published.js';

let t: TestContext;
let site: PublishedSite;

before(async () => {
  t = await createTestApp();
  site = await publishedSite(t, 'acme');
});
after(async () => t.close());

/** Hosts the WHATWG URL parser keeps, each of which would say more in a CSP than one source. */
const HOSTILE = [
  'https://fonts.example;sandbox/f.woff2',
  "https://fonts.example;script-src 'unsafe-inline'/f.woff2",
  'https://fonts.example,default-src */f.woff2',
  'https://fonts.example%3Bsandbox/f.woff2',
  "https://fonts.example'unsafe-eval'/f.woff2",
  'https://fonts.example*/f.woff2',
  'https://fonts_example.test/f.woff2',
  'https://fonts.example./f.woff2',
  'https://[::1]:8443/f.woff2',
];

const definition = (url: string) => ({
  id: 'brand',
  custom: true,
  fontFamily: 'Brand',
  fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.acme.test/ok.woff2' }, { url }] }],
});

const cspOf = async () => {
  const page = await visit(t, '/s/acme/');
  assert.equal(page.statusCode, 200, page.body.slice(0, 300));
  return String(page.headers['content-security-policy']);
};

/** The policy's directives by name; asserts it is one policy of known directives. */
function directives(csp: string): Map<string, string[]> {
  assert.doesNotMatch(csp, /,/, 'one policy');
  const known = new Set([
    'default-src',
    'img-src',
    'style-src',
    'script-src',
    'object-src',
    'base-uri',
    'frame-ancestors',
    'font-src',
  ]);
  const found = new Map<string, string[]>();
  for (const directive of csp.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    assert.ok(name !== undefined && known.has(name), `unexpected directive ${name}`);
    assert.ok(!found.has(name), `${name} twice`);
    found.set(name, sources);
  }
  return found;
}

describe('font origins in the CSP: refused at write time', () => {
  test('PUT, PATCH of a variant, and the preview: a 400 naming the field', async () => {
    const refused = await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { styling: { font: definition('https://fonts.example;sandbox/f.woff2') } },
    });
    assert.equal(
      expectError(refused, 400),
      `body.styling.font.fontFaces[0].sources[1].url must be an absolute http(s) URL whose host is a name or an IPv4 address (letters, digits, hyphens, dots): its origin goes into the page's Content-Security-Policy (got "https://fonts.example;sandbox/f.woff2")`,
    );
    const field = (path: string) =>
      new RegExp(`^${path.replaceAll('.', '\\.').replaceAll('[', '\\[')} must be an absolute`);
    for (const url of HOSTILE) {
      const put = await t.request({
        method: 'PUT',
        url: `${site.base}/customization`,
        payload: { styling: { font: definition(url) } },
      });
      assert.match(
        expectError(put, 400),
        field('body.styling.font.fontFaces[0].sources[1].url'),
        url,
      );
      const patch = await t.request({
        method: 'PATCH',
        url: `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`,
        payload: { styling: { monospaceFont: definition(url) } },
      });
      assert.match(
        expectError(patch, 400),
        field('body.styling.monospaceFont.fontFaces[0].sources[1].url'),
      );
      const preview = await t.request({
        method: 'POST',
        url: `${site.base}/preview`,
        payload: { site: { styling: { headingFont: definition(url) } } },
      });
      assert.match(
        expectError(preview, 400),
        field('body.site.styling.headingFont.fontFaces[0].sources[1].url'),
      );
    }
  });

  test('origins written from their parts: case, default port, an IPv4 address', async () => {
    const fonts = [
      'https://FONTS.Acme.test:443/a.woff2',
      'https://cdn.other.test:8443/b.woff2',
      'http://127.0.0.1:8080/c.woff2',
    ];
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${site.base}/customization`,
        payload: {
          styling: {
            font: { ...definition(fonts[0] as string), id: 'a' },
            headingFont: { ...definition(fonts[1] as string), id: 'b' },
            monospaceFont: { ...definition(fonts[2] as string), id: 'c' },
          },
        },
      }),
      200,
    );
    assert.deepEqual(directives(await cspOf()).get('font-src'), [
      "'self'",
      'https://fonts.acme.test',
      'https://cdn.other.test:8443',
      'http://127.0.0.1:8080',
    ]);
  });
});

describe('font origins in the CSP: ignored when already stored', () => {
  test('a hostile URL written into the database adds nothing to the policy', async () => {
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${site.base}/customization`,
        payload: { styling: { font: definition('https://cdn.acme.test/x.woff2') } },
      }),
      200,
    );
    for (const url of HOSTILE) {
      const row = await sql<{ customization: string }>`
        select customization from sites where id = ${site.siteId}`.execute(t.db);
      const stored = JSON.parse(row.rows[0]?.customization as string);
      stored.styling.font.fontFaces[0].sources[1].url = url;
      await sql`update sites set customization = ${JSON.stringify(stored)},
        customization_version = customization_version + 1 where id = ${site.siteId}`.execute(t.db);
      const csp = directives(await cspOf());
      assert.deepEqual(csp.get('font-src'), ["'self'", 'https://fonts.acme.test'], url);
      assert.deepEqual(csp.get('script-src'), ["'self'"], url);
    }
  });
});

describe('the visitor-authentication fallback URL in Location: written from its parts', () => {
  test('a stored URL a header cannot carry is re-encoded; one that is not http(s), not used', async () => {
    const closed = await publishedSite(t, 'closed', { visibility: 'visitor-auth' });
    const auth = { backend: 'custom', fallbackURL: 'https://sso.acme.test/login' };
    expectStatus(
      await t.request({ method: 'PATCH', url: `${closed.base}/publishing/auth`, payload: auth }),
      200,
    );
    const cases: [string, string | undefined][] = [
      ['https://sso.acme.test/login', 'https://sso.acme.test/login'],
      ['https://sso.acme.test/sign in/中文', 'https://sso.acme.test/sign%20in/%E4%B8%AD%E6%96%87'],
      ['https://sso.acme.test/a\r\nSet-Cookie: a=b', 'https://sso.acme.test/aSet-Cookie:%20a=b'],
      ['javascript:alert(1)', undefined],
      ['not a URL', undefined],
    ];
    for (const [stored, location] of cases) {
      await sql`update site_publishing_auth set fallback_url = ${stored}
        where site_id = ${closed.siteId}`.execute(t.db);
      const page = await visit(t, '/s/closed/');
      if (location === undefined) {
        assert.equal(page.statusCode, 401, `${stored}: the sign-in page`);
      } else {
        assert.equal(page.statusCode, 302, `${stored}: ${page.body.slice(0, 200)}`);
        assert.equal(page.headers.location, location);
      }
      const lookup = await t.request({
        method: 'POST',
        url: '/v1/urls/published',
        payload: { url: `${t.config.publicUrl}closed/x` },
      });
      if (location === undefined) {
        expectError(lookup, 401);
      } else {
        assert.equal(expectStatus(lookup, 200).redirect, `${location}?location=x`);
      }
    }
  });
});
