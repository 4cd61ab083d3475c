import type Token from 'markdown-it/lib/token.mjs';
import { plainMarkdown, plainTextOf } from './markdown.js';
import { dirname, type FormatWarning, join, resolveInside } from './paths.js';
import { readmeOf } from './readme.js';
import type { SummaryEntry } from './summary-entry.js';

export type { SummaryEntry } from './summary-entry.js';

export interface SummaryOptions {
  /** The SUMMARY file's path relative to the space root (entries resolve from its directory). */
  file: string;
  /**
   * The files of the space root (relative to it), when known: a folder entry (`guide/`) then
   * means its readme, and an entry to a missing file is dropped with a warning. Without it the
   * parser stays pure of the repository and keeps every `.md` entry.
   */
  files?: ReadonlySet<string>;
  /** The summary file's path in the repository, for warnings (default: `file`). */
  warnAs?: string;
}

export interface Summary {
  entries: SummaryEntry[];
  warnings: FormatWarning[];
}

/**
 * SUMMARY.md as GitBook reads it (reference §2). Decisions where GitBook is silent (§9), each with
 * a warning naming the line: a list item without a link, or whose entry cannot be a page (outside
 * the root, not Markdown, missing, a file listed twice: the first wins), is not an entry, and its
 * nested items take its place so that no listed page is lost; a heading other than the first
 * line's `# …` is a group; a rule (`***`) ends the current group (GitBook writes one before
 * top-level pages that follow a group); other blocks (paragraphs) are ignored. Links to `/x.md` start
 * from the root. Link entries and OpenAPI entries have no children; nested items under them are
 * lifted to their level.
 */
export function parseSummary(text: string, options: SummaryOptions): Summary {
  const tokens = plainMarkdown.parse(text, {});
  const warnings: FormatWarning[] = [];
  const state: State = { options, warnings, seen: new Set(), base: dirname(options.file) };
  const top: SummaryEntry[] = [];
  let into = top;
  let first = true;
  for (let i = 0; i < tokens.length; i = closeOf(tokens, i) + 1) {
    const token = tokens[i] as Token;
    const line = (token.map?.[0] ?? 0) + 1;
    if (token.type === 'heading_open') {
      const inline = tokens[i + 1];
      if (first && token.tag === 'h1') {
        first = false;
        continue;
      }
      if (token.tag !== 'h2') warn(state, line, `a \`${token.markup}\` heading is read as a group`);
      const slug = /\bid="([^"]+)"/.exec(htmlOf(inline))?.[1];
      const group: SummaryEntry = {
        kind: 'group',
        title: plainTextOf(inline?.children ?? null),
        ...(slug === undefined ? {} : { slug }),
        line,
        children: [],
      };
      top.push(group);
      into = group.children;
    } else if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') {
      into.push(...listOf(tokens, i, state));
    } else if (token.type === 'hr') {
      // GitBook writes `***` between a group's last page and pages outside any group.
      into = top;
    } else {
      warn(state, line, 'not a list item nor a group heading: ignored');
    }
    first = false;
  }
  return { entries: top, warnings };
}

interface State {
  options: SummaryOptions;
  warnings: FormatWarning[];
  seen: Set<string>;
  base: string;
}

function warn(state: State, line: number, message: string): void {
  state.warnings.push({ file: state.options.warnAs ?? state.options.file, line, message });
}

/** The entries of the list opening at `start`. */
function listOf(tokens: Token[], start: number, state: State): SummaryEntry[] {
  const entries: SummaryEntry[] = [];
  const end = closeOf(tokens, start);
  for (let i = start + 1; i < end; i = closeOf(tokens, i) + 1) {
    if (tokens[i]?.type === 'list_item_open') entries.push(...itemOf(tokens, i, state));
  }
  return entries;
}

/** One list item: its entry (with its nested entries), or its nested entries alone. */
function itemOf(tokens: Token[], start: number, state: State): SummaryEntry[] {
  const end = closeOf(tokens, start);
  const line = (tokens[start]?.map?.[0] ?? 0) + 1;
  let head: Token | undefined;
  const nested: SummaryEntry[] = [];
  for (let i = start + 1; i < end; i = closeOf(tokens, i) + 1) {
    const token = tokens[i] as Token;
    if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') {
      nested.push(...listOf(tokens, i, state));
    } else if (head === undefined) {
      head = token.type === 'paragraph_open' ? tokens[i + 1] : token;
    }
  }
  if (head?.type === 'fence' && /^\s*type:\s*["']?builtin:openapi\b/m.test(head.content)) {
    return [{ kind: 'openapi', spec: head.content, line }, ...nested];
  }
  const children = head?.type === 'inline' ? (head.children ?? []) : [];
  const open = children.findIndex((child) => child.type === 'link_open');
  if (open < 0) {
    warn(state, line, 'a list item without a link is not an entry');
    return nested;
  }
  const close = children.findIndex((child, j) => j > open && child.type === 'link_close');
  const title = plainTextOf(children.slice(open + 1, close < 0 ? undefined : close));
  const link = children[open] as Token;
  const entry = entryOf(link.attrGet('href') ?? '', title, link.attrGet('title'), line, state);
  if (entry === undefined) return nested;
  if (entry.kind === 'page') {
    entry.children = nested;
    return [entry];
  }
  return [entry, ...nested];
}

function entryOf(
  href: string,
  title: string,
  linkTitle: string | null,
  line: number,
  state: State,
): SummaryEntry | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) {
    return { kind: 'link', title, target: { kind: 'url', url: href }, line };
  }
  const hash = href.indexOf('#');
  const anchor = hash < 0 ? '' : decode(href.slice(hash + 1));
  const written = decode(hash < 0 ? href : href.slice(0, hash));
  if (written === '') {
    warn(state, line, `${JSON.stringify(href)} names no file: not an entry`);
    return undefined;
  }
  let file = resolveInside(state.base, written, '');
  if (file === undefined) {
    warn(state, line, `${JSON.stringify(written)} is outside the space root: not an entry`);
    return undefined;
  }
  const files = state.options.files;
  if (files !== undefined && !files.has(file)) {
    const readme = readmeOf(namesIn(files, file));
    if (readme !== undefined) file = join(file, readme);
  } else if (files === undefined && written.endsWith('/')) {
    file = join(file, 'README.md');
  }
  if (!/\.md$/i.test(file) && !/(^|\/)README$/.test(file)) {
    warn(state, line, `${JSON.stringify(written)} is not a Markdown file: not an entry`);
    return undefined;
  }
  if (files !== undefined && !files.has(file)) {
    warn(state, line, `${JSON.stringify(written)} does not exist: not an entry`);
    return undefined;
  }
  if (anchor !== '') return { kind: 'link', title, target: { kind: 'page', file, anchor }, line };
  if (state.seen.has(file)) {
    warn(state, line, `${JSON.stringify(file)} is listed twice: the first entry is kept`);
    return undefined;
  }
  state.seen.add(file);
  return {
    kind: 'page',
    title,
    file,
    ...(linkTitle === null || linkTitle === '' ? {} : { linkTitle }),
    line,
    children: [],
  };
}

/** The names of the files directly inside `dir`. */
function namesIn(files: ReadonlySet<string>, dir: string): string[] {
  const prefix = dir === '' ? '' : `${dir}/`;
  return [...files]
    .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
    .map((path) => path.slice(prefix.length));
}

/** markdown-it percent-encodes destinations: `%20` and `<a b.md>` both come back as spaces. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The raw HTML of an inline token's children (a heading's anchor). */
function htmlOf(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .filter((child) => child.type === 'html_inline')
    .map((child) => child.content)
    .join('');
}

/** The index of the token closing the block opened at `i` (itself for a single token). */
function closeOf(tokens: Token[], i: number): number {
  const open = tokens[i];
  if (open === undefined || open.nesting !== 1) return i;
  for (let j = i + 1; j < tokens.length; j++) {
    const token = tokens[j] as Token;
    if (token.nesting === -1 && token.level === open.level) return j;
  }
  return tokens.length - 1;
}
