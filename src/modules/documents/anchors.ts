import { type Block, headingId, plainText } from './model.js';

/** Anchors of headings, unique in the page (`install`, `install-2`), as the published site's. */
export function withHeadingIds(nodes: Block[]): Block[] {
  const taken = new Map<string, number>();
  const visit = (list: Block[]) => {
    for (const node of list) {
      if (/^heading-\d$/.test(node.type)) {
        // A custom anchor (`data.id`, blocks/heading-anchor.ts) is the heading's own.
        const custom = typeof node.data.id === 'string' ? node.data.id : undefined;
        const base = custom ?? headingId(plainText(node.nodes));
        const seen = taken.get(base) ?? 0;
        taken.set(base, seen + 1);
        node.meta = { id: seen === 0 ? base : `${base}-${seen + 1}` };
      }
      for (const child of node.nodes ?? []) if (child.object === 'block') visit([child]);
      for (const fragment of node.fragments ?? []) visit(fragment.nodes);
    }
  };
  visit(nodes);
  return nodes;
}
