/**
 * The published site renders pages from their documents (issue 15): GitBook-flavoured Markdown
 * through the real HTTP layer, as a visitor sees it: hints as callouts, tables with rules, task
 * lists as boxes, working tabs, links to other pages at their site addresses, the title shown
 * once, code highlighted, no template tag left.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { newSpace } from '../helpers/content.js';
import { publishChanges } from '../helpers/insights.js';
import { visit } from '../helpers/published.js';

const GUIDE = `# Guide

See [the install page](install.md#setup) and [**Acme**](https://acme.test).

{% hint style="danger" %}
Do **not** run as root.
{% endhint %}

- [x] downloaded
- [ ] installed

| Option | Default |
|---|---|
| \`port\` | 8080 |

{% tabs %}
{% tab title="macOS" %}
\`\`\`bash
brew install livery
\`\`\`
{% endtab %}
{% tab title="Linux" %}
apt install livery
{% endtab %}
{% endtabs %}

{% content-ref url="install.md" %}
[install.md](install.md)
{% endcontent-ref %}

{% updates %}
Kept as content.
{% endupdates %}

{% stepper %}
{% step %}
Download it.
{% endstep %}

{% step %}
Run $$n^2$$ checks.
{% endstep %}
{% endstepper %}

{% columns %}
{% column width="50%" %}
Left
{% endcolumn %}

{% column width="50%" %}
Right
{% endcolumn %}
{% endcolumns %}
`;

let t: TestContext;
let body: string;
before(async () => {
  t = await createTestApp();
  const spaceId = (await newSpace(t, 'Handbook')).id;
  await publishChanges(t, spaceId, [
    { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: GUIDE } },
    {
      operation: 'insert_page',
      title: 'Install',
      slug: 'install',
      document: { markdown: '## Setup\n\nRun it.' },
    },
  ]);
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Docs', spaces: [spaceId] },
  });
  const base = `/v1/orgs/${t.orgId}/sites/${expectStatus(created, 201).id}`;
  const patch = { basename: 'gitbook-md', visibility: 'public' };
  expectStatus(await t.request({ method: 'PATCH', url: base, payload: patch }), 200);
  expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
  const page = await visit(t, '/s/gitbook-md/guide');
  assert.equal(page.statusCode, 200);
  body = page.body;
});
after(async () => t.close());

const article = () => /<article class="content">([\s\S]*?)<\/article>/.exec(body)?.[1] ?? '';

describe('a published page of GitBook-flavoured Markdown', () => {
  test('the title once: the page head, not again from the body', () => {
    assert.equal(body.match(/>Guide<\/h1>/g)?.length, 1);
    assert.doesNotMatch(article(), /<h1/);
  });

  test('links to other pages lead to their site addresses; external ones are marked', () => {
    assert.match(article(), /<a href="\/s\/gitbook-md\/install#setup">the install page<\/a>/);
    assert.match(
      article(),
      /<a href="https:\/\/acme.test" rel="noopener noreferrer"><strong>Acme<\/strong><\/a>/,
    );
    assert.match(article(), /<a class="content-ref" href="\/s\/gitbook-md\/install">Install<\/a>/);
  });

  test('hints, task lists, tables and tabs are rendered, code highlighted', () => {
    assert.match(article(), /<div class="hint hint-danger" role="note">/);
    assert.match(article(), /<input type="checkbox" disabled checked> downloaded/);
    assert.match(article(), /<table>[\s\S]*<th>Option<\/th>/);
    assert.match(article(), /<input type="radio" name="tabs-1" id="tabs-1-1" checked>/);
    assert.match(article(), /<pre class="shiki/);
  });

  test('no template tag is left; unknown blocks keep their content', () => {
    assert.doesNotMatch(article(), /\{%|%\}/);
    assert.match(article(), /<p>Kept as content.<\/p>/);
  });

  test('steps are numbered, columns a row, formulas typeset with KaTeX and its stylesheet', async () => {
    assert.match(article(), /<ol class="stepper">\n<li class="step">/);
    assert.match(article(), /<div class="columns">\n<div class="column" style="flex:0 1 50%">/);
    assert.match(article(), /<span class="math-inline"><span class="katex">/);
    assert.match(body, /<link rel="stylesheet" href="[^"]*katex\.css">/);
    const css = await visit(t, '/s/@livery/katex.css');
    assert.equal(css.statusCode, 200);
    assert.match(css.body, /src:url\(fonts\/KaTeX_Main-Regular\.woff2\) format\("woff2"\)\}/);
    const font = await visit(t, '/s/@livery/fonts/KaTeX_Main-Regular.woff2');
    assert.equal(font.statusCode, 200);
    assert.equal(font.headers['content-type'], 'font/woff2');
    const plain = await visit(t, '/s/gitbook-md/install');
    assert.doesNotMatch(plain.body, /katex\.css/);
  });

  test("the site's stylesheet styles hints, tables and tabs", async () => {
    const css = await visit(t, '/s/@livery/site.css');
    assert.match(css.body, /\.content \.hint-danger \{[^}]*var\(--danger-3\)/);
    assert.match(css.body, /\.content th, \.content td \{[^}]*border:/);
    assert.match(css.body, /input:checked \+ label \+ \.tab-panel \{ display: block; \}/);
    assert.match(css.body, /\.content \.stepper > \.step::before \{ content: counter\(step\);/);
    assert.match(css.body, /\.content \.columns \{ display: flex;/);
  });
});
