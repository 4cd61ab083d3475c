/**
 * GitBook-canonical Markdown → document → the same Markdown, over hand-written pages in the form
 * GitBook's Git Sync exports write them (written for these tests, not copied from GitBook's
 * repositories). Where Livery's writer normalises to another form than GitBook's, the
 * difference is pinned here (GitBook's form, Livery's form: the same document) and listed in
 * docs/content.md ("Page documents", "Canonical Markdown"). The property over generated
 * documents is in documents-roundtrip.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  documentToMarkdown,
  markdownToDocument,
  pageLinks,
} from '../../src/modules/documents/index.js';
import { violationsAt } from '../helpers/gitbook-spec.js';

/** A page imported from Git, `guide/install.md`: the revision's pages, files and includes. */
const LINKS = {
  ...pageLinks(
    [
      ['guide', 'G'],
      ['guide/install', 'I'],
      ['guide/other', 'O'],
      ['reference/api', 'A'],
    ],
    'guide/install',
  ),
  file: 'guide/install.md',
  files: new Map([
    ['.gitbook/assets/dashboard.png', 'F1'],
    ['.gitbook/assets/report.pdf', 'F2'],
    ['guide/spec.yaml', 'F3'],
  ]),
  includes: new Map([['.gitbook/includes/setup.md', 'R1']]),
};

const roundTrip = (markdown: string) => {
  const doc = markdownToDocument(markdown, LINKS);
  assert.deepEqual(violationsAt('0.202', '/components/schemas/JSONDocument', doc), []);
  return documentToMarkdown(doc, LINKS);
};

/** Pages in GitBook's canonical form that Livery writes back byte for byte. */
const CANONICAL: [string, string][] = [
  ['a hint', '{% hint style="info" %}\nLivery runs **anywhere** Node.js runs.\n{% endhint %}\n'],
  [
    'hints of other styles, with an icon',
    '{% hint style="warning" %}\nBack up `data/` first.\n{% endhint %}\n\n{% hint style="danger" icon="fire" %}\nNever **delete** it.\n{% endhint %}\n',
  ],
  [
    'tabs',
    '{% tabs %}\n{% tab title="npm" %}\n```bash\nnpm install livery\n```\n{% endtab %}\n\n{% tab title="Docker" icon="docker" %}\n```bash\ndocker run livery\n```\n{% endtab %}\n{% endtabs %}\n',
  ],
  [
    'a stepper',
    '{% stepper %}\n{% step %}\n### Install\n\nRun the installer.\n{% endstep %}\n\n{% step %}\n### Configure\n\nEdit the file.\n{% endstep %}\n{% endstepper %}\n',
  ],
  [
    'figures: a caption, a width, a full-width one',
    '<figure><img src="../.gitbook/assets/dashboard.png" alt=""><figcaption><p>The dashboard</p></figcaption></figure>\n\n<figure><img src="../.gitbook/assets/dashboard.png" alt="A chart" width="375"><figcaption></figcaption></figure>\n\n<div data-full-width="true"><figure><img src="../.gitbook/assets/dashboard.png" alt=""><figcaption></figcaption></figure></div>\n',
  ],
  [
    'a code block with a title and options',
    '{% code title="index.js" overflow="wrap" lineNumbers="true" %}\n```javascript\nconsole.log("hi");\n```\n{% endcode %}\n',
  ],
  [
    'a cards table: a target page and a files cover',
    '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td>Quickstart</td><td><a href="other.md">other.md</a></td><td><a href="../.gitbook/assets/dashboard.png">dashboard.png</a></td></tr><tr><td>API</td><td><a href="../reference/api.md">api.md</a></td><td></td></tr></tbody></table>\n',
  ],
  ['a formula, and one in text', '$$\nf(x) = x^2\n$$\n\nThe area is $$\\pi r^2$$ exactly.\n'],
  ['an include', '{% include "../.gitbook/includes/setup.md" %}\n'],
  [
    'content references',
    '{% content-ref url="other.md" %}\n[other.md](other.md)\n{% endcontent-ref %}\n\n{% content-ref url="../reference/api.md" %}\n[api.md](../reference/api.md)\n{% endcontent-ref %}\n',
  ],
  ['an embed', '{% embed url="https://www.youtube.com/watch?v=x" %}\n'],
  [
    'an expandable',
    '<details>\n\n<summary>Why Livery?</summary>\n\nBecause it is small.\n\n</details>\n',
  ],
  ['a file', '{% file src="../.gitbook/assets/report.pdf" %}\n'],
  ['a link to a file', 'Download [the report](../.gitbook/assets/report.pdf).\n'],
  [
    'columns',
    '{% columns %}\n{% column width="50%" %}\n### Left\n\nText.\n{% endcolumn %}\n\n{% column width="50%" %}\n{% code title="a.sh" %}\n```bash\nnpm i\n```\n{% endcode %}\n{% endcolumn %}\n{% endcolumns %}\n',
  ],
  [
    'an OpenAPI block of a revision file',
    '{% openapi src="spec.yaml" path="/pets" method="get" %}\n[spec.yaml](spec.yaml)\n{% endopenapi %}\n',
  ],
  [
    'updates',
    '{% updates format="full" %}\n{% update date="2025-12-25" tags="release" %}\n## Release\n\nNew things.\n{% endupdate %}\n{% endupdates %}\n',
  ],
  ['a condition', '{% if visitor.claims.plan === "pro" %}\nPro text.\n{% endif %}\n'],
  [
    'a prompt',
    '{% prompt description="Summarise" %}\n```markdown\nSummarise this page.\n```\n{% endprompt %}\n',
  ],
  ['an integration', '{% @marketo/form formId="4316" %}\n'],
  ['a footnote', 'Text with a footnote[^1].\n\n[^1]: The note.\n'],
  [
    'colours, buttons, icons, emoji',
    'Some <mark style="color:orange;">orange</mark> text.\n\n<a href="https://x.test/start" class="button primary">Get started</a> <a href="other.md" class="button secondary" data-icon="rocket">Other</a>\n\nShip it <i class="fa-rocket">:rocket:</i> :sparkles:\n',
  ],
  ['a heading with its own anchor', '## Install <a href="#setup" id="setup"></a>\n\nText.\n'],
  [
    // A repository's file: the editor's headings one level below the title (`##`, `###`, `####`).
    'headings, marks, a quote',
    '## Title\n\n### Section\n\n#### Subsection\n\nText with **bold**, ~~struck~~ and `code`.\n\n> A quote with **bold**.\n',
  ],
  ['a hard line break', 'Line one\\\nline two.\n'],
  ['ordered and task lists', '1. first\n2. second\n\n* [ ] open\n* [x] done\n'],
  ['italic, and marks nested as GitBook nests them', 'Text with _italic_, ~~_**all three**_~~.\n'],
  ['a divider', 'Above.\n\n***\n\nBelow.\n'],
  ['bullets, and a neighbouring list', '* one\n* two\n\n- three\n'],
  ['an item with a nested list: tight', '* one\n  * nested\n* two\n'],
  [
    'an item of several blocks: spread, four columns in',
    '1.  first\n\n    ```js\n    x();\n    ```\n2. second\n',
  ],
  [
    'a pipe table padded to its columns',
    '| Name | Value | Mid |\n| ---- | ----: | :-: |\n| a    |     1 |  b  |\n',
  ],
  [
    'marks inside HTML: `<strong>`',
    '<figure><img src="../.gitbook/assets/dashboard.png" alt=""><figcaption><p>The <strong>new</strong> dashboard</p></figcaption></figure>\n',
  ],
  ['text escaped only where it would be syntax', 'It costs $12 & more! Type # or > to start.\n'],
  [
    'an HTML table with a hidden header',
    '<table data-header-hidden><thead><tr><th></th><th></th></tr></thead><tbody><tr><td>a</td><td>b</td></tr></tbody></table>\n',
  ],
];

/**
 * GitBook's form, then Livery's: both are the same document, and Livery's is a fixed point.
 * Each is listed in docs/content.md.
 */
const NORMALISED: [string, string, string][] = [
  [
    'the legacy `{% swagger src %}`: `{% openapi %}`, its newer name',
    '{% swagger src="spec.yaml" path="/pets" method="post" %}\n[spec.yaml](spec.yaml)\n{% endswagger %}\n',
    '{% openapi src="spec.yaml" path="/pets" method="post" %}\n[spec.yaml](spec.yaml)\n{% endopenapi %}\n',
  ],
  [
    "an OpenAPI operation: without the link to the spec's address (0.202 holds only its slug)",
    '{% openapi-operation spec="petstore" path="/pets" method="get" %}\n[OpenAPI petstore](https://petstore.test/openapi.json)\n{% endopenapi-operation %}\n',
    '{% openapi-operation spec="petstore" path="/pets" method="get" %}\n{% endopenapi-operation %}\n',
  ],
  [
    'a heading below the third level: the third (0.202 has three; `####` in a file)',
    '##### Deep\n\nText.\n',
    '#### Deep\n\nText.\n',
  ],
];

/** Other spellings (Livery's writer's before it wrote GitBook's): the same document, written in GitBook's form. */
const OTHER_SPELLINGS: [string, string, string][] = [
  ['italic with `*`', 'Text with *italic*.\n', 'Text with _italic_.\n'],
  ['a divider as `---`', 'Above.\n\n---\n\nBelow.\n', 'Above.\n\n***\n\nBelow.\n'],
  ['bullets with `-`', '- one\n- two\n', '* one\n* two\n'],
  ['a loose list', '- one\n\n  - nested\n\n- two\n', '* one\n  * nested\n* two\n'],
  [
    'an unpadded pipe table',
    '| Name | Value |\n| --- | --: |\n| a | 1 |\n',
    '| Name | Value |\n| ---- | ----: |\n| a    |     1 |\n',
  ],
  ['a formula block on one line', '$$f(x) = x^2$$\n', '$$\nf(x) = x^2\n$$\n'],
  [
    'Markdown marks inside HTML',
    '<figure><img src="../.gitbook/assets/dashboard.png" alt=""><figcaption><p>The **new** dashboard</p></figcaption></figure>\n',
    '<figure><img src="../.gitbook/assets/dashboard.png" alt=""><figcaption><p>The <strong>new</strong> dashboard</p></figcaption></figure>\n',
  ],
  ['text escaped everywhere', 'It costs \\$12 \\& more\\!\n', 'It costs $12 & more!\n'],
];

describe('GitBook-canonical Markdown → document → the same Markdown', () => {
  for (const [what, markdown] of CANONICAL) {
    test(what, () => {
      assert.equal(roundTrip(markdown), markdown);
    });
  }
});

describe("Other spellings are read, and written in GitBook's", () => {
  for (const [what, other, gitbook] of OTHER_SPELLINGS) {
    test(what, () => {
      assert.deepEqual(markdownToDocument(other, LINKS), markdownToDocument(gitbook, LINKS));
      assert.equal(roundTrip(other), gitbook);
    });
  }
});

describe("Livery's normalisations of GitBook's canonical Markdown", () => {
  for (const [what, gitbook, livery] of NORMALISED) {
    test(what, () => {
      assert.equal(roundTrip(gitbook), livery);
      assert.deepEqual(markdownToDocument(livery, LINKS), markdownToDocument(gitbook, LINKS));
      assert.equal(roundTrip(livery), livery);
    });
  }
});
