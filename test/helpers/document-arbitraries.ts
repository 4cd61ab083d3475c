/**
 * Generated page documents (fast-check arbitraries): what GitBook's schema allows where, as
 * markdownToDocument builds them, every block and inline kind. Used by the document round-trip
 * property (test/unit/documents-roundtrip.test.ts) and by Git export's (git-export-*.test.ts).
 */
import fc from 'fast-check';
import { imagesBlock } from '../../src/modules/documents/blocks/images.js';
import { inlineMath, mathBlock } from '../../src/modules/documents/blocks/math.js';
import { pageLinks } from '../../src/modules/documents/index.js';
import * as m from '../../src/modules/documents/model.js';

/** The links generated documents' references resolve against (a page imported from Git). */
export const LINKS = {
  ...pageLinks(
    [
      ['guide', 'G'],
      ['guide/install', 'I'],
      ['guide/other', 'O'],
      ['reference/api', 'A'],
    ],
    'guide/install',
  ),
  // A page imported from Git: its file, the revision's files (images, drawings, attachments,
  // an OpenAPI file) and reusable contents.
  file: 'guide/install.md',
  files: new Map([
    ['.gitbook/assets/a b.png', 'F1'],
    ['.gitbook/assets/dark.png', 'F2'],
    ['.gitbook/assets/x.drawing.svg', 'F3'],
    ['guide/Screenshot\u202f1.png', 'F4'],
    ['.gitbook/assets/report.pdf', 'F5'],
    ['guide/spec.yaml', 'F6'],
  ]),
  includes: new Map([['.gitbook/includes/setup.md', 'R1']]),
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
/** A TeX formula: no `$` (it would end it), no `|` (a table cell's), trimmed. */
const formula = fc.stringMatching(/^[a-z0-9+^_{}\\() =-]{1,10}$/).filter((f) => f.trim() === f);
const part: fc.Arbitrary<m.Inline> = fc.oneof(
  { weight: 4, arbitrary: segment },
  { weight: 1, arbitrary: formula.map(inlineMath) },
  {
    weight: 1,
    arbitrary: fc
      // A link to a page, an anchor, an address, or a file of the revision (a download).
      .tuple(fc.oneof(ref, fc.constant<m.Ref>({ kind: 'file', file: 'F5' })), segment)
      .map(([r, s]) => m.link(r, [s as m.TextNode])),
  },
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
const option = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const code = fc
  .tuple(
    fc.array(fc.stringMatching(/^[ -~]{0,20}$/), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('', 'js', 'python', 'mermaid'),
    option(words(2)),
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
const math = formula.map(mathBlock);
const file = fc.constant(m.voidBlock('file', { ref: { kind: 'file', file: 'F5' } }));
const include = fc.constant(
  m.voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'R1' } }),
);
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const method = fc.constantFrom('get', 'post', 'delete');
const apiPath = fc.stringMatching(/^\/[a-z{}/]{0,8}$/);
const api = fc.oneof(
  fc
    .tuple(
      fc.constantFrom<m.Ref>(
        { kind: 'url', url: 'https://x.test/openapi.json' },
        { kind: 'file', file: 'F6' },
      ),
      apiPath,
      method,
      option(fc.boolean()),
    )
    .map(([ref, path, method, expanded]) =>
      m.voidBlock('swagger', {
        ref,
        path,
        method,
        ...(expanded === undefined ? {} : { expanded }),
      }),
    ),
  fc
    .tuple(name, apiPath, method)
    .map(([spec, path, method]) =>
      m.voidBlock('openapi-operation', { ref: { kind: 'openapi', spec }, path, method }),
    ),
  fc
    .tuple(name, fc.array(name, { minLength: 1, maxLength: 3 }), option(fc.boolean()))
    .map(([spec, schemas, grouped]) =>
      m.voidBlock('openapi-schemas', {
        ref: { kind: 'openapi', spec },
        schemas,
        ...(grouped === undefined ? {} : { grouped }),
      }),
    ),
);
const integration = fc
  .tuple(name, name, fc.dictionary(fc.stringMatching(/^[a-zA-Z]{1,6}$/), words(3), { maxKeys: 3 }))
  .map(([integration, block, props]) =>
    // fast-check's dictionaries have no prototype; the parser's props are plain objects.
    m.voidBlock('integration', { integration, block, props: { ...props } }),
  );
const prompt = fc
  .tuple(
    code.map((c) => ({ ...c, data: { syntax: 'markdown' } })),
    words(3),
    fc.record(
      {
        icon: name,
        openInAIProviders: fc.boolean(),
        defaultExpanded: fc.constantFrom('hidden', 'partial', 'full'),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([c, description, rest]) => m.block('prompt', [c], { description, ...rest }));
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
  .tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.boolean())
  .map(([w, full]) =>
    m.voidBlock('embed', { url: `https://video.test/${w}`, ...(full ? { fullWidth: true } : {}) }),
  );
const contentRef = ref
  .filter((r) => r.kind !== 'anchor')
  .map((r) => m.voidBlock('content-ref', { ref: r }));

type Kind =
  | 'document'
  | 'blockquote'
  | 'hint'
  | 'list-item'
  | 'tabs-item'
  | 'expandable-body'
  | 'stepper-step'
  | 'column'
  | 'update'
  | 'if';
/**
 * Blocks in each container: what 0.202 allows there, or (`anywhere`) any block anywhere, as
 * hand-written Markdown may nest them (markdownToDocument then fits them, nesting.ts).
 */
const tiedBlocks = (anywhere: boolean) =>
  fc.letrec<Record<Kind, m.Block[]>>((tie) => {
    const of = (kind: Kind) => tie(kind) as fc.Arbitrary<m.Block[]>;
    const list = fc
      .tuple(
        fc.constantFrom('list-ordered', 'list-unordered', 'list-tasks'),
        fc.array(fc.tuple(paragraph, of('list-item'), fc.boolean()), {
          minLength: 1,
          maxLength: 3,
        }),
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
      .tuple(nonEmpty('hint'), fc.constantFrom(...m.HINT_STYLES), option(name))
      .map(([nodes, style, icon]) =>
        m.block('hint', nodes, icon === undefined ? { style } : { style, icon }),
      );
    const tabs = fc
      .array(fc.tuple(words(2), nonEmpty('tabs-item'), option(name)), {
        minLength: 1,
        maxLength: 2,
      })
      .map((items) =>
        m.block(
          'tabs',
          items.map(([title, nodes, icon]) =>
            m.block('tabs-item', nodes, icon === undefined ? { title } : { title, icon }),
          ),
        ),
      );
    const stepper = fc
      .array(nonEmpty('stepper-step'), { minLength: 1, maxLength: 3 })
      .map((steps) => ({
        ...m.block(
          'stepper',
          steps.map((nodes) => m.block('stepper-step', nodes)),
        ),
        isVoid: false,
      }));
    const columns = fc
      .tuple(
        fc.array(
          fc.tuple(
            nonEmpty('column'),
            option(fc.constantFrom(50, 33.33333333333333, 66.66666666666667)),
            option(fc.constantFrom('top', 'middle', 'bottom')),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        option(fc.boolean()),
      )
      .map(([items, fullWidth]) => ({
        ...m.block(
          'columns',
          items.map(([nodes, width, verticalAlignment]) =>
            m.block('column', nodes, {
              ...(width === undefined ? {} : { width: { unit: '%', value: width } }),
              ...(verticalAlignment === undefined ? {} : { verticalAlignment }),
            }),
          ),
          fullWidth === undefined ? {} : { fullWidth },
        ),
        isVoid: false,
      }));
    const updates = fc
      .tuple(
        fc.array(
          fc.tuple(
            nonEmpty('update'),
            fc.date({
              min: new Date('2000-01-01'),
              max: new Date('2099-12-31'),
              noInvalidDate: true,
            }),
            fc.array(name, { maxLength: 2 }),
          ),
          { minLength: 1, maxLength: 2 },
        ),
        fc.constantFrom('full', 'short', 'numeric'),
      )
      .map(([items, format]) => ({
        ...m.block(
          'updates',
          items.map(([nodes, date, tags]) =>
            m.block('update', nodes, {
              date: `${date.toISOString().slice(0, 10)}T00:00:00.000Z`,
              ...(tags.length === 0 ? {} : { tags: tags.map((tag) => ({ kind: 'tag', tag })) }),
            }),
          ),
          { format },
        ),
        isVoid: false,
      }));
    const condition = fc
      .tuple(fc.stringMatching(/^[a-z][a-z.]{0,8}( === "[a-z]{1,4}")?$/), nonEmpty('if'))
      .map(([expression, nodes]) => m.block('if', nodes, { expression }));
    const expandable = fc
      .tuple(inline(false), nonEmpty('expandable-body'), fc.boolean())
      .map(([title, body, open]) => m.expandable(title, body, open));
    const deeper = (arbs: fc.Arbitrary<m.Block>[], max: number) =>
      fc.array(fc.oneof({ depthSize: 'small', maxDepth: 3 }, ...arbs), { maxLength: max });
    // What 0.202 allows in each container (src/modules/documents/nesting.ts).
    const topLevels = [
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
      math,
      file,
      include,
      api,
      integration,
      prompt,
      stepper,
      columns,
      updates,
      condition,
    ];
    const item = [
      ...essentials,
      contentRef,
      code,
      embed,
      file,
      images,
      drawing,
      hint,
      prompt,
      quote,
      math,
      integration,
    ];
    if (anywhere) {
      const all = [...topLevels, drawing, htmlTable];
      const kinds: Kind[] = [
        'document',
        'blockquote',
        'hint',
        'list-item',
        'tabs-item',
        'expandable-body',
        'stepper-step',
        'column',
        'update',
        'if',
      ];
      return Object.fromEntries(
        kinds.map((kind) => [kind, deeper(all, kind === 'document' ? 6 : 2)]),
      ) as Record<Kind, fc.Arbitrary<m.Block[]>>;
    }
    return {
      document: deeper(topLevels, 6),
      if: deeper(topLevels, 2),
      blockquote: deeper([...essentials, quote], 2),
      hint: deeper([...essentials, embed, table, integration], 2),
      'list-item': deeper([...essentials, code, hint, quote, table, math], 2),
      'tabs-item': deeper(item, 2),
      'stepper-step': deeper([...item, expandable], 2),
      update: deeper([...item, tabs, expandable], 2),
      column: deeper(
        [
          ...essentials,
          images,
          code,
          hint,
          prompt,
          contentRef,
          drawing,
          embed,
          file,
          integration,
          math,
          quote,
          table,
          htmlTable,
          expandable,
          stepper,
        ],
        2,
      ),
      'expandable-body': deeper(
        [
          ...essentials,
          images,
          code,
          table,
          htmlTable,
          hint,
          quote,
          file,
          prompt,
          include,
          integration,
        ],
        2,
      ),
    };
  });
/** Documents with every block where GitBook allows it. */
export const documents = tiedBlocks(false).document;
/** Documents with blocks anywhere (Markdown out of place). */
export const misplaced = tiedBlocks(true).document;
