import { type Block, type Inline, markdownToDocument } from '../documents/index.js';

/**
 * A page body cut into the sections search answers with: the text before the first heading, then
 * one section per heading (any level, anywhere) up to the next. Read from the page's document
 * (documents/: one parser, one model), so a section's id is its heading's anchor by construction
 * (`page#id` lands on it), a first heading-1 equal to the page's title is the title itself (no
 * section), and GitBook's template tags are markup, never words, while what they wrap is text.
 */
export interface Section {
  /** The heading's anchor; '' for the text before the first heading. */
  anchor: string;
  /** The heading's text, plain; '' before the first heading. */
  title: string;
  /** The section's text, plain: paragraphs, list items, table cells, code, image descriptions. */
  text: string;
}

export function sectionsOf(markdown: string, pageTitle?: string): Section[] {
  const doc = markdownToDocument(markdown, pageTitle === undefined ? {} : { title: pageTitle });
  const sections: Section[] = [];
  let anchor = '';
  let title = '';
  let parts: string[] = [];
  const end = () => {
    const text = parts.join(' ');
    if (anchor !== '' || text !== '') sections.push({ anchor, title, text });
  };
  const append = (text: string) => {
    const trimmed = text.trim();
    if (trimmed !== '') parts.push(trimmed);
  };
  // Iterative, in reading order: documents nest deeply.
  const stack: Block[] = [...doc.nodes].reverse();
  for (let block = stack.pop(); block !== undefined; block = stack.pop()) {
    if (/^heading-\d$/.test(block.type)) {
      end();
      anchor = block.meta?.id ?? '';
      title = inlineText(block.nodes).trim();
      parts = [];
      continue;
    }
    if (block.type === 'table') append(columnTitles(block));
    if (block.type === 'image') append(String(block.data.alt ?? ''));
    const children = (block.nodes ?? []).filter((node): node is Block => node.object === 'block');
    if (children.length === 0 && block.nodes !== undefined) append(inlineText(block.nodes));
    const inner = [...children, ...(block.fragments ?? []).flatMap((fragment) => fragment.nodes)];
    for (let i = inner.length - 1; i >= 0; i--) stack.push(inner[i] as Block);
  }
  end();
  return sections;
}

/** The words of inline content: text, link text, image descriptions. */
function inlineText(nodes: readonly (Block | Inline)[] | undefined): string {
  let out = '';
  for (const node of nodes ?? []) {
    if (node.object === 'text') for (const leaf of node.leaves) out += leaf.text;
    else if (node.object === 'inline') {
      if (node.type === 'link') out += inlineText(node.nodes);
      else if (node.type === 'inline-math') out += node.data.formula;
      else out += node.data.alt ?? '';
    }
  }
  return out.replaceAll('\n', ' ');
}

function columnTitles(table: Block): string {
  const definition = (table.data.definition ?? {}) as Record<string, { title?: string }>;
  return Object.values(definition)
    .map((column) => column.title ?? '')
    .join(' ');
}
