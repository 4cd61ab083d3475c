/**
 * Page documents (issue 15): document → Markdown → document is stable, over generated documents
 * (what GitBook's schema allows where, as markdownToDocument builds them); and Markdown →
 * document → Markdown → document is stable over a corpus of GitBook-flavoured pages.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { withHeadingIds } from '../../src/modules/documents/anchors.js';
import {
  documentToMarkdown,
  type JsonDocument,
  markdownToDocument,
} from '../../src/modules/documents/index.js';
import * as m from '../../src/modules/documents/model.js';
import { documents, LINKS, misplaced } from '../helpers/document-arbitraries.js';
import { violationsAt } from '../helpers/gitbook-spec.js';

const canonical = (nodes: m.Block[]): JsonDocument => m.document(withHeadingIds(nodes));
/** More runs locally: `FC_NUM_RUNS=5000 node --import tsx --test test/unit/documents-*.test.ts`. */
const RUNS = Number(process.env.FC_NUM_RUNS ?? 400);

describe('document → Markdown → document', () => {
  test('is stable for generated documents', () => {
    fc.assert(
      fc.property(documents, (nodes) => {
        const doc = canonical(nodes);
        const markdown = documentToMarkdown(doc, LINKS);
        assert.deepEqual(markdownToDocument(markdown, LINKS), doc, markdown);
      }),
      { numRuns: RUNS },
    );
  });

  // A test of the generator above: its documents are ones GitBook could send. Separate, with
  // fewer runs: validating a deep document against GitBook's schema (nested oneOf) costs some
  // hundred times its round trip, and made the file take 40 s to over 180 s (the per-file
  // limit) depending on the seed and the machine's load. With the Liquid-tag blocks (twice the
  // branches at each level), 60 runs took 40 s alone: 25 now.
  test('generated documents are valid under GitBook 0.202', () => {
    fc.assert(
      fc.property(documents, (nodes) => {
        const doc = canonical(nodes);
        assert.deepEqual(violationsAt('0.202', '/components/schemas/JSONDocument', doc), []);
      }),
      { numRuns: 25 },
    );
  });
});

/**
 * The other direction (issue: "GitBook-canonical Markdown → document → the same Markdown"): the
 * Markdown documentToMarkdown writes is Livery's canonical Markdown, and reading it back and
 * writing it again gives the same text, byte for byte. Where Livery's canonical form differs
 * from GitBook's own exports (`*i*` for `_i_`, `---` for `***`…), docs/content.md says so and
 * test/unit/documents-canonical.test.ts pins each difference.
 */
describe('canonical Markdown → document → the same Markdown', () => {
  test('is the identity for the Markdown of generated documents', () => {
    fc.assert(
      fc.property(documents, (nodes) => {
        const markdown = documentToMarkdown(canonical(nodes), LINKS);
        const again = documentToMarkdown(markdownToDocument(markdown, LINKS), LINKS);
        assert.equal(again, markdown);
      }),
      { numRuns: RUNS },
    );
  });

  // Markdown that is not Livery's canonical form: blocks where 0.202 has no room for them (a
  // code block in a quote, a drawing in an expandable, an image in a list), as hand-written
  // pages nest them. One read fits them (nesting.ts); the Markdown written then is canonical.
  test('is the identity after one read, for blocks nested anywhere', () => {
    fc.assert(
      fc.property(misplaced, (nodes) => {
        const written = documentToMarkdown(canonical(nodes), LINKS);
        const markdown = documentToMarkdown(markdownToDocument(written, LINKS), LINKS);
        const again = documentToMarkdown(markdownToDocument(markdown, LINKS), LINKS);
        assert.equal(again, markdown, written);
      }),
      { numRuns: RUNS },
    );
  });
});

/** GitBook-flavoured pages, as GitBook's Git Sync writes them and as people write them by hand. */
const CORPUS = [
  `# Install\n\nLivery runs **anywhere** Node.js runs. See [the guide](other.md) or [the API](../reference/api.md#auth).\n\n## Requirements\n\n* Node.js ≥ 20\n* ~~Python~~ nothing else\n\n{% hint style="warning" %}\nBack up \`data/\` first.\n{% endhint %}\n`,
  `{% tabs %}\n{% tab title="npm" %}\n\`\`\`bash\nnpm install\n\`\`\`\n{% endtab %}\n\n{% tab title="Docker" %}\n{% code title="compose.yml" overflow="wrap" %}\n\`\`\`yaml\nservices:\n  livery: {}\n\`\`\`\n{% endcode %}\n{% endtab %}\n{% endtabs %}\n`,
  `| Setting | Default | Notes |\n| --- | :---: | ---: |\n| \`PORT\` | 8080 | **must** be free |\n| \`HOST\` | 127.0.0.1 | [docs](https://e.test) |\n`,
  `<details>\n\n<summary>Why <code>?</summary>\n\n1. one\n2. two\n   - [x] nested task\n   - [ ] open task\n\n</details>\n\n***\n\n{% content-ref url="other.md" %}\n[other.md](other.md)\n{% endcontent-ref %}\n\n{% embed url="https://www.youtube.com/watch?v=x" %}\nCaption\n{% endembed %}\n`,
  `> Quoted **text**\n>\n> \`\`\`\n> code in a quote\n> \`\`\`\n\n<figure><img src=".gitbook/assets/x.png" alt=""><figcaption></figcaption></figure>\n\n![](.gitbook/assets/y.png)\n\nText with a\\\nhard break and <b>raw html</b>.\n`,
  `{% stepper %}\n{% step %}\n### First\n\nDo this.\n{% endstep %}\n{% endstepper %}\n\n{% hint style="info" %}\n- a\n- b\n\n| x |\n|---|\n| 1 |\n{% endhint %}\n\n  Indented paragraph\n\n    indented code\n`,
  `{% columns %}\n{% column width="50%" valign="middle" %}\n{% stepper %}\n{% step %}\n### Install\n\nRun $$n^2$$ times:\n\n{% code title="a.sh" lineNumbers="true" %}\n\`\`\`sh\nnpm i\n\`\`\`\n{% endcode %}\n{% endstep %}\n{% endstepper %}\n{% endcolumn %}\n\n{% column %}\n{% file src="../.gitbook/assets/report.pdf" %}\nReport\n{% endfile %}\n{% endcolumn %}\n{% endcolumns %}\n\n$$e^{i\\pi} + 1 = 0$$\n\n{% include "../.gitbook/includes/setup.md" %}\n\n{% if visitor.claims.plan === "pro" %}\n{% openapi src="spec.yaml" path="/pets" method="get" %}\n[spec.yaml](spec.yaml)\n{% endopenapi %}\n{% endif %}\n\n{% @marketo/form formId="4316" %}\n\n{% page-ref page="other.md" %}\n`,
  `#### Deep heading\n\n1) paren list\n2) second\n\n7. starts at seven\n\nA line with * stars * and _under_scores_ and a\\*literal\\*.\n`,
];

describe('Markdown → document → Markdown → document', () => {
  for (const [i, markdown] of CORPUS.entries()) {
    test(`is stable for corpus page ${i + 1}`, () => {
      const first = markdownToDocument(markdown, { title: 'Install', ...LINKS });
      assert.deepEqual(violationsAt('0.202', '/components/schemas/JSONDocument', first), []);
      const again = documentToMarkdown(first, LINKS);
      assert.deepEqual(markdownToDocument(again, LINKS), first, again);
    });
  }
});
