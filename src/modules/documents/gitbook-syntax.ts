import type MarkdownIt from 'markdown-it';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import { lineOf } from './block-lines.js';
import { isLoneTag } from './blocks/index.js';

/**
 * GitBook's Markdown blocks for markdown-it (raw HTML stays off): template tags on lines of
 * their own, `{% hint style="info" %}…{% endhint %}`, `{% tabs %}`, `{% code title="x" %}`,
 * `{% content-ref url="…" %}`, `{% embed url="…" %}` (with or without `{% endembed %}`), any
 * other `{% name %}…{% endname %}` pair, and `<details><summary>…</summary>…</details>` (GitBook's
 * other HTML forms: blocks/html-syntax.ts).
 * A paired tag becomes `gitbook_open` … `gitbook_close` around its content, parsed as Markdown;
 * a lone one `gitbook_tag`; the converter (from-markdown.ts) decides what each becomes. No tag
 * is ever left in the text.
 */

/** `{% name attr="value" … %}`; a quoted value may hold anything but `"` (`%}` too). */
const TAG =
  /^\{%\s*(@[\w.-]+(?:\/[\w.-]+)?|[a-z][\w-]*)((?:\s+(?:"[^"]*"|[^"%]|%(?!\}))*?)?)\s*%\}\s*$/i;

/**
 * A paired tag on one line, `{% file src="a.pdf" %}Caption{% endfile %}`: its name, attributes
 * and body, or undefined. One pass over the line (a regular expression with a lazy body and
 * attributes backtracked over every `%}` of a hostile line).
 */
function oneLine(line: string): { name: string; source: string; body: string } | undefined {
  const head = /^\{%\s*([a-z][\w-]*)(?=[\s%])/i.exec(line);
  if (head === null) return undefined;
  let at = head[0].length;
  let quoted = false;
  for (; at < line.length - 1; at++) {
    const char = line[at];
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === '%' && line[at + 1] === '}') break;
  }
  if (at >= line.length - 1) return undefined;
  const rest = line.slice(at + 2);
  const endAt = rest.lastIndexOf('{%');
  const end = endAt === -1 ? null : /^\{%\s*end([a-z][\w-]*)\s*%\}\s*$/i.exec(rest.slice(endAt));
  const name = (head[1] ?? '').toLowerCase();
  if (end === null || end[1]?.toLowerCase() !== name) return undefined;
  return { name, source: line.slice(head[0].length, at), body: rest.slice(0, endAt) };
}
const DETAILS_OPEN = /^<details(\s+open)?\s*>\s*(?:<summary>(.*?)<\/summary>)?\s*$/i;
const DETAILS_CLOSE = /^<\/details>\s*$/i;
const SUMMARY = /^<summary>(.*?)<\/summary>\s*$/i;
/** A fence's opening (a backtick fence's info has no backtick, as CommonMark says). */
const FENCE = /^(?:(`{3,})[^`]*|(~{3,}).*)$/;

/** `style="info" title="a.js"` → `{style: 'info', title: 'a.js'}` (`&quot;` and `&amp;` decoded). */
export function tagAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of source.matchAll(/([\w-]+)\s*=\s*"([^"]*)"/g)) {
    const [, name, value] = match;
    if (name !== undefined && value !== undefined) {
      attrs[name] = value.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    }
  }
  return attrs;
}

/**
 * The line of the closing line of a block opened at `start`, skipping fenced code (a fence may
 * show the tags themselves) and counting nested openings; -1 when there is none before the
 * container's end or a line less indented than the block.
 */
function closingLine(
  state: StateBlock,
  start: number,
  end: number,
  opens: (line: string) => boolean,
  closes: (line: string) => boolean,
): number {
  let depth = 0;
  let fence: string | undefined;
  const scan = scanBudget(state);
  for (let line = start + 1; line < end; line++) {
    if (--scan.left < 0) return -1;
    const content = lineOf(state, line);
    const blank = state.isEmpty(line);
    if (!blank && (state.sCount[line] ?? 0) < state.blkIndent) return -1;
    const found = FENCE.exec(content);
    const marker = found === null ? undefined : (found[1] ?? found[2]);
    if (fence !== undefined) {
      const closing = marker !== undefined && /^[`~]+\s*$/.test(content);
      if (closing && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (marker !== undefined) fence = marker;
    else if (closes(content)) {
      if (depth === 0) return line;
      depth--;
    } else if (opens(content)) depth++;
  }
  return -1;
}

/**
 * Lines a page's closing-tag searches may read in all. Each opening tag searches ahead for its
 * closing one: a page of thousands of unclosed tags (any member may write one) would otherwise
 * cost the square of its length; past the budget, openings count as lone tags (their content
 * stays, as for any unknown tag).
 */
const SCAN_LINES = 200_000;

function scanBudget(state: StateBlock): { left: number } {
  const env = state.env as { gitbookScan?: { left: number } };
  env.gitbookScan ??= { left: SCAN_LINES };
  return env.gitbookScan;
}

/** Parses lines `from`..`to` (exclusive) as blocks inside the current container. */
function tokenizeInside(state: StateBlock, from: number, to: number): void {
  const parentType = state.parentType;
  const lineMax = state.lineMax;
  state.parentType = 'container' as typeof state.parentType;
  state.lineMax = to;
  state.md.block.tokenize(state, from, to);
  state.parentType = parentType;
  state.lineMax = lineMax;
}

function templateTag(state: StateBlock, startLine: number, endLine: number, silent: boolean) {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const line = lineOf(state, startLine);
  const match = TAG.exec(line);
  if (match === null) return oneLineTag(state, startLine, line, silent);
  if (silent) return true;
  const name = (match[1] ?? '').toLowerCase();
  const source = match[2] ?? '';
  const attrs = tagAttributes(source);
  if (name.startsWith('end')) {
    // A closing tag without its opening: dropped.
    state.line = startLine + 1;
    return true;
  }
  const isOpen = (line: string) => TAG.exec(line)?.[1]?.toLowerCase() === name;
  const isClose = (line: string) => TAG.exec(line)?.[1]?.toLowerCase() === `end${name}`;
  const close = isLoneTag(name) ? -1 : closingLine(state, startLine, endLine, isOpen, isClose);
  if (close === -1) {
    const token = state.push('gitbook_tag', '', 0);
    token.meta = { name, attrs, source };
    token.map = [startLine, startLine + 1];
    token.block = true;
    state.line = startLine + 1;
    return true;
  }
  const open = state.push('gitbook_open', '', 1);
  open.meta = { name, attrs, source };
  open.map = [startLine, close + 1];
  open.block = true;
  tokenizeInside(state, startLine + 1, close);
  state.push('gitbook_close', '', -1).meta = { name };
  state.line = close + 1;
  return true;
}

/** `{% name … %}body{% endname %}` on one line: the tag around a paragraph of its body. */
function oneLineTag(state: StateBlock, startLine: number, line: string, silent: boolean) {
  const match = line.startsWith('{%') ? oneLine(line) : undefined;
  if (match === undefined) return false;
  if (silent) return true;
  const { name, source } = match;
  const open = state.push('gitbook_open', '', 1);
  open.meta = { name, attrs: tagAttributes(source), source };
  open.map = [startLine, startLine + 1];
  open.block = true;
  const body = match.body.trim();
  if (body !== '') {
    state.push('paragraph_open', 'p', 1).map = [startLine, startLine + 1];
    const inline = state.push('inline', '', 0);
    inline.content = body;
    inline.map = [startLine, startLine + 1];
    inline.children = [];
    state.push('paragraph_close', 'p', -1);
  }
  state.push('gitbook_close', '', -1).meta = { name };
  state.line = startLine + 1;
  return true;
}

function details(state: StateBlock, startLine: number, endLine: number, silent: boolean) {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const match = DETAILS_OPEN.exec(lineOf(state, startLine));
  if (match === null) return false;
  const close = closingLine(
    state,
    startLine,
    endLine,
    (line) => DETAILS_OPEN.test(line),
    (line) => DETAILS_CLOSE.test(line),
  );
  if (close === -1) return false;
  if (silent) return true;
  let summary = match[2];
  let bodyStart = startLine + 1;
  if (summary === undefined) {
    // The summary is the first non-blank line, when it is one.
    while (bodyStart < close && state.isEmpty(bodyStart)) bodyStart++;
    const found = bodyStart < close ? SUMMARY.exec(lineOf(state, bodyStart)) : null;
    if (found !== null) {
      summary = found[1];
      bodyStart++;
    } else bodyStart = startLine + 1;
  }
  const open = state.push('details_open', 'details', 1);
  open.meta = { open: match[1] !== undefined };
  open.map = [startLine, close + 1];
  open.block = true;
  const title = state.push('inline', '', 0);
  title.content = (summary ?? '').trim();
  title.map = [startLine, startLine + 1];
  title.children = [];
  tokenizeInside(state, bodyStart, close);
  state.push('details_close', 'details', -1);
  state.line = close + 1;
  return true;
}

export function gitbookSyntax(md: MarkdownIt): void {
  const alt = ['paragraph', 'reference', 'blockquote', 'list'];
  md.block.ruler.before('fence', 'gitbook_tag', templateTag, { alt });
  md.block.ruler.before('fence', 'gitbook_details', details, { alt });
}
