import { hrefOf, type PageLinks } from './links.js';
import {
  type Block,
  type Inline,
  type InlineImage,
  type JsonDocument,
  link,
  paragraph,
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
const TOP_LEVELS = [
  ...ESSENTIALS,
  'blockquote',
  'hint',
  'images',
  'drawing',
  'embed',
  'code',
  'expandable',
  'tabs',
  'table',
  'content-ref',
  'if',
];
const ALLOWED: Record<string, readonly string[]> = {
  document: TOP_LEVELS,
  if: TOP_LEVELS,
  blockquote: [...ESSENTIALS, 'blockquote'],
  hint: [...ESSENTIALS, 'embed', 'table'],
  'list-item': [...ESSENTIALS, 'code', 'hint', 'blockquote', 'table'],
  'tabs-item': [
    ...ESSENTIALS,
    'content-ref',
    'code',
    'embed',
    'images',
    'drawing',
    'hint',
    'blockquote',
  ],
  'expandable-body': [...ESSENTIALS, 'images', 'code', 'table', 'hint', 'blockquote'],
};

export function fitDocument(doc: JsonDocument, links: PageLinks = {}): JsonDocument {
  return { ...doc, nodes: fitBlocks(doc.nodes, 'document', links) };
}

function fitBlocks(nodes: Block[], container: string, links: PageLinks): Block[] {
  const allowed = ALLOWED[container] ?? [];
  const out: Block[] = [];
  for (const node of nodes) {
    if (allowed.includes(node.type)) out.push(fitInside(node, links));
    else
      for (const fitted of fitBlocks(plainContent(node, links), container, links)) out.push(fitted);
  }
  return out;
}

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
      // Quotes, hints, tab items: their blocks.
      return children.filter((child) => child.object === 'block');
  }
}

function refParagraph(ref: Ref, links: PageLinks): Block {
  return paragraph([link(ref, [text(hrefOf(ref, links))])]);
}

function imageInline(image: Block): InlineImage {
  const data = image.data as InlineImage['data'];
  return { object: 'inline', type: 'inline-image', isVoid: true, data: { ...data } };
}

/** A table as a paragraph per row, its cells separated by ` | `. */
function tableRows(node: Block): Block[] {
  return tableCells(node).rows.map((cells) =>
    paragraph(cells.flatMap((cell, i) => (i === 0 ? cell : [text(' | '), ...cell]))),
  );
}
