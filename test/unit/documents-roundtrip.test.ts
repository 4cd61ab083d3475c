/**
 * Page documents (issue 15): document → Markdown → document is stable, over generated documents
 * (what GitBook's schema allows where, as markdownToDocument builds them); and Markdown →
 * document → Markdown → document is stable over a corpus of GitBook-flavoured pages.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { withHeadingIds } from '../../src/modules/documents/anchors.js';
import { imagesBlock } from '../../src/modules/documents/blocks/images.js';
import {
  documentToMarkdown,
  type JsonDocument,
  markdownToDocument,
  pageLinks,
} from '../../src/modules/documents/index.js';
import * as m from '../../src/modules/documents/model.js';
import { violationsAt } from '../helpers/gitbook-spec.js';

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
  // The page's file in a Git repository and the revision's files (images, drawings).
  file: 'guide/install.md',
  files: new Map([
    ['.gitbook/assets/a b.png', 'F1'],
    ['.gitbook/assets/dark.png', 'F2'],
    ['.gitbook/assets/x.drawing.svg', 'F3'],
    ['guide/Screenshot\u202f1.png', 'F4'],
  ]),
};

const word = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]{1,8}$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...'* _ ` [ ] # < > & \\ { } | ~ ! - + = ( ) 1. 2) {% %}'.split(' '),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('é', 'Über', '日本', '🚀') },
);
const words = (max: number) =>
  fc.array(word, { minLength: 1, maxLength: max }).map((list) => list.join(' '));
const codeText = fc
  .stringMatching(/^[a-zA-Z0-9 `*_{}%<>|\\-]{1,12}$/)
  .filter((s) => s.trim() === s);
const MARKS: m.MarkType[] = ['bold', 'italic', 'strikethrough'];
const marks = fc.subarray(MARKS);

const ref: fc.Arbitrary<m.Ref> = fc.oneof(
  fc
    .stringMatching(/^[a-z]{1,6}$/)
    .map((w): m.Ref => ({ kind: 'url', url: `https://x.test/${w}` })),
  fc.constantFrom('G', 'O', 'A', 'I').map((page): m.Ref => ({ kind: 'page', page })),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/).map((anchor): m.Ref => ({ kind: 'anchor', anchor })),
  fc
    .tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom('O', 'A'))
    .map(([anchor, page]): m.Ref => ({ kind: 'anchor', anchor, page })),
);
const COLORS = ['default', 'orange', 'purple', '$primary', '$info'] as const;
/** A colour mark (GitBook's `<mark style>`), or none. */
const colorMark = fc.option(
  fc.tuple(fc.constantFrom(...COLORS), fc.constantFrom(...COLORS)).map(
    ([text, background]): m.Mark => ({
      object: 'mark',
      type: 'color',
      data: { text, background },
    }),
  ),
  { nil: undefined, freq: 3 },
);
const withColor = (node: m.TextNode, color: m.Mark | undefined): m.TextNode =>
  color === undefined
    ? node
    : m.textNode(node.leaves.map((leaf) => ({ ...leaf, marks: [...leaf.marks, color] })));

/** A run of text: words in some marks, or code (also in marks). */
const segment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(words(4), marks, colorMark)
      .map(([w, ms, c]) => withColor(m.text(w, ms), c)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(codeText, marks, colorMark)
      .map(([c, ms, color]) => withColor(m.text(c, [...ms, 'code']), color)),
  },
);

const imageRef: fc.Arbitrary<m.ImageRef> = fc.oneof(
  fc.stringMatching(/^[a-z]{1,6}$/).map((w): m.ImageRef => ({ kind: 'url', url: `${w}.png` })),
  fc.constantFrom('F1', 'F2', 'F4').map((file): m.ImageRef => ({ kind: 'file', file })),
);
const plainWords = (max: number) =>
  fc
    .array(fc.stringMatching(/^[a-zA-Z0-9]{1,8}$/), { minLength: 1, maxLength: max })
    .map((list) => list.join(' '));
/** GitBook's void inlines of the HTML forms, and footnotes. */
const voidInline: fc.Arbitrary<m.Inline> = fc.oneof(
  fc
    .constantFrom('1f3e0', '2728', '1f680', '1f9ea')
    .map((code): m.Inline => ({ object: 'inline', type: 'emoji', isVoid: true, data: { code } })),
  fc.tuple(fc.constantFrom('github', 'rocket', 'gear'), fc.option(fc.constantFrom(...COLORS))).map(
    ([icon, color]): m.Inline => ({
      object: 'inline',
      type: 'icon',
      isVoid: true,
      data: color === null ? { icon } : { icon, color },
    }),
  ),
  fc.stringMatching(/^[a-z][a-z.]{0,12}$/).map(
    (expression): m.Inline => ({
      object: 'inline',
      type: 'expression',
      isVoid: true,
      data: { expression },
    }),
  ),
  ref.map((r): m.Inline => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref: r } })),
  fc
    .tuple(
      words(2)
        .map((w) => w.trim())
        .filter((w) => w !== ''),
      fc.constantFrom('primary', 'secondary'),
      fc.option(fc.constantFrom('github', 'rocket')),
      fc.oneof(
        ref.map((r) => ({ ref: r })),
        fc
          .tuple(fc.constantFrom('search', 'ask'), fc.option(plainWords(2)))
          .map(([action, query]) => ({ action: query === null ? { action } : { action, query } })),
      ),
    )
    .map(
      ([label, kind, icon, target]): m.Inline => ({
        object: 'inline',
        type: 'button',
        isVoid: true,
        data: { label, kind, ...(icon === null ? {} : { icon }), ...target },
      }),
    ),
  fc
    .tuple(imageRef, fc.oneof(fc.constant(''), plainWords(2)), fc.constantFrom('line', 'original'))
    .map(
      ([r, alt, size]): m.Inline => ({
        object: 'inline',
        type: 'inline-image',
        isVoid: true,
        data: { ref: r, ...(alt === '' ? {} : { alt }), size } as m.InlineImage['data'],
      }),
    ),
  fc.tuple(fc.stringMatching(/^[a-zA-Z0-9]{1,8}$/), marks, plainWords(3)).map(
    ([word, ms, note]): m.Inline => ({
      object: 'inline',
      type: 'annotation',
      isVoid: false,
      data: {},
      nodes: [m.text(word, ms)],
      fragments: [
        {
          object: 'fragment',
          fragment: 'annotation-body',
          type: 'annotation-body',
          nodes: [m.paragraph([m.text(note)])],
        },
      ],
    }),
  ),
);
const part: fc.Arbitrary<m.Inline> = fc.oneof(
  { weight: 4, arbitrary: segment },
  { weight: 1, arbitrary: fc.tuple(ref, segment).map(([r, s]) => m.link(r, [s as m.TextNode])) },
  { weight: 1, arbitrary: voidInline },
);
/** Inline content: parts separated by spaces (or, in paragraphs, a line break). */
const inline = (breaks: boolean) =>
  fc
    .tuple(segment, fc.array(fc.tuple(fc.boolean(), part), { maxLength: 3 }))
    .map(([first, rest]) =>
      m.inlines([first, ...rest.flatMap(([hard, p]) => [m.text(breaks && hard ? '\n' : ' '), p])]),
    );
const paragraph = inline(true).map(m.paragraph);
const heading = fc
  .tuple(
    fc.constantFrom(1, 2, 3) as fc.Arbitrary<1 | 2 | 3>,
    inline(false),
    // A custom anchor (`<a href="#id" id="id"></a>`), or none.
    fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { freq: 3 }),
  )
  .map(([level, nodes, id]) => {
    const node = m.heading(level, nodes, '');
    return id === null ? node : { ...node, data: { id } };
  });
const code = fc
  .tuple(
    fc.array(fc.stringMatching(/^[ -~]{0,20}$/), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('', 'js', 'python'),
    fc.option(words(2), { nil: undefined }),
  )
  .chain(([lines, syntax, title]) =>
    fc
      .record(
        {
          overflow: fc.constantFrom('wrap', 'scroll'),
          lineNumbers: fc.boolean(),
          fullWidth: fc.boolean(),
          expandable: fc.boolean(),
        },
        { requiredKeys: [] },
      )
      .map((options) => {
        const node = m.codeBlock(lines.join('\n'), syntax, title);
        return { ...node, data: { ...node.data, ...options } };
      }),
  );
const divider = fc.constant(m.voidBlock('divider', {}));
const table = fc
  .integer({ min: 1, max: 3 })
  .chain((columns) =>
    fc.tuple(
      fc.array(words(2), { minLength: columns, maxLength: columns }),
      fc.array(fc.constantFrom('left', 'center', 'right') as fc.Arbitrary<m.Align>, {
        minLength: columns,
        maxLength: columns,
      }),
      fc.array(fc.array(inline(false), { minLength: columns, maxLength: columns }), {
        maxLength: 2,
      }),
    ),
  )
  .map(([header, aligns, rows]) => m.table(header, aligns, rows));
const images = fc.oneof(
  fc
    .array(
      fc.record({
        url: fc.stringMatching(/^[a-z]{1,6}$/).map((w) => `${w}.png`),
        alt: fc.oneof(fc.constant(''), words(2)),
        caption: fc.oneof(fc.constant(''), words(3)),
      }),
      { minLength: 1, maxLength: 2 },
    )
    .map(m.images),
  // GitBook's HTML images: files, sizes, dark variants, captions with marks, block options.
  fc
    .tuple(
      fc.array(
        fc.record(
          {
            ref: imageRef,
            refDark: imageRef,
            alt: plainWords(2),
            width: fc.oneof(
              fc.integer({ min: 1, max: 900 }),
              fc.integer({ min: 1, max: 100 }).map((value) => ({ unit: '%', value })),
            ),
            height: fc.integer({ min: 1, max: 900 }),
            caption: inline(false),
          },
          { requiredKeys: ['ref'] },
        ),
        { minLength: 1, maxLength: 3 },
      ),
      fc.record(
        {
          align: fc.constantFrom('left', 'center', 'right') as fc.Arbitrary<'left'>,
          fullWidth: fc.constant(true),
          withFrame: fc.constant(true),
        },
        { requiredKeys: [] },
      ),
    )
    .map(([list, options]) => imagesBlock(list, options)),
);
const drawing = fc.constant(m.voidBlock('drawing', { ref: { kind: 'file', file: 'F3' } }));
/** GitBook's HTML table: cards or a grid with typed, hidden or aligned columns. */
const htmlTable = fc
  .tuple(
    fc.array(
      fc.record({
        type: fc.constantFrom('text', 'text', 'number', 'checkbox', 'content-ref', 'image'),
        title: fc.oneof(fc.constant(''), words(2)),
        align: fc.constantFrom('left', 'center', 'right'),
        hidden: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    fc.boolean(),
    fc.array(fc.nat(), { maxLength: 3 }),
    fc.record(
      {
        cardSize: fc.constantFrom('medium', 'large'),
        wrap: fc.constant(false),
        hideHeader: fc.boolean(),
        fullWidth: fc.boolean(),
        search: fc.boolean(),
      },
      { requiredKeys: ['cardSize', 'hideHeader'] },
    ),
    fc.array(
      fc.tuple(inline(false), fc.integer({ min: -99, max: 99 }), fc.boolean(), ref, imageRef),
    ),
  )
  .map(([columns, cards, rowSeeds, options, cells]) => {
    const definition: Record<string, unknown> = {};
    const fragments: m.Fragment[] = [];
    columns.forEach((c, i) => {
      definition[`c${i}`] =
        c.type === 'text'
          ? { id: `c${i}`, title: c.title.trim(), type: 'text', textAlignment: c.align }
          : { id: `c${i}`, title: c.title.trim(), type: c.type };
    });
    const records: Record<string, unknown> = {};
    rowSeeds.forEach((seed, r) => {
      const values: Record<string, unknown> = {};
      columns.forEach((c, i) => {
        const [text, number, checked, target, image] = cells[
          (seed + i) % Math.max(cells.length, 1)
        ] ?? [
          [m.text('x')],
          1,
          true,
          { kind: 'url', url: 'https://x.test/y' } as m.Ref,
          { kind: 'url', url: 'y.png' } as m.ImageRef,
        ];
        const id = `c${i}`;
        if (c.type === 'text') {
          values[id] = `r${r}${id}`;
          fragments.push({
            object: 'fragment',
            fragment: `r${r}${id}`,
            nodes: [m.paragraph(text)],
          });
        } else if (c.type === 'number') values[id] = number;
        else if (c.type === 'checkbox') values[id] = checked;
        else if (c.type === 'content-ref') values[id] = target;
        else values[id] = { ref: image };
      });
      records[`r${r}`] = { orderIndex: `a${String(r).padStart(5, '0')}`, values };
    });
    const visible = columns.flatMap((c, i) => (c.hidden ? [] : [`c${i}`]));
    const ids = columns.map((_, i) => `c${i}`);
    const view: Record<string, unknown> = cards
      ? {
          type: 'cards',
          columns: visible,
          cardSize: options.cardSize,
          ...(options.wrap === undefined ? {} : { wrap: false }),
          ...(columns.some((c) => c.type === 'content-ref')
            ? { targetDefinition: ids[columns.findIndex((c) => c.type === 'content-ref')] }
            : {}),
          ...(columns.some((c) => c.type === 'image')
            ? { coverDefinition: ids[columns.findIndex((c) => c.type === 'image')] }
            : {}),
        }
      : { type: 'grid', columns: visible, hideHeader: options.hideHeader };
    return {
      ...m.voidBlock('table', {
        view,
        records,
        definition,
        ...(options.fullWidth === undefined ? {} : { fullWidth: options.fullWidth }),
        ...(options.search === undefined ? {} : { search: options.search }),
      }),
      fragments,
    };
  });
const embed = fc
  .stringMatching(/^[a-z]{1,6}$/)
  .map((w) => m.voidBlock('embed', { url: `https://video.test/${w}` }));
const contentRef = ref
  .filter((r) => r.kind !== 'anchor')
  .map((r) => m.voidBlock('content-ref', { ref: r }));

type Kind = 'document' | 'blockquote' | 'hint' | 'list-item' | 'tabs-item' | 'expandable-body';
const tied = fc.letrec<Record<Kind, m.Block[]>>((tie) => {
  const of = (kind: Kind) => tie(kind) as fc.Arbitrary<m.Block[]>;
  const list = fc
    .tuple(
      fc.constantFrom('list-ordered', 'list-unordered', 'list-tasks'),
      fc.array(fc.tuple(paragraph, of('list-item'), fc.boolean()), { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 1, max: 9 }),
    )
    .map(([type, items, start]) =>
      m.block(
        type,
        items.map(([first, rest, checked]) =>
          m.block('list-item', [first, ...rest], type === 'list-tasks' ? { checked } : {}),
        ),
        type === 'list-ordered' && start !== 1 ? { start } : {},
      ),
    );
  const essentials = [paragraph, paragraph, heading, divider, list];
  const nonEmpty = (kind: Kind) =>
    of(kind).map((nodes) => (nodes.length === 0 ? [m.paragraph([])] : nodes));
  const quote = nonEmpty('blockquote').map((nodes) => m.block('blockquote', nodes));
  const hint = fc
    .tuple(nonEmpty('hint'), fc.constantFrom(...m.HINT_STYLES))
    .map(([nodes, style]) => m.block('hint', nodes, { style }));
  const tabs = fc
    .array(fc.tuple(words(2), nonEmpty('tabs-item')), { minLength: 1, maxLength: 2 })
    .map((items) =>
      m.block(
        'tabs',
        items.map(([title, nodes]) => m.block('tabs-item', nodes, { title })),
      ),
    );
  const expandable = fc
    .tuple(inline(false), nonEmpty('expandable-body'), fc.boolean())
    .map(([title, body, open]) => m.expandable(title, body, open));
  const deeper = (arbs: fc.Arbitrary<m.Block>[], max: number) =>
    fc.array(fc.oneof({ depthSize: 'small', maxDepth: 3 }, ...arbs), { maxLength: max });
  return {
    document: deeper(
      [
        ...essentials,
        quote,
        hint,
        images,
        drawing,
        embed,
        code,
        expandable,
        tabs,
        table,
        htmlTable,
        contentRef,
      ],
      6,
    ),
    blockquote: deeper([...essentials, quote], 2),
    hint: deeper([...essentials, embed, table], 2),
    'list-item': deeper([...essentials, code, hint, quote, table], 2),
    'tabs-item': deeper([...essentials, contentRef, code, embed, images, drawing, hint, quote], 2),
    'expandable-body': deeper([...essentials, images, code, table, htmlTable, hint, quote], 2),
  };
});
const documents = tied.document;

const canonical = (nodes: m.Block[]): JsonDocument => m.document(withHeadingIds(nodes));

describe('document → Markdown → document', () => {
  test('is stable for generated documents', () => {
    fc.assert(
      fc.property(documents, (nodes) => {
        const doc = canonical(nodes);
        const markdown = documentToMarkdown(doc, LINKS);
        assert.deepEqual(markdownToDocument(markdown, LINKS), doc, markdown);
      }),
      { numRuns: 400 },
    );
  });

  // A test of the generator above: its documents are ones GitBook could send. Separate, with
  // fewer runs: validating a deep document against GitBook's schema (nested oneOf) costs some
  // hundred times its round trip, and made the file take 40 s to over 180 s (the per-file
  // limit) depending on the seed and the machine's load.
  test('generated documents are valid under GitBook 0.202', () => {
    fc.assert(
      fc.property(documents, (nodes) => {
        const doc = canonical(nodes);
        assert.deepEqual(violationsAt('0.202', '/components/schemas/JSONDocument', doc), []);
      }),
      { numRuns: 60 },
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
