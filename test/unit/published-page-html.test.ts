import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { html as markup } from '../../src/html/safe-html.js';
import { type PageView, renderPage } from '../../src/modules/published/rendering/page-html.js';
import { stringsFor } from '../../src/modules/published/rendering/strings.js';
import type { Settings } from '../../src/settings/settings-schema.js';
import { pageView, settings, url } from '../helpers/page-view.js';

const view = (fields: Partial<PageView> = {}): PageView =>
  pageView({
    feedbackHref: '/s/acme/_feedback/p1',
    ...fields,
  });

describe('renderPage: the document', () => {
  test('title, language, default theme, theme CSS and assets', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.internationalization.locale = 'fr';
          s.themes.default = 'dark';
        }),
        strings: stringsFor('fr'),
      }),
    );
    assert.match(html, /<title>Install \| Acme Docs<\/title>/);
    assert.match(html, /<html lang="fr" data-theme="dark"/);
    assert.match(html, /<link rel="stylesheet" href="\/s\/acme\/theme.css">/);
    assert.match(html, /<script src="\/s\/_assets\/site.js"><\/script>/);
    assert.match(html, /placeholder="Rechercher"/, 'interface words in the locale');
  });

  test('noindex only when asked; og:image only with a social preview', () => {
    assert.doesNotMatch(renderPage(view()), /noindex|og:image/);
    const html = renderPage(
      view({
        noindex: true,
        settings: settings((s) => {
          s.socialPreview.url = 'https://cdn.test/preview.png';
        }),
      }),
    );
    assert.match(html, /<meta name="robots" content="noindex">/);
    assert.match(html, /<meta property="og:image" content="https:\/\/cdn.test\/preview.png">/);
  });

  test('favicon: an emoji as SVG, or one icon per theme', () => {
    const emoji = renderPage(
      view({
        settings: settings((s) => {
          s.favicon = { emoji: '📘' };
        }),
      }),
    );
    assert.match(emoji, /<link rel="icon" href="data:image\/svg\+xml,/);
    const icons = renderPage(
      view({
        settings: settings((s) => {
          s.favicon = { icon: { light: 'https://cdn.test/l.png', dark: 'https://cdn.test/d.png' } };
        }),
      }),
    );
    assert.match(icons, /href="https:\/\/cdn.test\/l.png" media="\(prefers-color-scheme: light\)"/);
    assert.match(icons, /href="https:\/\/cdn.test\/d.png" media="\(prefers-color-scheme: dark\)"/);
    assert.doesNotMatch(renderPage(view()), /rel="icon"/);
  });

  test('styling switches become classes: theme, depth, icons, sidebar, links, search', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.styling.icons = 'duotone';
          s.styling.sidebar = { background: 'filled', list: 'pill' };
          s.styling.links = 'accent';
          s.styling.search = 'subtle';
        }),
      }),
    );
    assert.match(
      html,
      /<body class="theme-clean depth-subtle icons-duotone sidebar-bg-filled sidebar-list-pill links-accent"/,
    );
    assert.match(html, /class="search search-subtle"/);
  });
});

describe('renderPage: header, announcement, footer', () => {
  test('logo per theme, links with their styles, dropdowns, unresolved targets as text', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.header.logo = {
            light: 'https://cdn.test/logo.svg',
            dark: 'https://cdn.test/logo-dark.svg',
          };
          s.header.links = [
            {
              title: 'Guides',
              to: url('https://e.test/g'),
              links: [{ title: 'Start', to: url('https://e.test/s') }],
            },
            { title: 'Sign up', style: 'button-primary', to: url('https://e.test/up'), links: [] },
            { title: 'Broken', to: url('javascript:alert(1)'), links: [] },
          ] as Settings['header']['links'];
        }),
      }),
    );
    assert.match(html, /<img class="logo logo-light" src="https:\/\/cdn.test\/logo.svg"/);
    assert.match(html, /<img class="logo logo-dark" src="https:\/\/cdn.test\/logo-dark.svg"/);
    assert.match(
      html,
      /<details class="dropdown"><summary class="header-link link">Guides <svg class="icon icon-chevronDown"[\s\S]*?<\/svg><\/summary><ul><li><a class="header-sublink" href="https:\/\/e.test\/s">Start<\/a>/,
    );
    assert.match(
      html,
      /<a class="header-link button-primary" href="https:\/\/e.test\/up">Sign up<\/a>/,
    );
    assert.match(html, /<span class="header-link link unresolved">Broken<\/span>/);
    assert.doesNotMatch(html, /javascript:/);
  });

  test('the theme toggle only when toggeable', () => {
    assert.doesNotMatch(renderPage(view()), /theme-toggle/);
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.themes.toggeable = true;
        }),
      }),
    );
    assert.match(html, /<button type="button" class="theme-toggle"/);
  });

  test('announcement: only when enabled, its style, its link, a dismissal key per message', () => {
    const banner = (message: string, enabled = true) =>
      renderPage(
        view({
          settings: settings((s) => {
            s.announcement = {
              enabled,
              message,
              style: 'warning',
              link: { title: 'More', to: url('https://e.test/v2') },
            };
          }),
        }),
      );
    assert.doesNotMatch(banner('Version 2 is out', false), /class="announcement/);
    const html = banner('Version 2 is out');
    assert.match(
      html,
      /<div class="announcement announcement-warning" data-announcement="[0-9a-f]{16}"/,
    );
    assert.match(
      html,
      /<a class="announcement-link" href="https:\/\/e.test\/v2">Version 2 is out <span class="announcement-call">More<\/span> <svg class="icon icon-arrowRight"/,
    );
    const key = (h: string) => /data-announcement="([0-9a-f]+)"/.exec(h)?.[1];
    assert.equal(key(html), key(banner('Version 2 is out')));
    assert.notEqual(key(html), key(banner('Version 3 is out')), 'a new message shows again');
  });

  test('footer: logo, groups, copyright, privacy policy, trademark only when enabled', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.footer = {
            logo: { light: 'https://cdn.test/f.svg', dark: 'https://cdn.test/fd.svg' },
            groups: [
              { title: 'Product', links: [{ title: 'Pricing', to: url('https://e.test/p') }] },
            ],
            copyright: '© Acme',
          } as Settings['footer'];
          s.privacyPolicy.url = 'https://e.test/privacy';
        }),
      }),
    );
    assert.match(
      html,
      /<div class="footer-group"><h2>Product<\/h2><ul><li><a class="footer-link" href="https:\/\/e.test\/p">Pricing<\/a>/,
    );
    assert.match(html, /<p class="copyright">© Acme<\/p>/);
    assert.match(html, /<a class="privacy" href="https:\/\/e.test\/privacy">Privacy policy<\/a>/);
    assert.match(html, /Powered by Livery/);
    const off = renderPage(
      view({
        settings: settings((s) => {
          s.trademark.enabled = false;
        }),
      }),
    );
    assert.doesNotMatch(off, /Powered by/);
  });

  test('external links open in a new tab only when externalLinks.target is blank', () => {
    const links = (target: 'self' | 'blank') =>
      renderPage(
        view({
          settings: settings((s) => {
            s.externalLinks.target = target;
            s.header.links = [
              { title: 'Out', to: url('https://e.test'), links: [] },
            ] as Settings['header']['links'];
          }),
        }),
      );
    assert.doesNotMatch(links('self'), /target="_blank"/);
    assert.match(
      links('blank'),
      /href="https:\/\/e.test" target="_blank" rel="noopener noreferrer"/,
    );
  });
});

describe('renderPage: the page', () => {
  test('feedback widget only when feedback is enabled', () => {
    assert.doesNotMatch(renderPage(view()), /class="feedback"/);
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.feedback.enabled = true;
        }),
      }),
    );
    assert.match(
      html,
      /<section class="feedback"><p>Was this page helpful\?<\/p><button type="button" data-rating="good">/,
    );
    assert.match(html, /data-feedback-href="\/s\/acme\/_feedback\/p1"/);
  });

  test('previous/next only when pagination is enabled', () => {
    const neighbours = {
      previous: { title: 'Intro', href: '/s/acme/intro' },
      next: { title: 'Use', href: '/s/acme/use' },
    };
    const html = renderPage(view({ neighbours }));
    assert.match(
      html,
      /<a class="prev" rel="prev" href="\/s\/acme\/intro"><small><svg class="icon icon-arrowLeft"[\s\S]*?<\/svg>Previous<\/small> Intro<\/a>/,
    );
    assert.match(
      html,
      /<a class="next" rel="next" href="\/s\/acme\/use"><small>Next<svg class="icon icon-arrowRight"[\s\S]*?<\/svg><\/small> Use<\/a>/,
    );
    const off = renderPage(
      view({
        neighbours,
        settings: settings((s) => {
          s.pagination.enabled = false;
        }),
      }),
    );
    assert.doesNotMatch(off, /class="pagination"/);
  });

  test('the edit link only when git.showEditLink, and only where the page has one', () => {
    const editHref = 'http://api.test/v1/spaces/s1/content/page/p1';
    const on = (show: boolean) =>
      settings((s) => {
        s.git.showEditLink = show;
      });
    assert.match(
      renderPage(view({ editHref, settings: on(true) })),
      /<p class="edit-link"><a href="http:\/\/api.test\/v1\/spaces\/s1\/content\/page\/p1">Edit this page<\/a>/,
    );
    assert.doesNotMatch(renderPage(view({ editHref, settings: on(false) })), /edit-link/);
    assert.doesNotMatch(renderPage(view({ settings: on(true) })), /edit-link/);
  });

  test('the script finds the page, the variant and where to report in data attributes', () => {
    const html = renderPage(
      view({
        siteSpaceId: 'ss"1',
        feedbackHref: '/s/a/@livery/feedback',
        viewHref: '/s/a/@livery/view',
      }),
    );
    assert.match(html, /data-site-space-id="ss&quot;1"/);
    assert.match(html, /data-feedback-href="\/s\/a\/@livery\/feedback"/);
    assert.match(html, /data-view-href="\/s\/a\/@livery\/view"/);
    assert.doesNotMatch(renderPage(view()), /data-view-href/);
  });

  test('a preview carries its theme inline, and no </style> can close it early', () => {
    const html = renderPage(view({ inlineThemeCss: ':root { --x: 1; } </style><script>' }));
    assert.match(html, /<style>:root \{ --x: 1; \} <\\\/style><script><\/style>/);
    assert.doesNotMatch(html, /<link rel="stylesheet" href="[^"]*theme/);
  });

  test('hostile titles and texts are escaped everywhere they appear', () => {
    const evil = '<script>alert(1)</script>';
    const html = renderPage(
      view({
        siteTitle: evil,
        page: { id: 'p', title: evil, description: evil, bodyHtml: markup`<p>ok</p>` },
        breadcrumbs: [{ title: evil, href: '/s/acme/x' }],
        sidebar: [
          {
            id: 'a',
            title: evil,
            kind: 'document',
            href: '/s/acme/a',
            active: true,
            open: true,
            children: [],
          },
        ],
        settings: settings((s) => {
          s.announcement = { enabled: true, message: evil, style: 'info' };
          s.footer.copyright = evil;
          s.header.links = [
            { title: evil, to: url('https://e.test'), links: [] },
          ] as Settings['header']['links'];
        }),
      }),
    );
    assert.doesNotMatch(html, /<script>alert/);
    assert.ok(
      html.split('&lt;script&gt;alert(1)&lt;/script&gt;').length > 7,
      'escaped in every place',
    );
  });
});
