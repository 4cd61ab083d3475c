import { pathOf, relativeTo } from './blocks/context.js';
import { imagesBlock } from './blocks/images.js';
import { mathParagraphNodes } from './blocks/math.js';
import { hrefOf, type PageLinks } from './links.js';
import {
  type Block,
  type ImageRef,
  type Inline,
  type InlineImage,
  type JsonDocument,
  link,
  paragraph,
  plainText,
  type Ref,
  text,
} from './model.js';
import { tableCells } from './table-cells.js';

/**
 * What each container may hold in GitBook 0.202's schema (a code block in a blockquote, a quote
 * in a hint, tabs in a list are not GitBook documents). Markdown can nest anything in anything:
 * a block out of place is replaced by its plain content (a code block by its lines in code
 * marks, a quote or hint by its blocks, a table by a paragraph per row, tabs and expandables by
 * their titles and bodies, embeds and content references by a link), never dropped.
 */
const ESSENTIALS = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
];
/** 0.202's `DocumentBlocksTopLevels`: what a document (and an `if`) holds. */
const TOP_LEVELS = [
  ...ESSENTIALS,
  'blockquote',
  'hint',
  'prompt',
  'images',
  'file',
  'drawing',
  'embed',
  'code',
  'math',
  'expandable',
  'tabs',
  'table',
  'swagger',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'content-ref',
  'integration',
  'reusable-content',
  'stepper',
  'if',
  'columns',
  'updates',
];
/** What a step, a tab and an update hold alike (0.202's `DocumentBlockStepperStep`…). */
const ITEM = [
  ...ESSENTIALS,
  'content-ref',
  'code',
  'embed',
  'file',
  'images',
  'drawing',
  'hint',
  'prompt',
  'blockquote',
  'math',
  'integration',
];
const ALLOWED: Record<string, readonly string[]> = {
  document: TOP_LEVELS,
  if: TOP_LEVELS,
  blockquote: [...ESSENTIALS, 'blockquote'],
  hint: [...ESSENTIALS, 'embed', 'integration', 'table'],
  'list-item': [...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table'],
  'tabs-item': ITEM,
  'stepper-step': [...ITEM, 'expandable'],
  update: [...ITEM, 'tabs', 'expandable'],
  column: [
    ...ESSENTIALS,
    'images',
    'code',
    'hint',
    'prompt',
    'content-ref',
    'drawing',
    'embed',
    'file',
    'integration',
    'math',
    'blockquote',
    'table',
    'expandable',
    'stepper',
  ],
  'expandable-body': [
    ...ESSENTIALS,
    'file',
    'images',
    'code',
    'table',
    'hint',
    'prompt',
    'blockquote',
    'reusable-content',
    'integration',
  ],
};

export function fitDocument(doc: JsonDocument, links: PageLinks = {}): JsonDocument {
  return { ...doc, nodes: fitBlocks(doc.nodes, 'document', links) };
}

function fitBlocks(nodes: Block[], container: string, links: PageLinks): Block[] {
  const allowed = ALLOWED[container] ?? [];
  const out: Block[] = [];
  for (const node of nodes) {
    if (allowed.includes(node.type)) out.push(fitInside(node, links));
    // A drawing where images may be (an expandable's body): an image of it. Its inline image
    // alone in a paragraph would be written `![](x.drawing.svg)`, which reads as an image block.
    else if (node.type === 'drawing' && allowed.includes('images'))
      out.push(imagesBlock([{ ref: node.data.ref as ImageRef }]));
    else
      for (const fitted of fitBlocks(plainContent(node, links), container, links)) {
        // An empty paragraph (an empty step's, tab's…) says nothing here, and Markdown cannot
        // write one: it would only make a list item loose until the next read.
        if (!isEmptyParagraph(fitted)) out.push(fitted);
      }
  }
  return out;
}

const isEmptyParagraph = (node: Block) =>
  node.type === 'paragraph' &&
  (node.nodes ?? []).every((n) => n.object === 'text' && plainText([n]) === '');

const orEmpty = (nodes: Block[]) => (nodes.length === 0 ? [paragraph([])] : nodes);

function fitInside(node: Block, links: PageLinks): Block {
  const children = (node.nodes ?? []) as Block[];
  switch (node.type) {
    case 'blockquote':
    case 'hint':
    case 'if':
      return { ...node, nodes: orEmpty(fitBlocks(children, node.type, links)) };
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
    case 'tabs':
    case 'stepper':
    case 'columns':
    case 'updates':
      return {
        ...node,
        nodes: children.map((item) => ({
          ...item,
          nodes: orEmpty(fitBlocks((item.nodes ?? []) as Block[], item.type, links)),
        })),
      };
    case 'expandable':
      return {
        ...node,
        fragments: (node.fragments ?? []).map((fragment) =>
          fragment.fragment === 'expandable-body'
            ? { ...fragment, nodes: orEmpty(fitBlocks(fragment.nodes, 'expandable-body', links)) }
            : fragment,
        ),
      };
    default:
      return node;
  }
}

/** A block's content as simpler blocks, for a container that cannot hold the block itself. */
function plainContent(node: Block, links: PageLinks): Block[] {
  const children = (node.nodes ?? []) as Block[];
  switch (node.type) {
    case 'code':
      return children
        .map((line) =>
          (line.nodes?.[0] as Inline | undefined)?.object === 'text' ? line : undefined,
        )
        .map(
          (line) =>
            (line?.nodes?.[0] as { leaves: { text: string }[] } | undefined)?.leaves[0]?.text ?? '',
        )
        .filter((line) => line.trim() !== '')
        .map((line) => paragraph([text(line, ['code'])]));
    case 'tabs':
      return children.flatMap((item) => [
        paragraph([text(String(item.data.title ?? ''), ['bold'])]),
        ...((item.nodes ?? []) as Block[]),
      ]);
    case 'expandable':
      return (node.fragments ?? []).flatMap((fragment) => fragment.nodes);
    case 'table':
      return tableRows(node);
    case 'images':
      return [paragraph(children.map((image) => imageInline(image)))];
    case 'drawing':
      return [paragraph([imageInline(node)])];
    case 'embed':
      return [refParagraph({ kind: 'url', url: String(node.data.url ?? '') }, links)];
    case 'content-ref':
      return [refParagraph(node.data.ref as Ref, links)];
    default:
      return tagBlockContent(node, links) ?? children.filter((child) => child.object === 'block');
  }
}

/** Blocks of blocks/ as simpler blocks: a formula in text, a file as a link, an API block as its
 * method and path, an integration as its name; an include has nothing to show at this point. */
function tagBlockContent(node: Block, links: PageLinks): Block[] | undefined {
  const children = (node.nodes ?? []) as Block[];
  switch (node.type) {
    case 'math':
      return [paragraph(mathParagraphNodes(node))];
    case 'file': {
      const id = (node.data.ref as { file?: string } | undefined)?.file ?? '';
      const path = pathOf(id, links.files);
      const url = path === undefined ? id : relativeTo(links.file, path);
      return [paragraph([link({ kind: 'url', url }, [text(path?.split('/').pop() ?? url)])])];
    }
    case 'swagger':
    case 'openapi-operation':
      return [
        paragraph([
          text(String(node.data.method ?? '').toUpperCase(), ['bold', 'code']),
          text(' '),
          text(String(node.data.path ?? ''), ['code']),
        ]),
      ];
    case 'openapi-schemas':
      return [paragraph([text(((node.data.schemas ?? []) as string[]).join(', '), ['code'])])];
    case 'integration':
      return [paragraph([text(`${String(node.data.integration)} ${String(node.data.block)}`)])];
    case 'update':
      return [paragraph([text(String(node.data.date ?? '').slice(0, 10), ['bold'])]), ...children];
    case 'reusable-content':
      return [];
    default:
      // Quotes, hints, tab items: their blocks.
      return children.filter((child) => child.object === 'block');
  }
}

function refParagraph(ref: Ref, links: PageLinks): Block {
  return paragraph([link(ref, [text(hrefOf(ref, links))])]);
}

/** An image (or drawing) as an inline image: its sources and alt text (an inline image has no size). */
function imageInline(image: Block): InlineImage {
  const { ref, refDark, alt } = image.data as InlineImage['data'];
  const data: InlineImage['data'] = { ref };
  if (refDark !== undefined) data.refDark = refDark;
  if (alt !== undefined) data.alt = alt;
  return { object: 'inline', type: 'inline-image', isVoid: true, data };
}

/** A table as a paragraph per row, its cells separated by ` | `. */
function tableRows(node: Block): Block[] {
  return tableCells(node).rows.map((cells) =>
    paragraph(cells.flatMap((cell, i) => (i === 0 ? cell : [text(' | '), ...cell]))),
  );
}
