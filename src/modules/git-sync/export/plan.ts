import { type Tree, walk } from '../../content/tree.js';
import { type PageLinks, pageLinks } from '../../documents/index.js';
import type { StoredFile, StoredReusableContent } from '../../files/repository.js';
import { dirname, isInside, join, relativeTo } from '../format/paths.js';
import { parseSummary } from '../format/summary.js';
import { blobOid, type TreeChange } from '../git-write.js';
import { tocOf } from '../import/toc.js';
import { layoutOf } from './layout.js';
import { includeFileOf, pageFileOf } from './page-file.js';
import { summaryOf, tocShapeOfEntries, tocShapeOfTree } from './summary-writer.js';

/**
 * What an export changes in the repository (docs/git-sync.md, "Export"): the files of the space
 * as GitBook writes them, compared with the commit the export starts from, as the changes of
 * one commit. Files the space does not own are left alone; files it owned at the last sync and no
 * longer has are deleted. Pure but for reading stored file bytes.
 */
export interface PlanInput {
  pages: Tree;
  files: readonly StoredFile[];
  includes: readonly StoredReusableContent[];
  /** The space's folder in the repository (the project directory and .gitbook.yaml's root). */
  root: string;
  readme: string;
  /** SUMMARY.md's path from the root. */
  summary: string;
  /** The starting commit's files: path → blob id. */
  base: ReadonlyMap<string, string>;
  /** The paths the space owned at the last sync with this repository. */
  owned: ReadonlySet<string>;
  /** A .gitbook.yaml to write (the space's folder, when the branch has none). */
  config?: { path: string; text: string };
  /** A file of the starting commit as text. */
  text: (path: string) => Promise<string | undefined>;
  /** A stored file's bytes by its SHA-256. */
  bytes: (hash: string) => Promise<Buffer | undefined>;
}

export interface Plan {
  changes: TreeChange[];
  /** Every path the space owns after this export. */
  owned: string[];
}

export async function planExport(input: PlanInput): Promise<Plan> {
  const { files: pageFile } = layoutOf(input.pages, input.root, input.readme);
  const wanted = new Map<string, Buffer | { oid: string }>();
  const readBase = readLinksOf(input);
  const writeBase = writeLinksOf(input, pageFile);
  for (const { page, path } of walk(input.pages)) {
    const file = pageFile.get(page.id);
    if (page.type !== 'document' || file === undefined) continue;
    const text = pageFileOf(page, {
      file,
      readLinks: {
        ...readBase,
        path,
        ...(page.git === undefined ? {} : { file: page.git.path }),
      },
      writeLinks: { ...writeBase, path: file.replace(/\.md$/i, ''), file },
    });
    wanted.set(file, Buffer.from(text, 'utf8'));
  }
  const summaryFile = join(input.root, input.summary);
  wanted.set(summaryFile, Buffer.from(await summaryFor(input, pageFile), 'utf8'));
  if (input.config !== undefined) {
    wanted.set(input.config.path, Buffer.from(input.config.text, 'utf8'));
  }
  for (const item of input.includes) {
    wanted.set(gitPathOf(item, input.root), Buffer.from(includeFileOf(item), 'utf8'));
  }
  for (const file of input.files) {
    const path = gitPathOf(file, input.root);
    if (file.oid !== undefined && input.base.get(path) === file.oid) {
      wanted.set(path, { oid: file.oid });
      continue;
    }
    const data = await input.bytes(file.hash);
    if (data !== undefined) wanted.set(path, data);
  }

  const changes: TreeChange[] = [];
  for (const [path, content] of wanted) {
    const oid = Buffer.isBuffer(content) ? blobOid(content) : content.oid;
    if (input.base.get(path) === oid) continue;
    changes.push(Buffer.isBuffer(content) ? { path, data: content } : { path, oid });
  }
  for (const path of input.owned) {
    if (!wanted.has(path) && input.base.has(path)) changes.push({ path, delete: true });
  }
  return { changes, owned: [...wanted.keys()].sort() };
}

/**
 * SUMMARY.md: the repository's own, as written, while it still describes the space's tree (a
 * hand-written one is not respelled when no page moved); else GitBook's form of the tree.
 */
async function summaryFor(
  input: PlanInput,
  pageFile: ReadonlyMap<string, string>,
): Promise<string> {
  const summaryFile = join(input.root, input.summary);
  const folder = dirname(summaryFile);
  const written = summaryOf(input.pages, (id) => {
    const file = pageFile.get(id);
    return file === undefined || !isInside(file, folder) ? file : relativeTo(file, folder);
  });
  const current = input.base.has(summaryFile) ? await input.text(summaryFile) : undefined;
  if (current === undefined) return written;
  const names = new Set(
    [...input.base.keys(), ...pageFile.values()]
      .filter((p) => isInside(p, input.root))
      .map((p) => relativeTo(p, input.root)),
  );
  const parsed = parseSummary(current, { file: input.summary, files: names });
  const toc = tocOf(parsed.entries, input.readme, names, [], summaryFile);
  const fromRoot = (id: string) => {
    const file = pageFile.get(id);
    return file === undefined ? undefined : relativeTo(file, input.root);
  };
  const same =
    tocShapeOfEntries(toc.entries).join('\n') === tocShapeOfTree(input.pages, fromRoot).join('\n');
  return same ? current : written;
}

/** A file's or include's path in the repository: where it came from, else under the root. */
function gitPathOf(item: { gitPath?: string; path: string }, root: string): string {
  return item.gitPath !== undefined && isInside(item.gitPath, root)
    ? item.gitPath
    : join(root, item.path);
}

/** What the stored Markdown's links were written against: the revision's pages and files. */
function readLinksOf(input: PlanInput): PageLinks {
  const paths: [string, string][] = [];
  const pageFiles = new Map<string, string>();
  for (const { page, path } of walk(input.pages)) {
    if (page.type !== 'link') paths.push([path, page.id]);
    if (page.git !== undefined) pageFiles.set(page.git.path, page.id);
  }
  return {
    ...pageLinks(paths),
    pageFiles,
    files: new Map(input.files.map((f) => [(f.gitPath ?? f.path).normalize('NFC'), f.id])),
    includes: new Map(input.includes.map((r) => [(r.gitPath ?? r.path).normalize('NFC'), r.id])),
  };
}

/** What links are written against: each page's file (without `.md`, as hrefOf adds it). */
function writeLinksOf(input: PlanInput, pageFile: ReadonlyMap<string, string>): PageLinks {
  const paths: [string, string][] = [];
  const pageFiles = new Map<string, string>();
  for (const [id, file] of pageFile) {
    paths.push([file.replace(/\.md$/i, ''), id]);
    pageFiles.set(file, id);
  }
  return {
    ...pageLinks(paths),
    pageFiles,
    readmeAsFolder: true,
    files: new Map(input.files.map((f) => [gitPathOf(f, input.root).normalize('NFC'), f.id])),
    includes: new Map(input.includes.map((r) => [gitPathOf(r, input.root).normalize('NFC'), r.id])),
  };
}
