import type { Block, JsonDocument } from './model.js';

/**
 * The blocks of a document, in its fragments too: a table's cells are one block each (the
 * paragraph of each cell's fragment), so a table of 1,000 rows and 5 columns is 5,001 blocks.
 * What the page limit counts (docs/content.md, "Limits"). Iterative: documents nest deeply.
 */
export function blockCount(doc: JsonDocument): number {
  let count = 0;
  const stack: unknown[][] = [doc.nodes];
  for (let nodes = stack.pop(); nodes !== undefined; nodes = stack.pop()) {
    for (const node of nodes as Block[]) {
      if (node.object !== 'block') continue;
      count++;
      if (node.nodes !== undefined) stack.push(node.nodes);
      for (const fragment of node.fragments ?? []) stack.push(fragment.nodes);
    }
  }
  return count;
}
