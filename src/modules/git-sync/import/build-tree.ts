import { slugify, uniqueSlug } from '../../../slug.js';
import { canonicalJson } from '../../content/storage/node.js';
import {
  type LinkTarget,
  type StoredPage,
  slugProblem,
  type Tree,
  walk,
} from '../../content/tree.js';

/**
 * A space's page tree from a repository's table of contents (docs/git-sync.md, "Pages"): each
 * SUMMARY entry a page, group or link, in order. Pure: the files are already read and split.
 *
 * - A page keeps its id (and `createdAt`) across imports as long as its file keeps its path; its
 *   `updatedAt` moves only when its content or fields change.
 * - Title: the file's first `# ` heading; the SUMMARY text when the file has none (decision,
 *   docs/git-sync.md "Titles").
 * - Slug: the file's name without `.md` (a README: its folder's), made a valid slug when it is
 *   not one, and unique among its siblings.
 */

export type TocEntry =
  | {
      kind: 'page';
      title: string;
      file: string;
      linkTitle?: string;
      line: number;
      children: TocEntry[];
    }
  | { kind: 'group'; title: string; slug?: string; line: number; children: TocEntry[] }
  | { kind: 'link'; title: string; url?: string; file?: string; anchor?: string; line: number };

/** A page file, read and split. */
export interface PageFile {
  oid: string;
  /** The file's path in the repository (for `git.path`). */
  repoPath: string;
  /** The body after the front matter. */
  markdown: string;
  frontMatter?: string;
  title?: string;
  description?: string;
  hidden?: boolean;
  icon?: string;
  /** The other page fields its front matter sets (noIndex, noRobotsIndex, cover, layout). */
  fields?: Pick<StoredPage, 'noIndex' | 'noRobotsIndex' | 'cover' | 'layout'>;
}

export interface Warning {
  file: string;
  line?: number;
  message: string;
}

export interface BuildInput {
  entries: readonly TocEntry[];
  /** Page files by their path in the space's root. */
  files: ReadonlyMap<string, PageFile>;
  /** The summary file's path (for warnings). */
  summaryFile: string;
  /** The space's current pages. */
  previous: Tree;
  now: string;
  newId: () => string;
}

export interface BuiltTree {
  pages: Tree;
  /** Page ids by their file's path in the space's root (links resolve against it). */
  pageFiles: Map<string, string>;
  warnings: Warning[];
}

export function buildTree(input: BuildInput): BuiltTree {
  const before = new Map<string, StoredPage>();
  for (const { page, path } of walk(input.previous)) {
    if (page.git !== undefined) before.set(`file:${page.git.path}`, page);
    else if (page.type === 'group') before.set(`group:${path}`, page);
    else if (page.type === 'link') before.set(`link:${page.title}`, page);
  }
  const state: State = { ...input, before, pageFiles: new Map(), warnings: [], used: new Set() };
  // Links need every page's id: pages first, links to them after.
  const pages = build(input.entries, state, '');
  resolvePageLinks(pages, state);
  return { pages, pageFiles: state.pageFiles, warnings: state.warnings };
}

interface State extends BuildInput {
  before: Map<string, StoredPage>;
  pageFiles: Map<string, string>;
  warnings: Warning[];
  /** Files already made a page: a file listed twice is one page (GitBook: one page, one URL). */
  used: Set<string>;
}

function build(entries: readonly TocEntry[], s: State, parentPath: string): StoredPage[] {
  const out: StoredPage[] = [];
  const slugs = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === 'link') {
      out.push(linkPage(entry, s));
      continue;
    }
    if (entry.kind === 'group') {
      const slug = uniqueSlug(entry.slug ?? slugify(entry.title, 'group'), slugs);
      slugs.add(slug);
      const path = parentPath === '' ? slug : `${parentPath}/${slug}`;
      const prior = s.before.get(`group:${path}`);
      const children = build(entry.children, s, path);
      out.push(kept(prior, { type: 'group', title: entry.title, slug, pages: children }, s));
      continue;
    }
    const file = s.files.get(entry.file);
    if (file === undefined || s.used.has(entry.file)) {
      s.warnings.push({
        file: s.summaryFile,
        line: entry.line,
        message:
          file === undefined
            ? `"${entry.file}" is not in the repository (or not a Markdown file): the entry is skipped, its children kept`
            : `"${entry.file}" is listed twice: only its first entry is a page`,
      });
      out.push(...build(entry.children, s, parentPath));
      continue;
    }
    s.used.add(entry.file);
    const slug = uniqueSlug(slugOf(entry.file, file.title ?? entry.title), slugs);
    slugs.add(slug);
    const path = parentPath === '' ? slug : `${parentPath}/${slug}`;
    const prior = s.before.get(`file:${file.repoPath}`);
    const children = build(entry.children, s, path);
    const page = kept(
      prior,
      {
        type: 'document',
        title: file.title ?? entry.title,
        slug,
        markdown: file.markdown,
        ...(file.description === undefined ? {} : { description: file.description }),
        ...(file.hidden === true ? { hidden: true } : {}),
        ...(file.icon === undefined ? {} : { icon: file.icon }),
        ...file.fields,
        ...(entry.linkTitle === undefined ? {} : { linkTitle: entry.linkTitle }),
        ...(file.frontMatter === undefined ? {} : { frontMatter: file.frontMatter }),
        git: { oid: file.oid, path: file.repoPath },
        pages: children,
      },
      s,
    );
    s.pageFiles.set(entry.file, page.id);
    out.push(page);
  }
  return out;
}

type Fields = Omit<StoredPage, 'id' | 'createdAt' | 'updatedAt'>;

/** The page with its prior's id and dates when it had one; `updatedAt` moves when it changed. */
function kept(prior: StoredPage | undefined, fields: Fields, s: State): StoredPage {
  if (prior === undefined) return { id: s.newId(), createdAt: s.now, updatedAt: s.now, ...fields };
  // The Markdown by identity first (a long body compared once), then every other field.
  const { id: _id, createdAt: _c, updatedAt: _u, pages: _p, markdown, ...before } = prior;
  const { pages: _q, markdown: next, ...after } = fields;
  const same = markdown === next && canonicalJson(before) === canonicalJson(after);
  return {
    id: prior.id,
    createdAt: prior.createdAt,
    updatedAt: same ? prior.updatedAt : s.now,
    ...fields,
  };
}

/** An external link, or a link to a page (`page.md#anchor`), resolved once every page has an id. */
function linkPage(entry: Extract<TocEntry, { kind: 'link' }>, s: State): StoredPage {
  const target: LinkTarget =
    entry.url !== undefined
      ? { kind: 'url', url: entry.url }
      : entry.anchor !== undefined && entry.anchor !== ''
        ? { kind: 'anchor', page: entry.file ?? '', anchor: entry.anchor }
        : { kind: 'page', page: entry.file ?? '' };
  const prior = s.before.get(`link:${entry.title}`);
  return kept(prior, { type: 'link', title: entry.title, target, pages: [] }, s);
}

function resolvePageLinks(pages: StoredPage[], s: State): void {
  for (const { page } of walk(pages)) {
    const target = page.target;
    if (page.type !== 'link' || target === undefined || target.kind === 'url') continue;
    const file = target.page ?? '';
    const id = s.pageFiles.get(file);
    if (id !== undefined) {
      // `page.md#anchor` keeps its anchor (GitBook's ContentRefAnchor).
      page.target =
        target.kind === 'anchor' && target.anchor !== undefined
          ? { kind: 'anchor', page: id, anchor: target.anchor }
          : { kind: 'page', page: id };
    } else {
      s.warnings.push({
        file: s.summaryFile,
        message: `the link "${page.title}" goes to "${file}", which is not a page: it is kept as a link to that address`,
      });
      page.target = { kind: 'url', url: file };
    }
  }
}

/** The slug a file gives its page. */
function slugOf(file: string, title: string): string {
  const parts = file.split('/');
  const name = parts.at(-1) ?? '';
  const readme = /^readme(\.md)?$/i.test(name);
  const base = readme ? (parts.at(-2) ?? slugify(title, 'readme')) : name.replace(/\.md$/i, '');
  return slugProblem(base) === undefined ? base : slugify(base, 'page');
}
