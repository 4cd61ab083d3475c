import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { publishChanges } from '../helpers/insights.js';
import { assertPlain404, customize, publishedSite, rawVisit, visit } from '../helpers/published.js';

/**
 * The published site over HTTP (docs/published-site.md, src/modules/published/routes.ts): which
 * address serves which page, the styled and the plain 404, hostile addresses and hostile content,
 * and the site's own files. Visitors send no API token (`visit`).
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

/** The page's own heading, which tells which page was served. */
const heading = (html: string) => /<h1>(.*?)<\/h1>/.exec(html)?.[1];

describe('which page an address serves', () => {
  test('the root serves the default variant’s first document; nested pages by path', async () => {
    const site = await publishedSite(t, 'serve-root');
    for (const address of [site.address, `${site.address}/`]) {
      const root = await visit(t, address);
      assert.equal(root.statusCode, 200, address);
      assert.match(String(root.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.equal(heading(root.body), 'Intro', address);
      assert.match(root.body, /<p>Welcome<\/p>/);
    }
    const child = await visit(t, `${site.address}/intro/child`);
    assert.equal(child.statusCode, 200);
    assert.equal(heading(child.body), 'Child');
    assert.match(child.body, /<title>Child \| Handbook<\/title>/);
    const install = await visit(t, `${site.address}/guides/install`);
    assert.equal(heading(install.body), 'Install');
    assert.equal(heading((await visit(t, `${site.address}/last`)).body), 'Last');
  });

  test('a second variant under its site-space path; a non-ASCII slug through its encoded path', async () => {
    const site = await publishedSite(t, 'serve-variants', { second: true });
    const de = await visit(t, `${site.address}/de/`);
    assert.equal(de.statusCode, 200);
    assert.equal(heading(de.body), 'Start');
    assert.match(de.body, /Willkommen/);
    assert.match(de.body, /href="\/s\/serve-variants\/de\/%C3%BCber-uns"/, 'linked encoded');
    const uber = await visit(t, `${site.address}/de/%C3%BCber-uns`);
    assert.equal(uber.statusCode, 200);
    assert.equal(heading(uber.body), 'Über uns');
    assert.match(uber.body, /Wir sind Acme/);
    // The default variant's pages are not under the second variant's path.
    assert.equal((await visit(t, `${site.address}/de/intro`)).statusCode, 404);
    assert.equal(heading((await visit(t, site.address)).body), 'Intro');
  });

  test('the default variant’s own path redirects to the root, keeping the page path', async () => {
    const site = await publishedSite(t, 'serve-default-path', { second: true });
    const own = await visit(t, `${site.address}/${site.defaultPath}`);
    assert.equal(own.statusCode, 302);
    assert.equal(own.headers.location, `${site.address}/`);
    const deep = await visit(t, `${site.address}/${site.defaultPath}/intro/child`);
    assert.equal(deep.statusCode, 302);
    assert.equal(deep.headers.location, `${site.address}/intro/child`);
  });

  test('a group redirects (302) to its first document', async () => {
    const site = await publishedSite(t, 'serve-group');
    const group = await visit(t, `${site.address}/guides`);
    assert.equal(group.statusCode, 302);
    assert.equal(group.headers.location, `${site.address}/guides/install`);
  });

  test('the site answers at its id as well as at its basename, with links under that address', async () => {
    const site = await publishedSite(t, 'serve-by-id');
    const byId = await visit(t, `/s/${site.siteId}/intro/child`);
    assert.equal(byId.statusCode, 200);
    assert.equal(heading(byId.body), 'Child');
    assert.ok(byId.body.includes(`href="/s/${site.siteId}/intro"`), 'sidebar under the id');
    const byName = await visit(t, `${site.address}/intro/child`);
    assert.ok(byName.body.includes('href="/s/serve-by-id/intro"'), 'sidebar under the basename');
  });
});

describe('not found', () => {
  test('an unknown page: the site’s styled 404, its header, in the site’s language', async () => {
    const site = await publishedSite(t, 'missing-page');
    const english = await visit(t, `${site.address}/no/such/page`);
    assert.equal(english.statusCode, 404);
    assert.match(english.body, /<header class="site-header">/);
    assert.match(english.body, /<span class="site-title">Handbook<\/span>/);
    assert.match(english.body, /<h1>Page not found<\/h1>/);
    assert.match(english.body, /<meta name="robots" content="noindex">/);
    await customize(t, site, { internationalization: { locale: 'fr' } });
    const french = await visit(t, `${site.address}/no/such/page`);
    assert.equal(french.statusCode, 404);
    assert.match(french.body, /<html lang="fr"/);
    assert.match(french.body, /<h1>Page introuvable<\/h1>/);
    assert.match(french.body, /Retour à l&#39;accueil/);
    assert.doesNotMatch(french.body, /Page not found/);
  });

  test('an unknown site and an unpublished one: the same plain 404, without the site’s title', async () => {
    const site = await publishedSite(t, 'missing-site');
    await customize(t, site, { title: 'Acme Secret Docs' });
    assert.match((await visit(t, site.address)).body, /Acme Secret Docs/);
    const unknown = await visit(t, '/s/no-such-site/intro');
    assertPlain404(unknown, 'unknown site');
    expectStatus(await t.request({ method: 'POST', url: `${site.base}/unpublish` }), 200);
    for (const path of ['', '/', '/intro/child', '/no/such/page', '/guides']) {
      const hidden = await visit(t, `${site.address}${path}`);
      assertPlain404(hidden, `unpublished ${path}`);
      assert.equal(hidden.body, unknown.body, 'indistinguishable from an unknown site');
      assert.doesNotMatch(hidden.body, /Acme Secret Docs|Docs/);
      assert.equal(hidden.headers['x-robots-tag'], 'noindex');
    }
    assertPlain404(await visit(t, `/s/${site.siteId}/`), 'unpublished, by id');
  });

  // Sent as written over a socket (rawVisit): app.inject would resolve the dot segments itself.
  describe('hostile addresses are a plain 404', () => {
    before(async () => {
      const site = await publishedSite(t, 'acme');
      assert.equal((await rawVisit(t, `${site.address}/intro/child`)).statusCode, 200);
    });
    const paths = [
      '/s/acme/%2E%2E/x',
      '/s/acme/x/%2e%2e',
      '/s/acme/../acme/intro',
      '/s/acme/./intro',
      '/s/acme/a%2Fb',
      '/s/acme/..%5Cx',
      '/s/acme/intro%5C..',
      '/s/acme/a%00b',
      '/s/acme/%E0%A4%A',
    ];
    for (const path of paths) {
      test(path, async () => {
        assertPlain404(await rawVisit(t, path), path);
      });
    }
  });
});

describe('hostile content is inert in the page', () => {
  test('Markdown script and javascript: link, an HTML title, HTML in header links and the announcement', async () => {
    const site = await publishedSite(t, 'hostile');
    await publishChanges(t, site.tree.spaceId, [
      {
        operation: 'insert_page',
        title: 'Trap <img src=x onerror=alert(1)>',
        slug: 'trap',
        document: { markdown: '<script>alert(1)</script>\n\n[x](javascript:alert(1))\n' },
      },
    ]);
    await customize(t, site, {
      header: {
        links: [
          {
            title: '<script>alert(2)</script>',
            to: { kind: 'url', url: 'https://acme.test/a' },
            links: [],
          },
          {
            title: '<b onmouseover=x>Menu',
            to: null,
            links: [{ title: '<img src=y onerror=alert(3)>', to: { kind: 'page', page: 'nope' } }],
          },
        ],
      },
      announcement: { enabled: true, message: '<img src=z onerror=alert(4)>', style: 'info' },
    });
    for (const path of ['/trap', '/intro']) {
      const page = await visit(t, `${site.address}${path}`);
      assert.equal(page.statusCode, 200, path);
      const html = page.body;
      // The one script element is Livery's own file.
      assert.deepEqual(html.match(/<script\b[^>]*>/gi), ['<script src="/s/@livery/site.js">']);
      // Attribute values blanked: escaped text inside them (og:title) is no attribute.
      const tags = html.replace(/"[^"]*"/g, '""');
      assert.doesNotMatch(tags, /<[a-z][a-z0-9]*\b[^>]*\son[a-z]+\s*=/i, `${path}: no handler`);
      assert.doesNotMatch(html, /<[a-z][^>]*\s(?:href|src)="\s*javascript:/i, `${path}: link`);
      assert.match(html, /&lt;script&gt;alert\(2\)&lt;\/script&gt;/, 'the header title as text');
      assert.match(html, /&lt;img src=z onerror=alert\(4\)&gt;/, 'the announcement as text');
      assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/, 'the page title as text');
    }
    const trap = (await visit(t, `${site.address}/trap`)).body;
    assert.match(trap, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'raw HTML shown as text');
    assert.match(trap, /\[x\]\(javascript:alert\(1\)\)/, 'the refused link stays text');
    assert.match(trap, /<title>Trap &lt;img src=x onerror=alert\(1\)&gt; \| Handbook<\/title>/);
  });
});

describe('the site’s own files', () => {
  for (const [file, type] of [
    ['site.css', /^text\/css/],
    ['site.js', /^text\/javascript/],
  ] as const) {
    test(`/s/@livery/${file}: ETag, and 304 to If-None-Match`, async () => {
      const first = await visit(t, `/s/@livery/${file}`);
      assert.equal(first.statusCode, 200);
      assert.match(String(first.headers['content-type']), type);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      assert.ok(first.body.length > 100);
      const again = await visit(t, `/s/@livery/${file}`, { 'if-none-match': etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      const stale = await visit(t, `/s/@livery/${file}`, { 'if-none-match': '"old"' });
      assert.equal(stale.statusCode, 200);
    });
  }

  test('an unknown file of Livery’s is a plain 404', async () => {
    assertPlain404(await visit(t, '/s/@livery/evil.js'), 'unknown asset');
  });

  test('theme.css of a variant, under the site: the configured primary color, ETag, 304', async () => {
    const site = await publishedSite(t, 'themed');
    await customize(t, site, { styling: { primaryColor: { light: '#0a7d5c', dark: '#41c79b' } } });
    const page = await visit(t, site.address);
    const href = `${site.address}/@livery/theme/${site.siteSpaceIds[0]}.css`;
    assert.ok(page.body.includes(`<link rel="stylesheet" href="${href}">`), 'linked by pages');
    const css = await visit(t, href);
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.match(css.body, /--primary-9: #0a7d5c;/i);
    assert.match(css.body, /--primary-9: #41c79b;/i);
    const etag = String(css.headers.etag);
    assert.equal((await visit(t, href, { 'if-none-match': etag })).statusCode, 304);
    await customize(t, site, { styling: { primaryColor: { light: '#aa2200', dark: '#aa2200' } } });
    const changed = await visit(t, href, { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200, 'a new color is a new tag');
    assert.match(changed.body, /--primary-9: #aa2200;/i);
    assertPlain404(await visit(t, `${site.address}/@livery/theme/sitesp_nope.css`), 'no variant');
  });
});
