import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import { readPdf } from '../helpers/pdf-text.js';
import {
  type BrowserSuite,
  type PublishedFixture,
  publishedSite,
  startBrowserSuite,
} from '../helpers/published-browser.js';

/**
 * GitBook 0.202's settings in Chromium (docs/published-site.md): a custom font and a heading
 * font really load and apply; code is highlighted in the code theme of the page's theme, which
 * follows the OS (`themes.default: system`) until the visitor toggles; social accounts; the page
 * menu copies the page's Markdown. Screenshots go to test-results/; with
 * LIVERY_UPDATE_SCREENSHOTS=1 they also refresh docs/images/published-0202-{light,dark}.png.
 */
let s: BrowserSuite;
let site: PublishedFixture;
let address: string;
let settings: Record<string, unknown>;

const MARKDOWN = `Livery highlights code by language, in the code theme of the page's theme.

## Publish from a script

\`\`\`ts
import { GitBookAPI } from '@gitbook/api';

// Publish the site, then print its address.
const api = new GitBookAPI({ authToken: process.env.TOKEN, endpoint: 'http://127.0.0.1:8080' });
const { data } = await api.orgs.publishSite(orgId, siteId);
console.log(\`published at \${data.urls.published}\`);
\`\`\`

Or with curl:

\`\`\`bash
curl -s -X POST "$LIVERY/v1/orgs/$ORG/sites/$SITE/publish" -H "Authorization: Bearer $TOKEN" | jq -r .urls.published
\`\`\`
`;

const css = (page: Page, selector: string, property: string) =>
  page
    .locator(selector)
    .first()
    .evaluate(
      (el, name) => el.ownerDocument.defaultView?.getComputedStyle(el).getPropertyValue(name) ?? '',
      property,
    );
const keyword = 'pre.shiki span:text-is("const")';

before(async () => {
  s = await startBrowserSuite();
  site = await publishedSite(s.t, {
    basename: 'showcase',
    title: 'Showcase',
    pages: [
      {
        operation: 'insert_page',
        title: 'Getting started',
        description: 'Publish your first site from a script.',
        document: { markdown: MARKDOWN },
      },
      { operation: 'insert_page', title: 'Install', document: { markdown: 'Run `npm i`.' } },
    ],
  });
  const font = (file: string) => `${s.origin}/s/@livery/fonts/${file}`;
  settings = {
    title: 'Livery Handbook',
    styling: {
      primaryColor: { light: '#0B5FFF', dark: '#7AA7FF' },
      // A definition whose files happen to be Livery's own Lato, under a name with a quote.
      font: {
        id: 'brand',
        custom: true,
        fontFamily: 'Brand "Sans"',
        fontFaces: [
          { weight: 400, sources: [{ url: font('lato-latin-400-normal.woff2') }] },
          { weight: 700, sources: [{ url: font('lato-latin-700-normal.woff2'), format: 'woff2' }] },
        ],
      },
      headingFont: 'RobotoSlab',
      monospaceFont: 'JetBrainsMono',
      codeTheme: { default: { light: 'github-light', dark: 'github-dark' } },
    },
    header: {
      links: [{ title: 'API', to: { kind: 'url', url: `${s.origin}/docs/` }, links: [] }],
    },
    socialAccounts: [
      { platform: 'github', handle: 'livery', display: { footer: true, header: true } },
      { platform: 'twitter', handle: 'livery', display: { footer: true, header: false } },
      { platform: 'discord', handle: 'livery', display: { footer: true, header: false } },
      {
        platform: 'mastodon',
        handle: 'livery@fosstodon.org',
        display: { footer: true, header: false },
      },
      { platform: 'linkedin', handle: 'livery', display: { footer: true, header: false } },
    ],
    footer: { copyright: '© 2026 Livery' },
    pageActions: { items: ['markdown', 'external-ai', 'pdf'] },
    externalLinks: { target: 'blank' },
    themes: { default: 'system', toggeable: true },
  };
  await customize(settings);
  address = `${s.origin}/s/showcase/`;
});
after(async () => s?.close());

async function customize(body: Record<string, unknown>) {
  const url = `${site.base}/customization`;
  expectStatus(await s.t.request({ method: 'PUT', url, payload: body }), 200);
}

async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await s.context();
  const page = await context.newPage();
  await page.emulateMedia({ colorScheme });
  await page.goto(address);
  await page.locator(keyword).first().waitFor({ timeout: 30_000 });
  return page;
}

describe('fonts', () => {
  test('the custom definition loads and sets the text; the heading font sets the headings', async () => {
    const page = await open('light');
    const faces = (await page.evaluate(`document.fonts.ready.then(() =>
      [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family + ':' + f.weight))`)) as string[];
    assert.ok(faces.includes('Brand "Sans":400'), faces.join(', '));
    assert.ok(faces.includes('Roboto Slab:700'), faces.join(', '));
    assert.ok(faces.includes('JetBrains Mono:400'), faces.join(', '));
    assert.match(await css(page, 'main p', 'font-family'), /^"Brand \\"Sans\\""/);
    assert.match(await css(page, 'main h1', 'font-family'), /^"Roboto Slab"/);
    assert.match(await css(page, 'main h2', 'font-family'), /^"Roboto Slab"/);
    assert.match(await css(page, 'pre.shiki code', 'font-family'), /^"JetBrains Mono"/);
    await page.close();
  });
});

describe('code blocks and themes.default: system', () => {
  test('a dark OS: the dark code theme; it follows the OS until the visitor chooses (screenshots)', async () => {
    const page = await open('dark');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.equal(await css(page, keyword, 'color'), 'rgb(249, 117, 131)', 'github-dark keyword');
    assert.equal(await css(page, 'pre.shiki', 'background-color'), 'rgb(36, 41, 46)');
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/published-0202-dark.png', fullPage: true });

    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForSelector('html[data-theme="light"]', { timeout: 30_000 });
    assert.equal(await css(page, keyword, 'color'), 'rgb(215, 58, 73)', 'github-light keyword');
    assert.equal(await css(page, 'pre.shiki', 'background-color'), 'rgb(255, 255, 255)');

    await page.click('.theme-toggle');
    await page.waitForSelector('html[data-theme="dark"]', { timeout: 30_000 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await page.locator(keyword).first().waitFor();
    assert.equal(
      await page.getAttribute('html', 'data-theme'),
      'dark',
      'the choice wins over the OS',
    );
    await page.close();
  });

  test('a light OS: the light code theme; the page menu opened (screenshot)', async () => {
    const page = await open('light');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    assert.equal(await css(page, keyword, 'color'), 'rgb(215, 58, 73)');
    await page.click('.page-actions-more summary');
    await page.locator('.page-actions-more ul').waitFor({ state: 'visible' });
    await page.screenshot({ path: 'test-results/published-0202-light.png', fullPage: true });
    if (process.env.LIVERY_UPDATE_SCREENSHOTS === '1') {
      mkdirSync('docs/images', { recursive: true });
      for (const name of ['published-0202-light.png', 'published-0202-dark.png']) {
        copyFileSync(`test-results/${name}`, `docs/images/${name}`);
      }
    }
    await page.close();
  });

  test('Livery’s default code theme takes the site’s colors, in each theme', async () => {
    const { codeTheme: _, ...styling } = settings.styling as Record<string, unknown>;
    await customize({ ...settings, styling });
    try {
      for (const scheme of ['light', 'dark'] as const) {
        const page = await open(scheme);
        const expected = await page.evaluate(`(() => {
          const probe = document.createElement('span');
          probe.style.color = 'var(--danger-11)';
          document.body.append(probe);
          return getComputedStyle(probe).color;
        })()`);
        assert.equal(await css(page, keyword, 'color'), expected, scheme);
        await page.close();
      }
    } finally {
      await customize(settings);
    }
  });
});

describe('social accounts and the page menu', () => {
  test('icons in the header and the footer, named, opening in a new tab', async () => {
    const page = await open('light');
    const footer = page.locator('.site-footer .social-link');
    assert.equal(await footer.count(), 5);
    assert.deepEqual(
      await footer.evaluateAll((links) => links.map((a) => a.getAttribute('aria-label'))),
      [
        'GitHub: livery',
        'X (Twitter): livery',
        'Discord: livery',
        'Mastodon: livery@fosstodon.org',
        'LinkedIn: livery',
      ],
    );
    const github = page.locator('.site-header .social-github');
    assert.equal(await github.getAttribute('href'), 'https://github.com/livery');
    assert.equal(await github.getAttribute('target'), '_blank');
    const box = await page.locator('.site-header .social-github svg').boundingBox();
    assert.ok(box !== null && box.width >= 16 && box.height >= 16, JSON.stringify(box));
    assert.equal(await page.locator('.social-linkedin .social-name').textContent(), 'LinkedIn');
    await page.close();
  });

  test('“Copy page” copies the page’s Markdown; the menu lists its actions in order', async () => {
    const context = await s.context();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.origin });
    const page = await context.newPage();
    await page.goto(address);
    const main = page.locator('.page-action-main');
    await main.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await main.textContent(), 'Copy page');
    await main.click();
    await page.locator('.page-action-main span:text-is("Copied")').waitFor({ timeout: 30_000 });
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    assert.match(
      copied,
      /^# Getting started\n\nPublish your first site from a script\.\n\nLivery highlights/,
    );

    await page.click('.page-actions-more summary');
    const entries = page.locator('.page-actions-more li .page-action');
    assert.deepEqual(await entries.allTextContents(), [
      'View as Markdown',
      'Open in ChatGPT',
      'Open in Claude',
      'Export as PDF',
    ]);
    assert.match(
      (await entries.nth(1).getAttribute('href')) ?? '',
      /^https:\/\/chatgpt\.com\/\?hints=search&q=Read%20http/,
    );
    // Export as PDF downloads the whole variant (docs/pdf.md), read back with PDF.js.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      entries.nth(3).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.pdf$/);
    const pdf = await readPdf(await readFile(await download.path()));
    assert.ok(pdf.outline.includes('Getting started'), pdf.outline.join());
    assert.ok(pdf.pages.some((text) => text.startsWith('Getting started\n')));
    // A download leaves the page, and its menu, as they were: open.
    await page.evaluate("document.querySelector('.page-actions-more').open = true");
    await entries.nth(0).click();
    await page.waitForURL(`${address}getting-started.md`, { timeout: 30_000 });
    assert.match((await page.textContent('body')) ?? '', /^# Getting started/);
    await page.close();
  });

  test('no request of any page above left 127.0.0.1', () => {
    assert.ok(s.requests.count > 20, `pages made requests (${s.requests.count})`);
    assert.deepEqual(s.external, []);
  });
});
