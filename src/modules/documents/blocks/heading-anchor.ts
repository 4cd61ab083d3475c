import type Token from 'markdown-it/lib/token.mjs';
import { type Block, type Inline, inlines } from '../model.js';

/**
 * A heading's custom anchor, as GitBook writes it: `## Title <a href="#custom-id"
 * id="custom-id"></a>` → the heading's `data.id` (and so its `meta.id`), the anchor's markup out
 * of the title. Only ids GitBook's schema allows (`^[-a-z0-9.+_]+$`) are kept: another is left
 * out, and the heading has its usual anchor.
 */
const ID = /^[-a-z0-9.+_]+$/;

export function customAnchorOf(inline: Token | undefined): string | undefined {
  const found = inline?.children?.findLast((t) => t.type === 'gb_anchor');
  const id = (found?.meta as { id?: string } | undefined)?.id;
  return id !== undefined && ID.test(id) ? id : undefined;
}

/** The heading with its custom id, the space before the anchor trimmed off its title. */
export function withCustomAnchor(heading: Block, id: string | undefined): Block {
  if (id === undefined) return heading;
  const nodes = [...((heading.nodes ?? []) as Inline[])];
  const last = nodes.at(-1);
  if (last?.object === 'text') {
    const leaves = [...last.leaves];
    const leaf = leaves.at(-1);
    if (leaf !== undefined) leaves[leaves.length - 1] = { ...leaf, text: leaf.text.trimEnd() };
    nodes[nodes.length - 1] = { ...last, leaves };
  }
  return { ...heading, nodes: inlines(nodes), data: { ...heading.data, id } };
}

/** The anchor written after a heading's title, '' when it has none of its own. */
export function customAnchorMarkdown(heading: Block): string {
  const id = heading.data.id;
  return typeof id === 'string' && ID.test(id) ? ` <a href="#${id}" id="${id}"></a>` : '';
}
