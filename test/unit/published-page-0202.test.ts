import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { localized } from '../../src/modules/published/rendering/localized.js';
import { menuEntries, shownActions } from '../../src/modules/published/rendering/page-actions.js';
import { type PageView, renderPage } from '../../src/modules/published/rendering/page-html.js';
import { stringsFor } from '../../src/modules/published/rendering/strings.js';
import type { Settings } from '../../src/settings/settings-schema.js';
import type { PageAction } from '../../src/settings/vocabulary.js';
import { pageView, settings, url } from '../helpers/page-view.js';

/**
 * The settings GitBook 0.202 added, as the page shows them (page-html.ts, page-chrome.ts,
 * page-actions.ts): localized texts, the header's primary link, social accounts, the page menu,
 * `externalLinks.target` on every external link, `themes.default: system`.
 */
const ACTIONS = {
  markdownHref: '/s/acme/install.md',
  publicMarkdownUrl: 'https://d.test/s/acme/install.md',
};
const view = (fields: Partial<PageView> = {}): PageView =>
  pageView({
    assetsHref: '/s/@livery/',
    actions: ACTIONS,
    ...fields,
  });

describe('localized texts', () => {
  const rows: [string, Record<string, string> | undefined, string, string][] = [
    ['Docs', { fr: 'Documentation' }, 'fr', 'Documentation'],
    ['Docs', { fr: 'Documentation' }, 'de', 'Docs'],
    ['Docs', { fr: '' }, 'fr', 'Docs'],
    ['Docs', undefined, 'fr', 'Docs'],
    ['Docs', { 'pt-br': 'Documentação' }, 'pt-br', 'Documentação'],
  ];
  for (const [text, map, locale, shown] of rows) {
    test(`${locale} ${JSON.stringify(map)}`, () =>
      assert.equal(localized(text, map, locale), shown));
  }

  test('header items, sub-links, footer groups and links, the announcement and its link', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.internationalization.locale = 'de';
          s.header.links = [
            {
              title: 'Guides',
              localizedTitle: { de: 'Anleitungen' },
              to: null,
              links: [
                { title: 'Start', localizedTitle: { de: 'Anfang' }, to: url('https://e.test/s') },
              ],
            },
          ] as Settings['header']['links'];
          s.footer.groups = [
            {
              title: 'Company',
              localizedTitle: { de: 'Firma' },
              links: [
                { title: 'About', localizedTitle: { fr: 'À propos' }, to: url('https://e.test/a') },
              ],
            },
          ] as Settings['footer']['groups'];
          s.announcement = {
            enabled: true,
            message: 'Version 2 is out',
            localizedMessage: { de: 'Version 2 ist da' },
            style: 'info',
            link: { title: 'Read', localizedTitle: { de: 'Lesen' }, to: url('https://e.test/v2') },
          };
        }),
      }),
    );
    assert.match(html, /<summary class="header-link link">Anleitungen /);
    assert.match(html, /<a class="header-sublink" href="https:\/\/e.test\/s">Anfang<\/a>/);
    assert.match(html, /<h2>Firma<\/h2>/);
    assert.match(
      html,
      /<a class="footer-link" href="https:\/\/e.test\/a">About<\/a>/,
      'no German: the default',
    );
    assert.match(html, />Version 2 ist da <span class="announcement-call">Lesen<\/span>/);
    assert.doesNotMatch(html, /Version 2 is out|>Guides|>Company/);
  });
});

describe('header.primaryLink', () => {
  const brand = (html: string) => /<a class="brand" href="([^"]*)"([^>]*)>/.exec(html);
  test('unset or unfollowable: the variant’s start', () => {
    assert.equal(brand(renderPage(view()))?.[1], '/s/acme/');
    const unfollowable = settings((s) => {
      s.header.primaryLink = { kind: 'tag', tag: 'v2' };
    });
    assert.equal(brand(renderPage(view({ settings: unfollowable })))?.[1], '/s/acme/');
  });
  test('a URL, opened per externalLinks.target', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.header.primaryLink = url('https://acme.test/');
          s.externalLinks.target = 'blank';
        }),
      }),
    );
    assert.deepEqual(brand(html)?.slice(1), [
      'https://acme.test/',
      ' target="_blank" rel="noopener noreferrer"',
    ]);
  });
});

describe('externalLinks.target: blank applies to every external link', () => {
  test('header, sub-links, footer, announcement, privacy policy, social accounts; not internal ones', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.externalLinks.target = 'blank';
          s.header.links = [
            {
              title: 'API',
              to: url('https://e.test/api'),
              links: [{ title: 'Sub', to: url('https://e.test/sub') }],
            },
            { title: 'Here', to: { kind: 'anchor', anchor: 'top' }, links: [] },
          ] as Settings['header']['links'];
          s.footer.groups = [{ title: 'G', links: [{ title: 'F', to: url('https://e.test/f') }] }];
          s.announcement = {
            enabled: true,
            message: 'News',
            style: 'info',
            link: { title: 'Read', to: url('https://e.test/n') },
          };
          s.privacyPolicy.url = 'https://e.test/privacy';
          s.socialAccounts = [
            { platform: 'github', handle: 'acme', display: { footer: true, header: false } },
          ];
        }),
      }),
    );
    for (const href of [
      'https://e.test/sub',
      'https://e.test/f',
      'https://e.test/n',
      'https://e.test/privacy',
      'https://github.com/acme',
    ]) {
      assert.match(
        html,
        new RegExp(`href="${href}" target="_blank" rel="noopener noreferrer"`),
        href,
      );
    }
    assert.match(html, /<a class="header-link link" href="#top">Here<\/a>/);
  });
});

describe('socialAccounts', () => {
  const accounts = settings((s) => {
    s.socialAccounts = [
      { platform: 'github', handle: 'acme', display: { footer: true, header: true } },
      { platform: 'linkedin', handle: 'in/ada', display: { footer: true, header: false } },
      { platform: 'mastodon', handle: 'acme@bad host', display: { footer: true, header: true } },
      {
        platform: 'twitter',
        handle: '"><img src=x onerror=alert(1)>',
        display: { footer: false, header: true },
      },
    ];
  });
  const html = renderPage(view({ settings: accounts }));
  const [head = '', foot = ''] = [
    /<header[\s\S]*<\/header>/.exec(html)?.[0],
    /<footer[\s\S]*<\/footer>/.exec(html)?.[0],
  ];

  test('each where `display` says, named for assistive technology, with its brand icon', () => {
    assert.match(
      head,
      /<a class="social-link social-github" href="https:\/\/github.com\/acme" aria-label="GitHub: acme" title="GitHub: acme"><svg class="brand-icon"/,
    );
    assert.match(foot, /social-github/);
    assert.doesNotMatch(head, /social-linkedin/);
    assert.match(foot, /<ul class="social-links social-footer" aria-label="Social accounts">/);
  });
  test('no brand icon: a link icon and the platform’s name', () => {
    assert.match(
      foot,
      /href="https:\/\/www.linkedin.com\/in\/ada"[^>]*><svg class="icon icon-link"[\s\S]*?<span class="social-name">LinkedIn<\/span>/,
    );
  });
  test('a handle that makes no address is not shown; a hostile one is encoded and escaped', () => {
    assert.doesNotMatch(html, /social-mastodon/);
    assert.match(head, /href="https:\/\/x.com\/%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert\(1\)%3E"/);
    assert.match(
      head,
      /aria-label="X \(Twitter\): &quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;"/,
    );
    assert.doesNotMatch(html, /<img src=x/);
  });
  test('none: no list at all', () => {
    assert.doesNotMatch(renderPage(view()), /social-links/);
  });
});

describe('page actions', () => {
  const shown = (items: PageAction[], change: (s: Settings) => void = () => {}, publicUrl = true) =>
    shownActions(
      settings((s) => {
        s.pageActions = {
          items,
          externalAI: items.includes('external-ai'),
          markdown: items.includes('markdown'),
        };
        change(s);
      }),
      publicUrl ? ACTIONS : { markdownHref: ACTIONS.markdownHref },
    );
  const all: PageAction[] = ['assistant', 'git', 'pdf', 'external-ai', 'mcp', 'markdown'];
  test('in the order of items; assistant, mcp and git never (Livery has none)', () => {
    assert.deepEqual(shown(all), ['pdf', 'external-ai', 'markdown']);
    assert.deepEqual(
      shown(all, (s) => {
        s.ai.mode = 'assistant';
      }),
      ['pdf', 'external-ai', 'markdown'],
    );
    assert.deepEqual(shown([]), []);
  });
  test('ai.mode none removes the AI actions; a site not readable by outsiders too', () => {
    assert.deepEqual(
      shown(all, (s) => {
        s.ai.mode = 'none';
      }),
      ['pdf', 'markdown'],
    );
    assert.deepEqual(
      shown(all, () => {}, false),
      ['pdf', 'markdown'],
    );
  });
  test('pdf needs pdf.enabled', () => {
    assert.deepEqual(
      shown(all, (s) => {
        s.pdf.enabled = false;
      }),
      ['external-ai', 'markdown'],
    );
  });
  test('entries: copy and view the Markdown, ChatGPT and Claude with the page to read, print', () => {
    const entries = menuEntries(
      settings((s) => {
        s.pageActions.items = ['external-ai', 'markdown', 'pdf'];
      }),
      ACTIONS,
      stringsFor('en'),
    );
    assert.deepEqual(
      entries.map((entry) => entry.label),
      ['Open in ChatGPT', 'Open in Claude', 'Copy page', 'View as Markdown', 'Export as PDF'],
    );
    const prompt = encodeURIComponent(
      'Read https://d.test/s/acme/install.md so I can ask questions about it.',
    );
    assert.equal(
      entries[0]?.kind === 'link' && entries[0].href,
      `https://chatgpt.com/?hints=search&q=${prompt}`,
    );
    assert.equal(
      entries[1]?.kind === 'link' && entries[1].href,
      `https://claude.ai/new?q=${prompt}`,
    );
  });
  test('the menu: the first entry as the main button, the others in a dropdown; none without actions', () => {
    const html = renderPage(view());
    assert.match(
      html,
      /<div class="page-head"><h1>Install<\/h1><div class="page-actions" role="group" aria-label="Page actions"><button type="button" class="page-action page-action-main" data-action="copy-markdown" data-href="\/s\/acme\/install.md" data-done="Copied" hidden>/,
    );
    assert.match(
      html,
      /<details class="dropdown page-actions-more"><summary class="page-action" aria-label="More page actions"/,
    );
    assert.match(html, /<li><a class="page-action" href="\/s\/acme\/install.md">/);
    const off = settings((s) => {
      s.pageActions.items = [];
    });
    assert.doesNotMatch(renderPage(view({ settings: off })), /page-actions/);
    const { actions: _, ...noActions } = view();
    assert.doesNotMatch(renderPage(noActions), /page-actions/, 'not a document page');
  });
});

describe('themes.default: system', () => {
  test('the HTML starts light and names system as the default; the script follows the OS', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.themes.default = 'system';
        }),
      }),
    );
    assert.match(html, /<html lang="en" data-theme="light" data-default-theme="system"/);
  });
});

describe('ai settings never leak', () => {
  test('instructions, greeting and suggestions are not on the page', () => {
    const html = renderPage(
      view({
        settings: settings((s) => {
          s.ai = {
            mode: 'assistant',
            instructions: 'SECRET-INSTRUCTIONS',
            greeting: 'GREETING-TEXT',
            suggestions: ['SUGGESTION-ONE'],
            pageLinkSummaries: { enabled: true },
          };
        }),
      }),
    );
    assert.doesNotMatch(html, /SECRET-INSTRUCTIONS|GREETING-TEXT|SUGGESTION-ONE/);
  });
});
