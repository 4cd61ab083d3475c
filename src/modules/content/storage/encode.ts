import type { StoredPage, Tree } from '../tree.js';
import { fieldsOf, hashOf, nodeJson, type PageNode, sameFields } from './node.js';

/**
 * What the store knows of one page of a stored tree: its hashes and the exact content they were
 * computed from. The content is the store's own frozen copy (the node's fields, the Markdown
 * string), never the page object handed out, which callers may copy and change: a hash is only
 * ever reused after comparing a page with the content it was computed from, so a stale hash cannot
 * be reused.
 */
export interface PageRecord extends PageNode {
  /** The node's hash. */
  readonly node: string;
  readonly markdown: string | undefined;
}

/** A stored tree's pages by id. */
export type TreeIndex = ReadonlyMap<string, PageRecord>;

/**
 * The index of every tree the store read or wrote, by the tree's identity. Trees are never
 * changed once stored (changes apply to a copy, tree.ts cloneTree), and the records hold their own
 * copy of what they hashed in any case (see PageRecord).
 */
const indexes = new WeakMap<Tree, TreeIndex>();

export const indexOf = (tree: Tree): TreeIndex | undefined => indexes.get(tree);
export const remember = (tree: Tree, index: TreeIndex) => void indexes.set(tree, index);

export interface EncodedTree {
  /** The top-level pages' node hashes: what the revision row stores. */
  roots: string[];
  /** Nodes and bodies the trees it was compared with did not have, by hash. */
  nodes: Map<string, string>;
  bodies: Map<string, string>;
  index: Map<string, PageRecord>;
  /** An estimate of the tree's size in memory (nodes' JSON and Markdown), for caches. */
  bytes: number;
}

/**
 * Encodes a tree as nodes and bodies, comparing each page with the page of the same id in
 * `priors` (the indexes of the trees it was made from: a revision's parents). A page equal to
 * its prior keeps its hashes, and only the pages that differ are serialized and hashed: an edit
 * of one page of a 3,000-page space hashes that page's Markdown (if it changed) and the nodes on
 * its path to the top (docs/content.md, "Storage").
 */
export function encodeTree(tree: Tree, priors: readonly TreeIndex[]): EncodedTree {
  const encoded: EncodedTree = {
    roots: [],
    nodes: new Map(),
    bodies: new Map(),
    index: new Map(),
    bytes: 0,
  };
  const encode = (page: StoredPage): string => {
    const pages = page.pages.map(encode);
    const record = recordOf(page, pages, priors, encoded);
    encoded.index.set(page.id, record);
    encoded.bytes += record.size + (record.markdown?.length ?? 0);
    return record.node;
  };
  encoded.roots = tree.map(encode);
  return encoded;
}

function recordOf(
  page: StoredPage,
  pages: string[],
  priors: readonly TreeIndex[],
  encoded: EncodedTree,
): PageRecord {
  let body: string | undefined;
  let bodyKnown = page.markdown === undefined;
  for (const prior of priors) {
    const record = prior.get(page.id);
    if (record === undefined || record.markdown !== page.markdown) continue;
    if (sameFields(page, record.fields) && samePages(pages, record.pages)) return record;
    body = record.body;
    bodyKnown = true;
  }
  const { markdown } = page;
  if (!bodyKnown && markdown !== undefined) {
    body = hashOf(markdown);
    encoded.bodies.set(body, markdown);
  }
  const fields = fieldsOf(page);
  const json = nodeJson(fields, body, pages);
  const node = hashOf(json);
  encoded.nodes.set(node, json);
  return { node, body, fields, markdown, pages: Object.freeze(pages), size: json.length };
}

function samePages(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
