import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import {
  cookieSet,
  customize,
  type PublishedSite,
  publishedSite,
  setCookies,
  visit,
} from '../helpers/published.js';

/**
 * Each customization setting as a visitor sees it in a served page (docs/published-site.md, "The
 * page"): saved through the API (PUT, the rest at defaults), then read from `/s/…`. The
 * rendering itself is unit-tested in test/unit/published-page-html.test.ts; this checks the served
 * site really applies the stored, effective settings of the variant.
 */
let t: TestContext;
let site: PublishedSite;
before(async () => {
  t = await createTestApp();
  site = await publishedSite(t, 'acme', { second: true });
});
after(async () => t.close());

const CHILD = '/intro/child';
const url = (to: string) => ({ kind: 'url', url: to });

interface Row {
  what: string;
  settings: (f: PublishedSite) => Record<string, unknown>;
  /** Texts the page at CHILD must hold once saved. */
  contains: (f: PublishedSite) => string[];
  /** Texts it must not hold. */
  lacks?: string[];
}

const rows: Row[] = [
  {
    what: 'title: <title> and the header',
    settings: () => ({ title: 'Acme Guides' }),
    contains: () => ['<title>Child | Acme Guides</title>', '<span class="site-title">Acme Guides'],
    lacks: ['Child | Handbook'],
  },
  {
    what: 'locale fr: <html lang> and the interface words',
    settings: () => ({ internationalization: { locale: 'fr' } }),
    contains: () => [
      '<html lang="fr"',
      'placeholder="Rechercher"',
      '<small>Suivant<svg class="icon icon-arrowRight"',
    ],
    lacks: ['<html lang="en"', 'placeholder="Search"'],
  },
  {
    what: 'favicon emoji: an SVG icon',
    settings: () => ({ favicon: { emoji: '📘' } }),
    contains: () => ['<link rel="icon" href="data:image/svg+xml,', encodeURIComponent('📘')],
  },
  {
    what: 'favicon icons: one per color scheme',
    settings: () => ({
      favicon: { icon: { light: 'https://cdn.test/l.png', dark: 'https://cdn.test/d.png' } },
    }),
    contains: () => [
      '<link rel="icon" href="https://cdn.test/l.png" media="(prefers-color-scheme: light)">',
      '<link rel="icon" href="https://cdn.test/d.png" media="(prefers-color-scheme: dark)">',
    ],
  },
  {
    what: 'header logo: light and dark images instead of the title text',
    settings: () => ({
      header: {
        logo: { light: 'https://cdn.test/logo-l.svg', dark: 'https://cdn.test/logo-d.svg' },
      },
    }),
    contains: () => [
      '<img class="logo logo-light" src="https://cdn.test/logo-l.svg" alt="Handbook">',
      '<img class="logo logo-dark" src="https://cdn.test/logo-d.svg" alt="Handbook">',
    ],
    lacks: ['<span class="site-title">'],
  },
  {
    what: 'header links: a primary button and a dropdown of sub-links',
    settings: (f) => ({
      header: {
        links: [
          { title: 'Sign up', style: 'button-primary', to: url('https://acme.test/up'), links: [] },
          {
            title: 'Products',
            to: null,
            links: [
              { title: 'API', to: url('https://acme.test/api') },
              { title: 'Install guide', to: { kind: 'page', page: f.tree.install } },
            ],
          },
        ],
      },
    }),
    contains: () => [
      '<a class="header-link button-primary" href="https://acme.test/up">Sign up</a>',
      '<details class="dropdown"><summary class="header-link link">Products <svg class="icon icon-chevronDown"',
      '<li><a class="header-sublink" href="https://acme.test/api">API</a></li>',
      '<li><a class="header-sublink" href="/s/acme/guides/install">Install guide</a></li>',
    ],
  },
  {
    what: 'footer: logo, groups of links, copyright',
    settings: () => ({
      footer: {
        logo: { light: 'https://cdn.test/f-l.png', dark: 'https://cdn.test/f-d.png' },
        groups: [{ title: 'Company', links: [{ title: 'About', to: url('https://acme.test/a') }] }],
        copyright: '© 2026 Acme',
      },
    }),
    contains: () => [
      '<img class="logo logo-light" src="https://cdn.test/f-l.png" alt="">',
      '<div class="footer-group"><h2>Company</h2><ul><li><a class="footer-link" href="https://acme.test/a">About</a>',
      '<p class="copyright">© 2026 Acme</p>',
    ],
  },
  {
    what: 'announcement: a banner with its style and link',
    settings: () => ({
      announcement: {
        enabled: true,
        message: 'Version 2 is out',
        style: 'warning',
        link: { title: 'Read', to: url('https://acme.test/blog') },
      },
    }),
    contains: () => [
      '<div class="announcement announcement-warning"',
      '<a class="announcement-link" href="https://acme.test/blog">Version 2 is out <span class="announcement-call">Read</span>',
    ],
  },
  {
    what: 'announcement disabled: no banner',
    settings: () => ({ announcement: { enabled: false, message: 'Hidden news', style: 'info' } }),
    contains: () => [],
    lacks: ['class="announcement', 'Hidden news'],
  },
  {
    what: 'themes: dark by default, toggleable',
    settings: () => ({ themes: { default: 'dark', toggeable: true } }),
    contains: () => ['data-theme="dark"', '<button type="button" class="theme-toggle"'],
  },
  {
    what: 'pagination disabled: no previous/next',
    settings: () => ({ pagination: { enabled: false } }),
    contains: () => [],
    lacks: ['class="pagination"', 'rel="next"'],
  },
  {
    what: 'feedback enabled: the widget, and where it reports',
    settings: () => ({ feedback: { enabled: true } }),
    contains: () => [
      '<section class="feedback"><p>Was this page helpful?</p>',
      '<button type="button" data-rating="good">',
      'data-feedback-href="/s/acme/@livery/feedback"',
    ],
  },
  {
    what: 'trademark disabled: no "Powered by"',
    settings: () => ({ trademark: { enabled: false } }),
    contains: () => [],
    lacks: ['Powered by Livery'],
  },
  {
    what: 'privacy policy: a footer link',
    settings: () => ({ privacyPolicy: { url: 'https://acme.test/privacy' } }),
    contains: () => ['<a class="privacy" href="https://acme.test/privacy">Privacy policy</a>'],
  },
  {
    what: 'social preview: og:image',
    settings: () => ({ socialPreview: { url: 'https://cdn.test/og.png' } }),
    contains: () => ['<meta property="og:image" content="https://cdn.test/og.png">'],
  },
  {
    what: 'git.showEditLink: the edit link',
    settings: () => ({ git: { showEditLink: true } }),
    contains: (f) => [
      `<p class="edit-link"><a href="http://livery.test/v1/spaces/${f.tree.spaceId}/content/page/${f.tree.child}">Edit this page</a>`,
    ],
  },
];

describe('each setting, saved, shows in the served page', () => {
  test('with no settings: the optional parts are absent, pagination and trademark present', async () => {
    await customize(t, site, {});
    const html = (await visit(t, `${site.address}${CHILD}`)).body;
    for (const absent of [
      'rel="icon"',
      'class="logo',
      'class="announcement',
      'class="theme-toggle"',
      'class="feedback"',
      'class="edit-link"',
      'class="privacy"',
      'og:image',
      'class="copyright"',
      '<details class="dropdown"><summary class="header-link',
      'class="social-links',
    ]) {
      assert.ok(!html.includes(absent), `absent by default: ${absent}`);
    }
    for (const present of [
      '<html lang="en" data-theme="light"',
      '<nav class="pagination"><a class="prev" rel="prev" href="/s/acme/intro">',
      'rel="next" href="/s/acme/guides/install"',
      '<p class="trademark">Powered by Livery</p>',
      '<span class="site-title">Handbook</span>',
    ]) {
      assert.ok(html.includes(present), `present by default: ${present}`);
    }
  });

  for (const row of rows) {
    test(row.what, async () => {
      await customize(t, site, row.settings(site));
      const page = await visit(t, `${site.address}${CHILD}`);
      assert.equal(page.statusCode, 200);
      for (const text of row.contains(site)) {
        assert.ok(page.body.includes(text), `contains ${text}`);
      }
      for (const text of row.lacks ?? []) {
        assert.ok(!page.body.includes(text), `lacks ${text}`);
      }
    });
  }
});

describe('the tracking cookie follows insights.trackingCookie', () => {
  test('on (the default): a year-long livery_vid scoped to the site, once', async () => {
    await customize(t, site, {});
    const first = await visit(t, `${site.address}${CHILD}`);
    const id = cookieSet(first, 'livery_vid');
    assert.match(id, /^[A-Za-z0-9_-]{8,64}$/);
    const cookie = setCookies(first)[0] ?? '';
    assert.match(cookie, /; Path=\/s\/acme;/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /Max-Age=31536000/);
    const back = await visit(t, `${site.address}${CHILD}`, { cookie: `livery_vid=${id}` });
    assert.deepEqual(setCookies(back), [], 'a visitor who has one keeps it');
  });

  test('off: no Set-Cookie on any page', async () => {
    await customize(t, site, { insights: { trackingCookie: false } });
    for (const path of ['', CHILD, '/no/such/page', '/de/']) {
      const page = await visit(t, `${site.address}${path}`);
      assert.deepEqual(setCookies(page), [], path);
    }
  });
});

describe('a variant override', () => {
  test('applies to its variant only', async () => {
    await customize(t, site, { title: 'Acme Docs', feedback: { enabled: false } });
    const second = site.second?.siteSpaceId;
    assert.ok(second);
    const override = await t.request({
      method: 'PATCH',
      url: `${site.base}/site-spaces/${second}/customization`,
      payload: {
        title: 'Acme Doku',
        internationalization: { locale: 'de' },
        feedback: { enabled: true },
      },
    });
    expectStatus(override, 200);
    const de = (await visit(t, `${site.address}/de/`)).body;
    assert.match(de, /<html lang="de"/);
    assert.match(de, /<title>Start \| Acme Doku<\/title>/);
    assert.match(de, /placeholder="Suchen"/);
    assert.match(de, /War diese Seite hilfreich\?/);
    const en = (await visit(t, `${site.address}${CHILD}`)).body;
    assert.match(en, /<html lang="en"/);
    assert.match(en, /<title>Child \| Acme Docs<\/title>/);
    assert.doesNotMatch(en, /class="feedback"/);
    const theme = await visit(t, `${site.address}/@livery/theme/${second}.css`);
    assert.equal(theme.statusCode, 200, 'each variant has its theme');
  });
});
