import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  escapeHtml,
  headingId,
  renderMarkdown,
} from '../../src/modules/published/rendering/markdown.js';

describe('renderMarkdown: hostile content is inert', () => {
  const rows: [string, string, RegExp, RegExp][] = [
    // [what, markdown, must match, must not match]
    ['a script tag', '<script>alert(1)</script>', /&lt;script&gt;/, /<script/i],
    ['an event handler', '<img src=x onerror=alert(1)>', /&lt;img/, /<img/i],
    [
      'HTML in a heading',
      '# Hi <b>there</b>',
      /<h1 id="[^"]+">Hi &lt;b&gt;there&lt;\/b&gt;<\/h1>/,
      /<b>/,
    ],
    ['a javascript: link', '[x](javascript:alert(1))', /\[x\]\(javascript:alert\(1\)\)/, /<a /],
    ['a JAVASCRIPT: link', '[x](JAVASCRIPT:alert(1))', /\[x\]/, /<a /],
    ['a vbscript: link', '[x](vbscript:msgbox(1))', /\[x\]/, /<a /],
    ['a data:text/html image', '![x](data:text/html,<b>)', /!\[x\]/, /<img/],
    ['an iframe', '<iframe src="https://e.test"></iframe>', /&lt;iframe/, /<iframe/],
    [
      'code with markup',
      '```html\n<b onclick="x()">b</b>\n```',
      /&lt;b onclick=&quot;x\(\)&quot;&gt;/,
      /<b /,
    ],
  ];
  for (const [what, markdown, shows, never] of rows) {
    test(what, () => {
      const html = renderMarkdown(markdown);
      assert.match(html, shows, html);
      assert.doesNotMatch(html, never, html);
    });
  }

  test('any input: no script element, no inline handler, no script URL in an attribute', () => {
    const pieces = fc.constantFrom(
      '<script>',
      '</script>',
      '<img src=x onerror=alert(1)>',
      '[a](javascript:x)',
      '[b](https://e.test)',
      '"',
      "'",
      '<',
      '>',
      '&',
      '# ',
      '\n',
      '`',
      'text ',
      'onload=',
      '<a href="javascript:x">',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const html = renderMarkdown(parts.join(''));
        assert.doesNotMatch(html, /<script/i);
        assert.doesNotMatch(html, /<[^>]+\son\w+=/i);
        assert.doesNotMatch(html, /(href|src)="\s*javascript:/i);
      }),
    );
  });
});

describe('renderMarkdown: what documentation needs', () => {
  test('links: external ones get rel="noopener noreferrer"; relative ones stay as written', () => {
    const html = renderMarkdown('[ext](https://e.test/a) [rel](../install) http://auto.test');
    assert.match(html, /<a href="https:\/\/e.test\/a" rel="noopener noreferrer">ext<\/a>/);
    assert.match(html, /<a href="..\/install">rel<\/a>/);
    assert.match(html, /<a href="http:\/\/auto.test" rel="noopener noreferrer">/);
  });

  test('externalLinks.target blank: external links open in a new tab, relative ones do not', () => {
    const html = renderMarkdown('[ext](https://e.test/a) [rel](../install)', { newTab: true });
    assert.match(
      html,
      /<a href="https:\/\/e.test\/a" target="_blank" rel="noopener noreferrer">ext<\/a>/,
    );
    assert.match(html, /<a href="..\/install">rel<\/a>/);
  });

  test('headings get ids from their text, numbered when repeated', () => {
    const html = renderMarkdown('## Install it\n\n## Install it\n\n### Über uns');
    assert.match(html, /<h2 id="install-it">/);
    assert.match(html, /<h2 id="install-it-2">/);
    assert.match(html, /<h3 id="über-uns">/);
  });

  test('tables, lists and fenced code with a language class', () => {
    const html = renderMarkdown(
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n\n```ts\nconst x = 1;\n```',
    );
    assert.match(html, /<table>/);
    assert.match(html, /<li>one<\/li>/);
    assert.match(html, /<pre><code class="language-ts">const x = 1;\n<\/code><\/pre>/);
  });
});

describe('headingId and escapeHtml', () => {
  const ids: [string, string][] = [
    ['Getting started', 'getting-started'],
    ['  API -- v2!  ', 'api-v2'],
    ['日本語の見出し', '日本語の見出し'],
    ['!!!', 'section'],
  ];
  for (const [text, id] of ids)
    test(`headingId(${JSON.stringify(text)})`, () => assert.equal(headingId(text), id));

  test('escapeHtml escapes the five characters that matter in content and attributes', () => {
    assert.equal(
      escapeHtml(`<a href="x" title='y'>&</a>`),
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
