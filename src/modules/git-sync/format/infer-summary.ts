import { basename, join } from './paths.js';
import { isReadmeName, readmeOf } from './readme.js';
import type { SummaryEntry, SummaryPage } from './summary-entry.js';

/**
 * The table of contents of a space without SUMMARY.md, inferred from its folders and Markdown
 * files as GitBook does (D1, D3, D5). GitBook documents that it infers one, not how (§9), so:
 *
 * - The space's readme (`structure.readme`, else the root folder's readme) is the first page.
 * - Then, in each folder, its Markdown files and its folders together, in alphabetical order
 *   (case-insensitive, numbers by value: `2-x` before `10-x`; ties by code point, so the order
 *   never depends on the order Git lists files in). Names compare without `.md`.
 * - A folder's readme is the folder's page, and the folder's other entries are its children.
 * - A folder without a readme has no page of its own (a page is a file; GitBook's exports always
 *   give a parent page a `folder/README.md`): its entries take its place in the parent's list.
 * - `.gitbook/` (assets, includes), every other hidden file or folder, and `node_modules/` are
 *   not content.
 * - Titles are file names without `.md`, and folder names for readmes; the importer replaces
 *   them with the page's H1 when it has one.
 */
export function inferSummary(files: Iterable<string>, readme = 'README.md'): SummaryEntry[] {
  const root = folder();
  for (const path of files) {
    const parts = path.split('/');
    if (parts.some((part) => part.startsWith('.') || part === 'node_modules')) continue;
    const name = parts.pop() as string;
    if (!/\.md$/i.test(name) && !isReadmeName(name)) continue;
    let node = root;
    for (const part of parts) {
      let child = node.folders.get(part);
      if (child === undefined) {
        child = folder();
        node.folders.set(part, child);
      }
      node = child;
    }
    node.files.push(name);
  }
  const first = hasFile(root, readme) ? readme : readmeOf(root.files);
  const entries = entriesOf(root, '', first);
  if (first === undefined) return entries;
  return [pageOf(first, titleOfFile(basename(first))), ...entries];
}

interface Folder {
  files: string[];
  folders: Map<string, Folder>;
}

const folder = (): Folder => ({ files: [], folders: new Map() });

/** The entries of one folder, without `skip` (the space readme, a path from the root). */
function entriesOf(node: Folder, dir: string, skip: string | undefined): SummaryEntry[] {
  const items: { name: string; entries: SummaryEntry[] }[] = [];
  const own = dir === '' ? undefined : readmeOf(node.files);
  for (const name of node.files) {
    const path = join(dir, name);
    if (name === own || path === skip) continue;
    items.push({ name: titleOfFile(name), entries: [pageOf(path, titleOfFile(name))] });
  }
  for (const [name, child] of node.folders) {
    const path = join(dir, name);
    const children = entriesOf(child, path, skip);
    const readme = readmeOf(child.files);
    if (readme !== undefined && join(path, readme) !== skip) {
      items.push({ name, entries: [pageOf(join(path, readme), name, children)] });
    } else if (children.length > 0) {
      items.push({ name, entries: children });
    }
  }
  items.sort((a, b) => compareNames(a.name, b.name));
  return items.flatMap((item) => item.entries);
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

function titleOfFile(name: string): string {
  return name.replace(/\.md$/i, '');
}

function pageOf(file: string, title: string, children: SummaryEntry[] = []): SummaryPage {
  return { kind: 'page', title, file, line: 0, children };
}

function hasFile(root: Folder, path: string): boolean {
  let node: Folder | undefined = root;
  const parts = path.split('/');
  const name = parts.pop() as string;
  for (const part of parts) node = node?.folders.get(part);
  return node?.files.includes(name) ?? false;
}
