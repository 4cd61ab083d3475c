/**
 * GitBook's JSON document model (GitBook 0.202's `JSONDocument`, `DocumentBlock*`,
 * `DocumentInline*`, `DocumentText`), the part of it that Livery produces from Markdown
 * (docs/content.md, "Page documents"). Builders keep every node in one canonical shape, so that
 * two documents with the same content are deep-equal (the round-trip properties rely on it).
 */

export type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code' | 'color';
/** Marks are kept in this order on every leaf. */
export const MARK_ORDER: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'code', 'color'];

export interface Mark {
  object: 'mark';
  type: MarkType;
  /** A `color` mark's text and background colours (blocks/inline-html.ts). */
  data?: { text: string; background: string };
}
export interface Leaf {
  object: 'leaf';
  text: string;
  marks: Mark[];
}
export interface TextNode {
  object: 'text';
  leaves: Leaf[];
}

export type Ref =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string }
  | { kind: 'anchor'; anchor: string; page?: string }
  /** A file of the revision (GitBook's `ContentRefFile`): imported images, downloads. */
  | { kind: 'file'; file: string }
  /** A reusable content of the space (`ContentRefReusableContent`): an include. */
  | { kind: 'reusable-content'; reusableContent: string };

/** An image's source: a file of the revision, or a URL. */
export type ImageRef = { kind: 'url'; url: string } | { kind: 'file'; file: string };

export interface InlineImage {
  object: 'inline';
  type: 'inline-image';
  isVoid: true;
  data: {
    ref: ImageRef;
    refDark?: ImageRef;
    alt?: string;
    caption?: string;
    size?: 'line' | 'original';
  };
}
/** Void inlines of GitBook's HTML forms (blocks/inline-nodes.ts): data as 0.202's schema. */
export interface InlineVoid {
  object: 'inline';
  type: 'emoji' | 'icon' | 'expression' | 'mention' | 'button';
  isVoid: true;
  data: Record<string, unknown>;
}
/** A footnote: the annotated text, its note as the `annotation-body` fragment. */
export interface InlineAnnotation {
  object: 'inline';
  type: 'annotation';
  isVoid: false;
  data: Record<string, never>;
  nodes: TextNode[];
  fragments: Fragment[];
}
export interface InlineLink {
  object: 'inline';
  type: 'link';
  isVoid: false;
  data: { ref: Ref };
  nodes: (TextNode | InlineImage)[];
}
/** A formula within text (`$$x$$`), typeset on the published site (blocks/math.ts). */
export interface InlineMath {
  object: 'inline';
  type: 'inline-math';
  isVoid: true;
  data: { formula: string };
}
export type Inline =
  | TextNode
  | InlineLink
  | InlineImage
  | InlineVoid
  | InlineAnnotation
  | InlineMath;

/** A block: `type` says which, `data`, `nodes` and `fragments` as 0.202's schema of that type. */
export interface Block {
  object: 'block';
  type: string;
  data: Record<string, unknown>;
  isVoid?: boolean;
  meta?: { id: string };
  nodes?: (Block | Inline)[];
  fragments?: Fragment[];
}
export interface Fragment {
  object: 'fragment';
  fragment: string;
  type?: string;
  nodes: Block[];
}
export interface JsonDocument {
  object: 'document';
  data: Record<string, never>;
  nodes: Block[];
}

export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];

export const mark = (type: MarkType): Mark => ({ object: 'mark', type });

/** A text node from leaves: empty leaves dropped, neighbours with the same marks merged. */
export function textNode(leaves: Leaf[]): TextNode {
  const merged: Leaf[] = [];
  for (const leaf of leaves) {
    if (leaf.text === '') continue;
    const marks = canonicalMarks(leaf.marks);
    const last = merged.at(-1);
    if (last !== undefined && sameMarks(last.marks, marks)) last.text += leaf.text;
    else merged.push({ object: 'leaf', text: leaf.text, marks });
  }
  if (merged.length === 0) merged.push({ object: 'leaf', text: '', marks: [] });
  return { object: 'text', leaves: merged };
}

export const text = (value: string, marks: MarkType[] = []): TextNode =>
  textNode([{ object: 'leaf', text: value, marks: marks.map(mark) }]);

/** Marks in MARK_ORDER, one of each type (the last colour wins), each in one shape. */
function canonicalMarks(marks: readonly Mark[]): Mark[] {
  const out: Mark[] = [];
  for (const type of MARK_ORDER) {
    const found = marks.findLast((m) => m.type === type);
    if (found === undefined) continue;
    out.push(
      found.data === undefined
        ? mark(type)
        : {
            object: 'mark',
            type,
            data: { text: found.data.text, background: found.data.background },
          },
    );
  }
  return out;
}

const sameMarks = (a: Mark[], b: Mark[]) =>
  a.length === b.length &&
  a.every(
    (m, i) =>
      m.type === b[i]?.type &&
      m.data?.text === b[i]?.data?.text &&
      m.data?.background === b[i]?.data?.background,
  );

/**
 * Inline content in canonical form: neighbouring text nodes merged, empty ones dropped, and at
 * least one text node (an empty block still has one, as in GitBook's documents).
 */
export function inlines(nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  // Each run of neighbouring text nodes is merged once, at its end: merging as each node
  // arrives copied the run so far every time, quadratic in a paragraph of `*a* *b* …`.
  let run: Leaf[] = [];
  const endRun = () => {
    if (run.length > 0) out.push(textNode(run));
    run = [];
  };
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) run.push(leaf);
    } else {
      endRun();
      out.push(node);
    }
  }
  endRun();
  const kept = out.filter((n) => n.object !== 'text' || n.leaves.some((l) => l.text !== ''));
  return kept.length === 0 ? [text('')] : kept;
}

export const block = (
  type: string,
  nodes: (Block | Inline)[],
  data: Record<string, unknown> = {},
): Block => ({ object: 'block', type, data, nodes });

export const voidBlock = (type: string, data: Record<string, unknown>): Block => ({
  object: 'block',
  type,
  data,
  isVoid: true,
});

export const paragraph = (nodes: Inline[]): Block => block('paragraph', inlines(nodes));

export function heading(level: 1 | 2 | 3, nodes: Inline[], id: string): Block {
  return { ...block(`heading-${level}`, inlines(nodes)), meta: { id } };
}

export const link = (ref: Ref, nodes: (TextNode | InlineImage)[]): InlineLink => ({
  object: 'inline',
  type: 'link',
  isVoid: false,
  data: { ref },
  nodes: inlines(nodes) as (TextNode | InlineImage)[],
});

export function inlineImage(url: string, alt: string, caption?: string): InlineImage {
  const data: InlineImage['data'] = { ref: { kind: 'url', url } };
  if (alt !== '') data.alt = alt;
  if (caption !== undefined && caption !== '') data.caption = caption;
  return { object: 'inline', type: 'inline-image', isVoid: true, data };
}

/** An `images` block of `image` blocks, each with its caption as a fragment when it has one. */
export function images(list: { url: string; alt: string; caption?: string }[]): Block {
  const nodes = list.map(({ url, alt, caption }): Block => {
    const data: Record<string, unknown> = { ref: { kind: 'url', url } };
    if (alt !== '') data.alt = alt;
    const fragments: Fragment[] =
      caption === undefined || caption === ''
        ? []
        : [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([text(caption)])] }];
    return { ...voidBlock('image', data), fragments };
  });
  return { ...block('images', nodes), isVoid: false };
}

export function codeBlock(code: string, syntax: string, title?: string): Block {
  const data: Record<string, unknown> = {};
  if (syntax !== '') data.syntax = syntax;
  if (title !== undefined && title !== '') data.title = title;
  const lines = code.replace(/\n$/, '').split('\n');
  return block(
    'code',
    lines.map((line) => block('code-line', [text(line)])),
    data,
  );
}

export type Align = 'left' | 'center' | 'right';

/**
 * A grid table: columns `c0…`, records `r0…` (ordered by `orderIndex`), each text cell's content
 * in the fragment its value names (`r0c0`), as GitBook stores text cells.
 */
export function table(header: string[], aligns: Align[], rows: Inline[][][]): Block {
  const columns = header.map((_, i) => `c${i}`);
  const definition: Record<string, unknown> = {};
  header.forEach((title, i) => {
    definition[`c${i}`] = {
      id: `c${i}`,
      title,
      type: 'text',
      textAlignment: aligns[i] ?? 'left',
    };
  });
  const records: Record<string, unknown> = {};
  const fragments: Fragment[] = [];
  rows.forEach((cells, r) => {
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      const name = `r${r}${column}`;
      values[column] = name;
      fragments.push({ object: 'fragment', fragment: name, nodes: [paragraph(cells[c] ?? [])] });
    });
    records[`r${r}`] = { orderIndex: `a${String(r).padStart(5, '0')}`, values };
  });
  return {
    ...voidBlock('table', {
      view: { type: 'grid', columns, hideHeader: false },
      records,
      definition,
    }),
    fragments,
  };
}

export function expandable(title: Inline[], body: Block[], open: boolean): Block {
  return {
    ...voidBlock('expandable', open ? { defaultExpanded: true } : {}),
    fragments: [
      {
        object: 'fragment',
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [paragraph(title)],
      },
      {
        object: 'fragment',
        fragment: 'expandable-body',
        type: 'expandable-body',
        nodes: body.length === 0 ? [paragraph([])] : body,
      },
    ],
  };
}

export const document = (nodes: Block[]): JsonDocument => ({ object: 'document', data: {}, nodes });

/** A block's plain text: what a heading's anchor and a table column's title are made of. */
export function plainText(nodes: readonly (Block | Inline)[] | undefined): string {
  if (nodes === undefined) return '';
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
      if (node.object === 'inline') return node.type === 'link' ? plainText(node.nodes) : '';
      return plainText(node.nodes);
    })
    .join('');
}

/** An anchor id from a heading's text: lowercase letters (any script), digits and dashes. */
export function headingId(value: string): string {
  const id = value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return id === '' ? 'section' : id;
}
