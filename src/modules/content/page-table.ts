import type { PageType, Tree } from './tree.js';
import { walk } from './tree.js';

/**
 * Every page of a revision in one line each (id, path, title, type), as JSON text: what a page's
 * body needs to know of the other pages to turn its links into references and addresses. It goes
 * with each task to the worker threads (workers/), as text so that handing it over is one copy;
 * made once per revision (revisions never change) and parsed once per revision by each thread.
 */
export type PageRow = [id: string, path: string, title: string, type: PageType];

export interface PageTable {
  /** The revision's id: the same id, the same table. */
  key: string;
  json: string;
}

const tables = new WeakMap<Tree, string>();

/** The page table of a revision's tree (kept while the tree is). */
export function pageTableOf(key: string, tree: Tree): PageTable {
  let json = tables.get(tree);
  if (json === undefined) {
    const rows: PageRow[] = [];
    for (const { page, path } of walk(tree)) rows.push([page.id, path, page.title, page.type]);
    json = JSON.stringify(rows);
    tables.set(tree, json);
  }
  return { key, json };
}

export interface ParsedPageTable {
  rows: PageRow[];
  byId: ReadonlyMap<string, PageRow>;
  /** `[path, id]` of the documents and groups: what links between pages resolve against. */
  paths: [string, string][];
}

const parsed = new Map<string, ParsedPageTable>();
/** Tables kept by a worker thread: a few revisions are rendered at a time. */
const PARSED_KEPT = 16;

/** A page table as a thread uses it, parsed once per revision (most recently used kept). */
export function readPageTable(table: PageTable): ParsedPageTable {
  const hit = parsed.get(table.key);
  if (hit !== undefined) {
    parsed.delete(table.key);
    parsed.set(table.key, hit);
    return hit;
  }
  const rows = JSON.parse(table.json) as PageRow[];
  const value: ParsedPageTable = {
    rows,
    byId: new Map(rows.map((row) => [row[0], row])),
    paths: rows.filter((row) => row[3] !== 'link').map((row): [string, string] => [row[1], row[0]]),
  };
  parsed.set(table.key, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
  return value;
}
