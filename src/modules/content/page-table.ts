import { type PageLinks, pageLinks } from '../documents/links.js';
import type { PageType, Tree } from './tree.js';
import { walk } from './tree.js';

/**
 * Every page of a revision in one line each (id, path, title, type), as JSON text: what a page's
 * body needs to know of the other pages to turn its links into references and addresses. It goes
 * with each task to the worker threads (workers/), as text so that handing it over is one copy;
 * made once per revision (revisions never change) and parsed once per revision by each thread.
 */
export type PageRow = [id: string, path: string, title: string, type: PageType, file?: string];

/**
 * A revision's files and reusable contents (docs/git-sync.md), as its pages' bodies need them:
 * files by their path in the repository with the address they are served at, includes with
 * their Markdown.
 */
export interface RevisionAssets {
  files: [
    id: string,
    gitPath: string,
    url: string,
    name: string,
    contentType: string,
    size: number,
  ][];
  includes: [id: string, gitPath: string, title: string, markdown: string][];
}

export interface PageTable {
  /** The revision's id: the same id, the same table. */
  key: string;
  json: string;
  /** RevisionAssets as JSON, when the revision has files or reusable contents. */
  assets?: string;
}

const tables = new WeakMap<Tree, string>();

/** The page table of a revision's tree (kept while the tree is). */
export function pageTableOf(key: string, tree: Tree, assets?: RevisionAssets): PageTable {
  let json = tables.get(tree);
  if (json === undefined) {
    const rows: PageRow[] = [];
    for (const { page, path } of walk(tree)) {
      rows.push(
        page.git === undefined
          ? [page.id, path, page.title, page.type]
          : [page.id, path, page.title, page.type, page.git.path],
      );
    }
    json = JSON.stringify(rows);
    tables.set(tree, json);
  }
  if (assets === undefined || (assets.files.length === 0 && assets.includes.length === 0)) {
    return { key, json };
  }
  let assetsJson = assetTexts.get(assets);
  if (assetsJson === undefined) {
    assetsJson = JSON.stringify(assets);
    assetTexts.set(assets, assetsJson);
  }
  return { key, json, assets: assetsJson };
}

const assetTexts = new WeakMap<RevisionAssets, string>();

export interface ParsedPageTable {
  rows: PageRow[];
  byId: ReadonlyMap<string, PageRow>;
  /** `[path, id]` of the documents and groups: what links between pages resolve against. */
  paths: [string, string][];
  /** Imported pages' ids by their file's path in the repository. */
  pageFiles: ReadonlyMap<string, string>;
  /** Files and includes by path in the repository, and by id. */
  files: ReadonlyMap<string, string>;
  fileById: ReadonlyMap<string, { url: string; name: string; contentType: string; size: number }>;
  includes: ReadonlyMap<string, string>;
  includeById: ReadonlyMap<string, { gitPath: string; title: string; markdown: string }>;
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
  const assets: RevisionAssets =
    table.assets === undefined
      ? { files: [], includes: [] }
      : (JSON.parse(table.assets) as RevisionAssets);
  const value: ParsedPageTable = {
    rows,
    byId: new Map(rows.map((row) => [row[0], row])),
    paths: rows.filter((row) => row[3] !== 'link').map((row): [string, string] => [row[1], row[0]]),
    pageFiles: new Map(rows.flatMap((row) => (row[4] === undefined ? [] : [[row[4], row[0]]]))),
    files: new Map(assets.files.map((f) => [f[1].normalize('NFC'), f[0]])),
    fileById: new Map(
      assets.files.map(([id, , url, name, contentType, size]) => [
        id,
        { url, name, contentType, size },
      ]),
    ),
    includes: new Map(assets.includes.map((i) => [i[1].normalize('NFC'), i[0]])),
    includeById: new Map(
      assets.includes.map(([id, gitPath, title, markdown]) => [id, { gitPath, title, markdown }]),
    ),
  };
  parsed.set(table.key, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
  return value;
}

/** What a page's links resolve against: the revision's pages, and, for an imported page, its files. */
export function pageLinksOf(table: ParsedPageTable, path: string, file?: string): PageLinks {
  const links: PageLinks = pageLinks(table.paths, path);
  if (file === undefined) return links;
  return {
    ...links,
    file,
    pageFiles: table.pageFiles,
    files: table.files,
    includes: table.includes,
  };
}
