import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { byTitle, newSpace, publishChanges } from '../helpers/insights.js';
import { visit } from '../helpers/published.js';
import { type PublishedFixture, publishedSite } from '../helpers/published-browser.js';

/**
 * GitBook 0.202's settings on the served site (docs/published-site.md): saved through the API,
 * read from `/s/…` as a visitor. Code blocks, fonts and their CSP, social accounts, the header's
 * primary link, localized texts per variant, the page menu and its Markdown, external-link
 * targets, `ai.mode: none`, `themes.default: system`; hostile values stay inert.
 */
let t: TestContext;
let site: PublishedFixture;
const CODE = '```ts\nconst answer: number = 42;\n```\n\n```no-such-language\n<b>&</b>\n```\n';

before(async () => {
  t = await createTestApp();
  site = await publishedSite(t, {
    basename: 'acme',
    title: 'Docs',
    pages: [
      {
        operation: 'insert_page',
        title: 'Code',
        description: 'Some code.',
        document: { markdown: CODE },
      },
      {
        operation: 'insert_page',
        title: 'Plain',
        document: { markdown: 'No code here; see [the blog](https://acme.test/blog).' },
      },
      {
        operation: 'insert_page',
        title: 'Notes',
        slug: 'notes.md',
        document: { markdown: 'A page.' },
      },
      {
        operation: 'insert_page',
        title: 'Notes source',
        slug: 'notes',
        document: { markdown: 'Other.' },
      },
    ],
  });
});
after(async () => t.close());

const customize = async (settings: Record<string, unknown>) =>
  void expectStatus(
    await t.request({ method: 'PUT', url: `${site.base}/customization`, payload: settings }),
    200,
  );
const page = async (path = '') => {
  const answer = await visit(t, `/s/acme/${path}`);
  assert.equal(answer.statusCode, 200, answer.body.slice(0, 300));
  return answer;
};
const themeCss = async () => (await visit(t, `/s/acme/@livery/theme/${site.siteSpaceId}.css`)).body;

describe('styling.codeTheme: fenced code highlighted by language, in both themes', () => {
  test('default: Livery’s theme from the site’s colors; an unknown language is plain text', async () => {
    await customize({});
    const html = (await page()).body;
    assert.match(html, /<pre class="shiki shiki-themes livery-default livery-default"/);
    assert.match(html, /--shiki-light:var\(--danger-11\)[^>]*>const</);
    assert.match(html, /<span>&lt;b&gt;&amp;&lt;\/b&gt;<\/span>/, 'escaped, untokenized');
  });

  test('Shiki’s themes by name, light and dark', async () => {
    await customize({
      styling: { codeTheme: { default: { light: 'github-light', dark: 'dracula' } } },
    });
    const html = (await page()).body;
    assert.match(html, /<pre class="shiki shiki-themes github-light dracula"/);
    assert.match(html, /<span style="--shiki-light:#D73A49;--shiki-dark:#FF79C6">const<\/span>/);
  });

  test('a page without code is unchanged', async () => {
    assert.doesNotMatch((await page('plain')).body, /shiki/);
  });
});

describe('fonts: custom definitions, the heading font, the CSP', () => {
  const brand = (fontFamily: string, url = 'https://fonts.acme.test/brand.woff2') => ({
    id: 'brand',
    custom: true,
    fontFamily,
    fontFaces: [{ weight: 400, sources: [{ url }] }],
  });

  test('default fonts: Livery’s files only, and no font-src beyond the default', async () => {
    await customize({ styling: { headingFont: 'RobotoSlab' } });
    const css = await themeCss();
    assert.match(css, /--font-heading: "Roboto Slab"/);
    assert.match(css, /url\("\/s\/@livery\/fonts\/roboto-slab-latin-400-normal\.woff2"\)/);
    const csp = String((await page()).headers['content-security-policy']);
    assert.doesNotMatch(csp, /font-src/);
  });

  test('a definition: @font-face from its files, and their origin allowed as font-src only', async () => {
    await customize({
      styling: {
        font: brand('Brand Sans'),
        monospaceFont: brand('Brand Mono', 'https://cdn.other.test:8443/mono.woff'),
      },
    });
    const css = await themeCss();
    assert.match(
      css,
      /@font-face \{ font-family: "Brand Sans"; [^}]*src: url\("https:\/\/fonts\.acme\.test\/brand\.woff2"\) format\("woff2"\)/,
    );
    assert.match(css, /--font-mono: "Brand Mono", ui-monospace/);
    const csp = String((await page()).headers['content-security-policy']);
    assert.match(
      csp,
      /; font-src 'self' https:\/\/fonts\.acme\.test https:\/\/cdn\.other\.test:8443$/,
    );
    assert.match(csp, /script-src 'self';/, 'the rest stays strict');
    assert.match(csp, /default-src 'self';/);
  });

  test('a hostile family name cannot leave its CSS string, in the file or inline in a preview', async () => {
    const evil = 'x"; } </style><script>alert(1)</script>';
    await customize({ styling: { font: brand(evil) } });
    const css = await themeCss();
    assert.doesNotMatch(css, /<\/style|<script/);
    assert.match(css, /font-family: "x\\22 ; \\7d {2}\\3c \/style\\3e /);
    const preview = await t.request({
      method: 'POST',
      url: `${site.base}/preview`,
      payload: { customization: { styling: { headingFont: brand(evil) } } },
    });
    assert.equal(preview.statusCode, 200);
    assert.doesNotMatch(preview.body, /<script>alert/);
    assert.equal(preview.body.match(/<\/style>/g)?.length, 1, 'only the theme’s own end tag');
  });
});

describe('socialAccounts, header.primaryLink, externalLinks.target', () => {
  test('accounts in the header and the footer per display; links open per the target', async () => {
    const pages = site.pages;
    await customize({
      externalLinks: { target: 'blank' },
      header: { primaryLink: { kind: 'page', page: byTitle(pages, 'Plain').id } },
      socialAccounts: [
        { platform: 'github', handle: 'acme', display: { footer: true, header: true } },
        {
          platform: 'mastodon',
          handle: 'acme@fosstodon.org',
          display: { footer: true, header: false },
        },
        {
          platform: 'twitter',
          handle: '"><script>x</script>',
          display: { footer: false, header: true },
        },
      ],
    });
    const html = (await page()).body;
    const head = /<header[\s\S]*<\/header>/.exec(html)?.[0] ?? '';
    const foot = /<footer[\s\S]*<\/footer>/.exec(html)?.[0] ?? '';
    assert.match(head, /<a class="brand" href="\/s\/acme\/plain">/);
    assert.match(
      (await page('plain')).body,
      /<a href="https:\/\/acme.test\/blog" target="_blank" rel="noopener noreferrer">the blog<\/a>/,
      'page bodies too',
    );
    assert.match(
      head,
      /href="https:\/\/github.com\/acme" target="_blank" rel="noopener noreferrer" aria-label="GitHub: acme"/,
    );
    assert.match(foot, /href="https:\/\/fosstodon.org\/@acme" target="_blank"/);
    assert.doesNotMatch(head, /fosstodon/);
    assert.match(head, /href="https:\/\/x.com\/%22%3E%3Cscript%3Ex%3C%2Fscript%3E"/);
    assert.doesNotMatch(html, /<script>x/);
  });

  test('a primary link to a URL', async () => {
    await customize({ header: { primaryLink: { kind: 'url', url: 'https://acme.test/' } } });
    assert.match((await page()).body, /<a class="brand" href="https:\/\/acme.test\/">/);
  });
});

describe('localized texts follow the variant’s locale', () => {
  test('title, announcement and links in German on a German variant, English elsewhere', async () => {
    const spaceId = await newSpace(t, 'Deutsch');
    await publishChanges(t, spaceId, [
      { operation: 'insert_page', title: 'Start', document: { markdown: 'Hallo' } },
    ]);
    expectStatus(
      await t.request({ method: 'POST', url: `${site.base}/site-spaces`, payload: { spaceId } }),
      201,
    );
    const listed = await t.request({ method: 'GET', url: `${site.base}/site-spaces` });
    const german = (expectStatus(listed, 200).items as { id: string; default: boolean }[]).find(
      (item) => !item.default,
    )?.id;
    assert.ok(german);
    await t.request({
      method: 'PATCH',
      url: `${site.base}/site-spaces/${german}`,
      payload: { path: 'de' },
    });
    await customize({
      title: 'Acme Docs',
      localizedTitle: { de: 'Acme Doku' },
      announcement: {
        enabled: true,
        message: 'Version 2 is out',
        localizedMessage: { de: 'Version 2 ist da' },
        style: 'info',
        link: {
          title: 'Read',
          localizedTitle: { de: 'Lesen' },
          to: { kind: 'url', url: 'https://acme.test/v2' },
        },
      },
    });
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${site.base}/site-spaces/${german}/customization`,
        payload: { internationalization: { locale: 'de' } },
      }),
      200,
    );
    const de = (await page('de/')).body;
    assert.match(de, /<title>Start \| Acme Doku<\/title>/);
    assert.match(de, />Version 2 ist da <span class="announcement-call">Lesen<\/span>/);
    const en = (await page()).body;
    assert.match(en, /<title>Code \| Acme Docs<\/title>/);
    assert.match(en, />Version 2 is out <span class="announcement-call">Read<\/span>/);
  });
});

describe('the page menu and the page’s Markdown', () => {
  test('default items: copy and view the Markdown first, then the AI actions of a public site', async () => {
    await customize({});
    const html = (await page()).body;
    assert.match(html, /data-action="copy-markdown" data-href="\/s\/acme\/code\.md"/);
    const prompt = encodeURIComponent(
      'Read http://livery.test/s/acme/code.md so I can ask questions about it.',
    );
    assert.ok(html.includes(`href="https://chatgpt.com/?hints=search&amp;q=${prompt}"`));
    assert.ok(html.includes(`href="https://claude.ai/new?q=${prompt}"`));
  });

  test('{page}.md: the page as Markdown, not indexed; a real page with that path wins', async () => {
    const md = await visit(t, '/s/acme/code.md');
    assert.equal(md.statusCode, 200);
    assert.equal(md.headers['content-type'], 'text/markdown; charset=utf-8');
    assert.equal(md.headers['x-robots-tag'], 'noindex');
    assert.equal(md.body, `# Code\n\nSome code.\n\n${CODE}`);
    assert.match((await page('notes.md')).body, /<h1>Notes<\/h1>/);
    assert.equal((await visit(t, '/s/acme/nope.md')).statusCode, 404);
  });

  test('items order and emptiness; pdf; ai.mode none hides the AI actions', async () => {
    await customize({ pageActions: { items: ['pdf', 'markdown'] } });
    // Export as PDF: the whole variant's PDF (docs/pdf.md).
    assert.match(
      (await page()).body,
      /<a class="page-action page-action-main" href="[^"]*@livery\/pdf\?siteSpaceId=/,
    );
    await customize({ pageActions: { items: [] } });
    assert.doesNotMatch((await page()).body, /page-actions/);
    await customize({ ai: { mode: 'none' } });
    const none = (await page()).body;
    assert.match(none, /copy-markdown/);
    assert.doesNotMatch(none, /chatgpt|claude/i);
  });

  test('a share-link site: no AI actions (outsiders cannot read it), its Markdown behind the key', async () => {
    expectStatus(
      await t.request({ method: 'PATCH', url: site.base, payload: { visibility: 'share-link' } }),
      200,
    );
    assert.equal((await visit(t, '/s/acme/code.md')).statusCode, 404);
    const member = await t.request({ method: 'GET', url: '/s/acme/' });
    assert.equal(member.statusCode, 200);
    assert.match(member.body, /copy-markdown/);
    assert.doesNotMatch(member.body, /chatgpt/);
    expectStatus(
      await t.request({ method: 'PATCH', url: site.base, payload: { visibility: 'public' } }),
      200,
    );
  });
});

describe('themes.default system; ai texts', () => {
  test('system: the page names it as the default and starts light', async () => {
    await customize({ themes: { default: 'system', toggeable: true } });
    assert.match(
      (await page()).body,
      /<html lang="en" data-theme="light" data-default-theme="system"/,
    );
  });

  test('ai.instructions, greeting and suggestions appear nowhere a visitor can read', async () => {
    await customize({
      ai: {
        mode: 'assistant',
        instructions: 'SECRET-INSTRUCTIONS',
        greeting: 'GREETING-TEXT',
        suggestions: ['SUGGESTION-ONE'],
      },
    });
    for (const path of ['', 'code.md', 'plain', 'nope', `@livery/theme/${site.siteSpaceId}.css`]) {
      const body = (await visit(t, `/s/acme/${path}`)).body;
      assert.doesNotMatch(body, /SECRET-INSTRUCTIONS|GREETING-TEXT|SUGGESTION-ONE/, path);
    }
  });
});
