import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  type CodeThemes,
  highlight,
  languageOf,
  MAX_HIGHLIGHTED_CHARS,
  PAGE_BUDGET_MS,
  pageHighlighter,
  prepare,
} from '../../src/modules/published/highlighting/code-highlight.js';
import {
  LIVERY_DEFAULT,
  shikiThemeName,
} from '../../src/modules/published/highlighting/code-themes.js';
import { codeBlocks, renderMarkdown } from '../../src/modules/published/rendering/markdown.js';

/**
 * Syntax highlighting of code blocks (styling.codeTheme, docs/published-site.md "Code blocks"):
 * which grammar a fence names, what the highlighted HTML carries for both themes, and that code
 * stays text whatever it holds.
 */
const GITHUB: CodeThemes = { light: 'github-light', dark: 'dracula' };
const DEFAULT: CodeThemes = { light: 'default-light', dark: 'default-dark' };

describe('languageOf: the grammar a fence names', () => {
  const rows: [string, string][] = [
    ['ts', 'ts'],
    ['TypeScript', 'typescript'],
    ['js title="app.js"', 'js'],
    ['  bash  ', 'bash'],
    ['shell', 'shell'],
    ['', 'text'],
    ['no-such-language', 'text'],
    ['constructor', 'text'],
    ['__proto__', 'text'],
    ['toString', 'text'],
    ['"><script>', 'text'],
  ];
  for (const [info, language] of rows) {
    test(JSON.stringify(info), () => assert.equal(languageOf(info), language));
  }
});

describe('shikiThemeName: GitBook’s own themes are Livery’s, from the site colors', () => {
  const rows: [Parameters<typeof shikiThemeName>[0], string][] = [
    ['default-light', LIVERY_DEFAULT],
    ['default-dark', LIVERY_DEFAULT],
    ['monochrome-light', 'livery-monochrome'],
    ['monochrome-dark', 'livery-monochrome'],
    ['dracula', 'dracula'],
    ['github-light', 'github-light'],
  ];
  for (const [name, shiki] of rows) test(name, () => assert.equal(shikiThemeName(name), shiki));
});

describe('highlight', () => {
  before(async () => {
    await prepare(['ts', 'bash'], GITHUB);
    await prepare(['ts'], DEFAULT);
  });

  test('tokens carry both themes’ colors as custom properties; the block both backgrounds', () => {
    const html = highlight('const answer = 42;', 'ts', GITHUB) ?? '';
    assert.match(
      html,
      /^<pre class="shiki shiki-themes github-light dracula" style="[^"]*--shiki-light-bg:#fff;--shiki-dark-bg:#282A36"/,
    );
    // `const` is a keyword: red in GitHub Light, pink in Dracula.
    assert.match(html, /<span style="--shiki-light:#D73A49;--shiki-dark:#FF79C6">const<\/span>/);
    assert.doesNotMatch(html, /style="color:/, 'no color applies until site.css picks a theme');
  });

  test('Livery’s default theme colors tokens with the site’s scales', () => {
    const html = highlight('const answer = "42";', 'ts', DEFAULT) ?? '';
    assert.match(html, /--shiki-light-bg:var\(--tint-2\)/);
    assert.match(
      html,
      /<span style="--shiki-light:var\(--danger-11\);--shiki-dark:var\(--danger-11\)">const/,
    );
    assert.match(html, /--shiki-light:var\(--success-11\)[^>]*>42</);
  });

  test('code is text: markup in it is escaped, in a known language and an unknown one', () => {
    for (const info of ['ts', 'no-such-language', '']) {
      const html = highlight('let x = "</pre><script>alert(1)</script>";', info, GITHUB) ?? '';
      assert.doesNotMatch(html, /<script|<\/pre><script/, info);
      assert.match(html, /&lt;script&gt;/, info);
    }
  });

  test('a language not loaded yet, or a theme not loaded, is not highlighted here', () => {
    assert.equal(highlight('x', 'ts', { light: 'nord', dark: 'nord' }), undefined);
    const plain = highlight('fn main() {}', 'rust', GITHUB) ?? '';
    assert.match(plain, /<span class="line"><span>fn main\(\) \{\}<\/span><\/span>/);
  });

  test('a block over the size limit is plain text in the theme’s colors', () => {
    const long = `const a = 1;\n${'x'.repeat(MAX_HIGHLIGHTED_CHARS)}`;
    const html = highlight(long, 'ts', GITHUB) ?? '';
    assert.match(html, /^<pre class="shiki/);
    assert.doesNotMatch(html, /#D73A49/, 'no keyword color');
  });

  test('the first line of a freshly loaded grammar is tokenized to its end (no time limit)', async () => {
    await prepare(['javascript'], GITHUB);
    const html =
      highlight("import { GitBookAPI } from '@gitbook/api';", 'javascript', GITHUB) ?? '';
    assert.match(
      html,
      /<span style="--shiki-light:#24292E;--shiki-dark:#F8F8F2"> \{ GitBookAPI \} <\/span>/,
    );
    assert.match(html, /--shiki-light:#032F62[^>]*>@gitbook\/api</);
  });

  test('a line over the line limit is plain; the lines around it are highlighted', () => {
    const html =
      highlight(`const a = 1;\nconst b = "${'x'.repeat(500)}";\nconst c = 3;`, 'ts', GITHUB) ?? '';
    assert.equal(html.match(/>const</g)?.length, 2);
    assert.match(html, /<span>const b = &quot;x{500}&quot;;<\/span>/);
  });

  test('a block highlighted once is kept: the same code in the same themes costs a lookup', () => {
    const code = `const kept = ${Date.now()};`;
    const first = highlight(code, 'ts', GITHUB);
    let clock = 0;
    assert.equal(
      highlight(code, 'ts', GITHUB, { spentMs: PAGE_BUDGET_MS }, () => clock++),
      first,
      'even with the budget spent',
    );
    assert.equal(clock, 0, 'no tokenizing at all');
  });

  test('once the budget is spent, the rest of a block is plain: a chunk at a time', () => {
    let clock = 0;
    const lines = Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`);
    // Each chunk takes half the budget on this clock: two chunks spend it.
    const budget = { spentMs: 0 };
    const tick = () => (clock += PAGE_BUDGET_MS / 2);
    const html = highlight(lines.join('\n'), 'ts', GITHUB, budget, tick) ?? '';
    const rows = html.split('<span class="line">').slice(1);
    assert.equal(rows.length, 400);
    assert.match(rows[0] ?? '', /#D73A49/, 'the first chunk is highlighted');
    assert.equal(rows.at(-1), '<span>const v399 = 399;</span></span></code></pre>');
  });

  test('a page highlights until its time budget is spent; later blocks are plain', async () => {
    // Each reading of this clock takes 40% of the budget: loading the page's grammar (two
    // readings) leaves room for the first block's chunk, after which the budget is spent.
    let clock = 0;
    const slow = () => (clock += PAGE_BUDGET_MS * 0.4);
    const markdown = '```ts\nconst early = 1;\n```\n\n```ts\nconst late = 2;\n```\n';
    const page = await pageHighlighter(markdown, GITHUB, slow);
    assert.match(page('const early = 1;\n', 'ts') ?? '', /#D73A49/);
    const late = page('const late = 2;\n', 'ts') ?? '';
    assert.match(late, /^<pre class="shiki/);
    assert.doesNotMatch(late, /#D73A49/);
    assert.equal(page('const other = 3;\n', 'ts'), undefined, 'only the page’s own blocks');
  });

  test('grammars are loaded within the budget: past it, a language not loaded yet is plain', async () => {
    let clock = 0;
    const slow = () => (clock += PAGE_BUDGET_MS);
    const page = await pageHighlighter('```ocaml\nlet x = 1\n```\n', GITHUB, slow);
    const html = page('let x = 1\n', 'ocaml') ?? '';
    assert.match(html, /^<pre class="shiki/);
    assert.doesNotMatch(html, /color:#D73A49/, 'plain: its grammar was not loaded');
  });
});

describe('Markdown code blocks', () => {
  test('codeBlocks: fences (in lists too) and indented blocks, each with its syntax', () => {
    // A quote cannot hold a code block in GitBook's document model: its lines become code text.
    const markdown =
      '```ts\na\n```\n\n- item\n\n  ~~~ python title="x"\n  b\n  ~~~\n\n> ```\n> c\n> ```\n\n    indented\n';
    assert.deepEqual(codeBlocks(markdown), [
      { code: 'a\n', info: 'ts' },
      { code: 'b\n', info: 'python' },
      { code: 'indented\n', info: '' },
    ]);
  });

  test('renderMarkdown passes each block to the highlighter, with its info string', async () => {
    await prepare(['ts'], GITHUB);
    const seen: [string, string][] = [];
    const html = renderMarkdown('```ts\nlet a = 1\n```\n\n    plain\n', {
      highlight: (code, info) => {
        seen.push([code, info]);
        return highlight(code, info, GITHUB);
      },
    });
    assert.deepEqual(seen, [
      ['let a = 1\n', 'ts'],
      ['plain\n', ''],
    ]);
    assert.equal(html.match(/<pre class="shiki/g)?.length, 2);
  });

  test('a block the highlighter declines is rendered plain and escaped, as before', () => {
    const html = renderMarkdown('```html\n<b>&</b>\n```\n', { highlight: () => undefined });
    assert.equal(
      html,
      '<pre><code class="language-html">&lt;b&gt;&amp;&lt;/b&gt;\n</code></pre>\n',
    );
  });
});
