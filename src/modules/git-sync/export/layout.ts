import type { StoredPage, Tree } from '../../content/tree.js';
import { dirname, isInside, join } from '../format/paths.js';

/**
 * Where each page of a space goes in the repository (docs/git-sync.md, "Export"). Pure.
 *
 * - A page that came from a file inside the space's root keeps that file.
 * - The first page is the readme (`README.md`, or .gitbook.yaml's `structure.readme`).
 * - A page made in Livery goes where GitBook's exporter puts it: `<folder>/<slug>.md`, or
 *   `<folder>/<slug>/README.md` when it has children; its children go in `<folder>/<slug>/`.
 *   A group's pages go in a folder named after the group's slug.
 * - Two pages never share a file: a taken path gets `-2`, `-3`… before `.md`.
 */
export interface Layout {
  /** Each document's file, by page id, as a path from the repository's top. */
  files: Map<string, string>;
}

export function layoutOf(tree: Tree, root: string, readme = 'README.md'): Layout {
  const files = new Map<string, string>();
  const taken = new Set<string>();
  // Kept files first, so that a new page never takes the path of one that is still there.
  const keeps = (page: StoredPage) =>
    page.type === 'document' && page.git !== undefined && isInside(page.git.path, root);
  const visitKept = (pages: readonly StoredPage[]) => {
    for (const page of pages) {
      if (keeps(page) && page.git !== undefined && !taken.has(page.git.path.toLowerCase())) {
        files.set(page.id, page.git.path);
        taken.add(page.git.path.toLowerCase());
      }
      visitKept(page.pages);
    }
  };
  visitKept(tree);
  const first = tree.find((page) => page.type === 'document');
  const place = (pages: readonly StoredPage[], folder: string) => {
    for (const page of pages) {
      if (page.type === 'link') continue;
      if (page.type === 'group') {
        place(page.pages, join(folder, page.slug ?? 'group'));
        continue;
      }
      let file = files.get(page.id);
      if (file === undefined) {
        const slug = page.slug ?? 'page';
        const wanted =
          page === first && folder === root
            ? join(root, readme)
            : page.pages.length > 0
              ? join(folder, `${slug}/README.md`)
              : join(folder, `${slug}.md`);
        file = free(wanted, taken);
        files.set(page.id, file);
        taken.add(file.toLowerCase());
      }
      place(page.pages, childFolder(file));
    }
  };
  place(tree, root);
  return { files };
}

/** The folder a page's children go in: a readme's own folder, `guide.md`'s `guide/`. */
function childFolder(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (/^readme\.md$/i.test(name)) return dirname(file);
  return file.replace(/\.md$/i, '');
}

/** `path`, or the first of `path-2.md`, `path-3.md`… (`x/README.md` → `x-2/README.md`) not taken. */
function free(path: string, taken: ReadonlySet<string>): string {
  if (!taken.has(path.toLowerCase())) return path;
  const readme = /\/README\.md$/.exec(path);
  for (let n = 2; ; n++) {
    const candidate =
      readme === null
        ? path.replace(/\.md$/i, `-${n}.md`)
        : `${path.slice(0, readme.index)}-${n}/README.md`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
