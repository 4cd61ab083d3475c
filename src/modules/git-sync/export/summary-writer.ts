import { slugify } from '../../../slug.js';
import type { StoredPage, Tree } from '../../content/tree.js';
import type { TocEntry } from '../import/build-tree.js';

/**
 * SUMMARY.md as GitBook's exporter writes it (reference §2): `# Table of contents`, then the
 * pages as a `*` list nested two spaces per level, each group as a `## ` heading (with an anchor
 * when its slug is not its title's), and `***` before top-level pages that follow a group. Links
 * are relative to the summary's folder. Pure; what summary.ts reads back is the same tree.
 */
export function summaryOf(
  tree: Tree,
  /** Each document's file, relative to the summary's folder (page links use it too). */
  fileOf: (pageId: string) => string | undefined,
): string {
  const out: string[] = ['# Table of contents', ''];
  let afterGroup = false;
  let listOpen = false;
  for (const page of tree) {
    if (page.type === 'group') {
      if (listOpen) out.push('');
      const slug = page.slug ?? '';
      const anchor =
        slug !== '' && slug !== slugify(page.title, 'group')
          ? ` <a href="#${slug}" id="${slug}"></a>`
          : '';
      out.push(`## ${escapeHeading(page.title)}${anchor}`, '');
      const lines: string[] = [];
      for (const child of page.pages) item(child, 0, fileOf, lines);
      out.push(...lines);
      listOpen = lines.length > 0;
      afterGroup = true;
      continue;
    }
    if (afterGroup) {
      out.push('', '***', '');
      afterGroup = false;
    }
    item(page, 0, fileOf, out);
    listOpen = true;
  }
  while (out.at(-1) === '') out.pop();
  return `${out.join('\n')}\n`;
}

function item(
  page: StoredPage,
  depth: number,
  fileOf: (pageId: string) => string | undefined,
  out: string[],
): void {
  const indent = '  '.repeat(depth);
  if (page.type === 'link') {
    const target = page.target;
    const href =
      target?.kind === 'url'
        ? target.url
        : target?.page === undefined
          ? undefined
          : fileOf(target.page) === undefined
            ? undefined
            : `${destination(fileOf(target.page) ?? '')}${target.kind === 'anchor' && target.anchor !== undefined ? `#${encodeURIComponent(target.anchor)}` : ''}`;
    if (href !== undefined) out.push(`${indent}* [${escapeText(page.title)}](${href})`);
    return;
  }
  if (page.type === 'group') {
    // A group below the top has no SUMMARY form: its pages take its place.
    for (const child of page.pages) item(child, depth, fileOf, out);
    return;
  }
  const file = fileOf(page.id);
  if (file === undefined) return;
  const title =
    page.linkTitle === undefined ? '' : ` "${page.linkTitle.replace(/["\\]/g, '\\$&')}"`;
  out.push(`${indent}* [${escapeText(page.title)}](${destination(file)}${title})`);
  for (const child of page.pages) item(child, depth + 1, fileOf, out);
}

/** A file path as a link destination: spaces and other unsafe characters percent-encoded. */
function destination(path: string): string {
  return path
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/%40/g, '@').replace(/%2B/g, '+'))
    .join('/');
}

/** Link text: brackets and backslashes escaped, so that the title reads back as written. */
const escapeText = (text: string) => text.replace(/[\\[\]]/g, '\\$&');
const escapeHeading = (text: string) => text.replace(/[\\<]/g, '\\$&');

/**
 * The shape of a table of contents, one line per entry: what must match for a repository's own
 * SUMMARY.md to stand for the space as it is (then it is kept as written, whatever its spelling).
 * Page titles are not part of it: a page's title is its file's heading.
 */
export function tocShapeOfTree(
  tree: Tree,
  fileOf: (pageId: string) => string | undefined,
): string[] {
  const out: string[] = [];
  const visit = (pages: readonly StoredPage[], depth: number) => {
    for (const page of pages) {
      if (page.type === 'group') {
        out.push(`group ${depth} ${page.title} ${page.slug ?? ''}`);
        visit(page.pages, depth + 1);
      } else if (page.type === 'link') {
        const t = page.target;
        out.push(
          `link ${depth} ${page.title} ${t?.kind === 'url' ? t.url : `${fileOf(t?.page ?? '') ?? ''}#${t?.kind === 'anchor' ? t.anchor : ''}`}`,
        );
      } else {
        out.push(`page ${depth} ${fileOf(page.id) ?? ''} ${page.linkTitle ?? ''}`);
        visit(page.pages, depth + 1);
      }
    }
  };
  visit(tree, 0);
  return out;
}

/** The same shape of a table of contents as read from SUMMARY.md (import/toc.ts's entries). */
export function tocShapeOfEntries(entries: readonly TocEntry[]): string[] {
  const out: string[] = [];
  const visit = (list: readonly TocEntry[], depth: number) => {
    for (const entry of list) {
      if (entry.kind === 'group') {
        out.push(`group ${depth} ${entry.title} ${entry.slug ?? slugify(entry.title, 'group')}`);
        visit(entry.children, depth + 1);
      } else if (entry.kind === 'link') {
        out.push(
          `link ${depth} ${entry.title} ${entry.url ?? `${entry.file ?? ''}#${entry.anchor ?? ''}`}`,
        );
      } else {
        out.push(`page ${depth} ${entry.file} ${entry.linkTitle ?? ''}`);
        visit(entry.children, depth + 1);
      }
    }
  };
  visit(entries, 0);
  return out;
}
