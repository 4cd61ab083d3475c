import { codeTagMarkdown } from './blocks/code.js';
import { attr } from './blocks/context.js';
import { emojiCode } from './blocks/emoji.js';
import { customAnchorMarkdown } from './blocks/heading-anchor.js';
import { htmlTableMarkdown, isPipeTable } from './blocks/html-table.js';
import { imagesMarkdown, imgMarkdown, srcOf } from './blocks/images.js';
import { type MarkdownContext, tagBlockMarkdown } from './blocks/index.js';
import { colorMarkOpen, inlineNodeMarkdown } from './blocks/inline-nodes.js';
import { mathMarkdown } from './blocks/math.js';
import { hrefOf, type PageLinks, refLinkText } from './links.js';
import type { Block, Inline, InlineImage, JsonDocument, Leaf, Mark, Ref } from './model.js';
import { plainText } from './model.js';
import { tableCells } from './table-cells.js';

/**
 * A document as GitBook-flavoured Markdown, what markdownToDocument reads back into the same
 * document (docs/content.md): blocks separated by blank lines, GitBook's template tags for
 * hints, tabs, code titles, content references and embeds, `<details>` for expandables.
 */
export function documentToMarkdown(doc: JsonDocument, links: PageLinks = {}): string {
  const outer = footnotes;
  footnotes = [];
  try {
    const body = blocks(doc.nodes, links);
    // Footnotes' notes (annotations) after the page: `[^1]: note`, continued four spaces in.
    const notes = footnotes.map(
      (note, i) =>
        `[^${i + 1}]: ${note
          .split('\n')
          .map((line, j) => (j === 0 || line === '' ? line : `    ${line}`))
          .join('\n')}`,
    );
    const out = [body, ...notes].filter((part) => part !== '').join('\n\n');
    return out === '' ? '' : `${out}\n`;
  } finally {
    footnotes = outer;
  }
}

/** The notes of the annotations written so far in the document being written. */
let footnotes: string[] | undefined;

/**
 * A link's destination. A link to a file of the revision (`[report.pdf](../.gitbook/assets/
 * report.pdf)` reads as `{kind: "file"}`) is written as the file's path from the page's file, as
 * images are; hrefOf has no path for files ('' lost the link's target on the way back).
 */
function linkHref(ref: Ref, links: PageLinks): string {
  if (ref.kind !== 'file') return hrefOf(ref, links);
  const path = srcOf(ref, links);
  return path === ref.file ? hrefOf(ref, links) : path;
}

function blocks(nodes: readonly (Block | Inline)[] | undefined, links: PageLinks): string {
  const parts: string[] = [];
  let previous: { type: string; marker: string } | undefined;
  for (const node of nodes ?? []) {
    if (node.object !== 'block') continue;
    // GitBook's bullet is `*`. Neighbouring lists of one kind would merge: the second takes the
    // other marker (`-`, or `)` after `.`).
    const list =
      node.type === 'list-ordered' ? 'ordered' : node.type.startsWith('list-') ? 'bullet' : '';
    const used = list === '' ? '' : previous?.type === list ? previous.marker : '';
    const marker = list === 'ordered' ? (used === '.' ? ')' : '.') : used === '*' ? '-' : '*';
    parts.push(blockMarkdown(node, links, marker));
    previous = list === '' ? undefined : { type: list, marker };
  }
  return parts.filter((part) => part !== '').join('\n\n');
}

function blockMarkdown(node: Block, links: PageLinks, marker: string): string {
  const data = node.data;
  switch (node.type) {
    case 'paragraph':
      // An empty paragraph has no Markdown: a container left empty gets one back when read.
      return inlineMarkdown(node.nodes as Inline[], links, 'block');
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      // In a repository's file, one level below the page's `# Title` (from-markdown.ts).
      const level = Number(node.type.slice(-1)) + (links.file === undefined ? 0 : 1);
      return `${'#'.repeat(level)} ${inlineMarkdown(node.nodes as Inline[], links, 'line')}${customAnchorMarkdown(node)}`;
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return list(node, links, marker);
    case 'blockquote':
      return blocks(node.nodes, links)
        .split('\n')
        .map((line) => (line === '' ? '>' : `> ${line}`))
        .join('\n');
    case 'hint': {
      const icon = typeof data.icon === 'string' ? ` icon="${attr(data.icon)}"` : '';
      return `{% hint style="${attr(String(data.style ?? 'info'))}"${icon} %}\n${blocks(node.nodes, links)}\n{% endhint %}`;
    }
    case 'code':
      return code(node);
    case 'divider':
      return '***';
    case 'table':
      return isPipeTable(node)
        ? tableMarkdown(node, links)
        : htmlTableMarkdown(node, links, (nodes) => inlineMarkdown(nodes, links, 'html'));
    case 'tabs':
      return `{% tabs %}\n${(node.nodes ?? [])
        .map(
          (tab) =>
            `{% tab title="${attr(String((tab as Block).data.title ?? ''))}"${typeof (tab as Block).data.icon === 'string' ? ` icon="${attr(String((tab as Block).data.icon))}"` : ''} %}\n${blocks((tab as Block).nodes, links)}\n{% endtab %}`,
        )
        .join('\n\n')}\n{% endtabs %}`;
    case 'expandable': {
      const title = node.fragments?.find((f) => f.fragment === 'expandable-title')?.nodes[0];
      const body = node.fragments?.find((f) => f.fragment === 'expandable-body')?.nodes ?? [];
      const open = data.defaultExpanded === true ? ' open' : '';
      return `<details${open}>\n\n<summary>${inlineMarkdown((title?.nodes ?? []) as Inline[], links, 'line')}</summary>\n\n${blocks(body, links)}\n\n</details>`;
    }
    case 'content-ref': {
      const href = hrefOf(data.ref as Ref, links);
      const text = refLinkText(data.ref as Ref, href);
      return `{% content-ref url="${attr(href)}" %}\n[${escapeText(text, 'line')}](${destination(href)})\n{% endcontent-ref %}`;
    }
    case 'embed':
      return `{% embed url="${attr(String(data.url ?? ''))}"${data.fullWidth === true ? ' fullWidth="true"' : ''} %}`;
    case 'images':
    case 'drawing':
      return imagesMarkdown(node, links, (nodes) => inlineMarkdown(nodes, links, 'html'));
    default:
      // blocks/ (stepper, columns, math…); anything else: its content.
      return tagBlockMarkdown(node, markdownContext(links)) ?? blocks(node.nodes, links);
  }
}

function markdownContext(links: PageLinks): MarkdownContext {
  return {
    links,
    blocks: (nodes) => blocks(nodes, links),
    inline: (nodes, where) => inlineMarkdown(nodes, links, where),
  };
}

/**
 * A list as GitBook writes it: items one line after another, never apart. An item of a paragraph
 * and its nested lists is tight too (`* one` then `  * nested`); an item holding any other block
 * after its first is spread, its blocks apart, and indented to the next multiple of four columns
 * (`*   one`, `1.  one`): remark's "mixed" indentation.
 */
function list(node: Block, links: PageLinks, marker: string): string {
  const items = (node.nodes ?? []) as Block[];
  const start = node.type === 'list-ordered' ? Number(node.data.start ?? 1) : 1;
  return items
    .map((item, i) => {
      const bullet = node.type === 'list-ordered' ? `${start + i}${marker}` : marker;
      const box = node.type === 'list-tasks' ? (item.data.checked === true ? '[x] ' : '[ ] ') : '';
      const spread = isSpread(item);
      const width = spread ? Math.ceil((bullet.length + 1) / 4) * 4 : bullet.length + 1;
      const body = itemBlocks(item, links, spread);
      const pad = ' '.repeat(width);
      const [first = '', ...rest] = body.split('\n');
      return [
        `${bullet.padEnd(width)}${box}${first}`,
        ...rest.map((line) => (line === '' ? '' : pad + line)),
      ].join('\n');
    })
    .join('\n');
}

const isList = (node: Block | Inline): node is Block =>
  node.object === 'block' && node.type.startsWith('list-');

/** A paragraph with something to write. */
const hasText = (node: Block | Inline | undefined) =>
  node?.object === 'block' &&
  node.type === 'paragraph' &&
  (node.nodes ?? []).some((n) => n.object !== 'text' || n.leaves.some((l) => l.text.trim() !== ''));

/**
 * A list that may follow a paragraph on its next line: one that can interrupt a paragraph (not an
 * ordered list starting elsewhere than at 1, nor one whose first item is empty).
 */
const interrupts = (node: Block | Inline) =>
  isList(node) &&
  (node.type !== 'list-ordered' || Number(node.data.start ?? 1) === 1) &&
  hasText((node.nodes?.[0] as Block | undefined)?.nodes?.[0]);

/** An item with more than a paragraph and the nested lists that follow it. */
function isSpread(item: Block): boolean {
  const [first, ...rest] = item.nodes ?? [];
  return rest.length > 0 && !(hasText(first) && rest.every(interrupts));
}

/** A tight item's nested lists follow its paragraph on the next line; a spread item's blocks are apart. */
function itemBlocks(item: Block, links: PageLinks, spread: boolean): string {
  const [first, ...lists] = item.nodes ?? [];
  if (spread || first === undefined || lists.length === 0) return blocks(item.nodes, links);
  return `${blocks([first], links)}\n${blocks(lists, links)}`;
}

function code(node: Block): string {
  const lines = (node.nodes ?? []).map((line) => plainText((line as Block).nodes));
  const body = lines.join('\n');
  const fence = '`'.repeat(Math.max(2, longestRun(body, '`')) + 1);
  const syntax = String(node.data.syntax ?? '');
  const fenced = `${fence}${syntax}\n${body}\n${fence}`;
  const open = codeTagMarkdown(node.data);
  return open === undefined ? fenced : `${open}\n${fenced}\n{% endcode %}`;
}

/**
 * A pipe table as GitBook writes it: each column padded to its widest cell (at least three), the
 * rule as wide (`| ---- | ----: | :--: |`), a cell aligned as its column (right: padded before;
 * centred: around, the odd space after).
 */
function tableMarkdown(node: Block, links: PageLinks): string {
  const { columns, rows } = tableCells(node);
  const cell = (nodes: Inline[]) => inlineMarkdown(nodes, links, 'cell');
  const header = columns.map((c) => escapeText(c.title, 'cell'));
  const body = rows.map((row) => row.map(cell));
  // A loop, not a spread into Math.max: a table of many rows would overflow the stack.
  const widths = columns.map(() => 3);
  for (const cells of [header, ...body]) {
    cells.forEach((text, i) => {
      widths[i] = Math.max(widths[i] ?? 3, text.length);
    });
  }
  const rule = columns.map((c, i) => ruleCell(c.align, widths[i] ?? 3));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((text, i) => padCell(text, widths[i] ?? 3, columns[i]?.align)).join(' | ')} |`;
  return [line(header), `| ${rule.join(' | ')} |`, ...body.map(line)].join('\n');
}

function ruleCell(align: string | undefined, width: number): string {
  if (align === 'center') return `:${'-'.repeat(width - 2)}:`;
  if (align === 'right') return `${'-'.repeat(width - 1)}:`;
  return '-'.repeat(width);
}

function padCell(text: string, width: number, align: string | undefined): string {
  const room = width - text.length;
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'center') {
    const before = Math.floor(room / 2);
    return ' '.repeat(before) + text + ' '.repeat(room - before);
  }
  return text + ' '.repeat(room);
}

function destination(url: string): string {
  return /[\s<>()]/.test(url) || url === '' ? `<${url.replace(/([<>\\])/g, '\\$1')}>` : url;
}

function imageMarkdown(url: string, alt: string, caption: string): string {
  const title = caption === '' ? '' : ` "${caption.replace(/(["\\])/g, '\\$1')}"`;
  return `![${escapeText(alt, 'line')}](${destination(url)}${title})`;
}

/** Where inline content goes: a paragraph, one line (a heading), a pipe table's cell, or HTML. */
type Where = 'block' | 'line' | 'cell' | 'html';

/**
 * Characters that would be read as Markdown: backslash-escaped (`&` too, for entities), and at
 * the start of a line what would start a block.
 */
function escapeText(value: string, where: Where): string {
  // A `|` is a cell's end in a table, and could start a table on a line of its own.
  const pipes = where === 'cell' || value.includes('\n');
  let escaped = value.replace(/[\\`*_[\]<>~|{}&!#$]/g, (char, at: number) =>
    (char === '|' ? pipes : needsEscape(value, char, at)) ? `\\${char}` : char,
  );
  // A line break in a cell or in HTML is GitBook's `<br>`; in a heading, a space.
  if (where === 'cell' || where === 'html') escaped = escaped.replaceAll('\n', '<br>');
  else if (where !== 'block') escaped = escaped.replaceAll('\n', ' ');
  // `:house:` written as text stays text.
  if (escaped.includes(':')) {
    escaped = escaped.replace(/:([a-z0-9_+-]{1,40})(?=:)/g, (whole, name: string) =>
      emojiCode(name) === undefined ? whole : `\\:${name}`,
    );
  }
  return escaped;
}

/**
 * Whether a character of text would be read as Markdown where it stands. GitBook escapes only
 * those (`$12`, `a & b`, `score > 0`, `#tag`, `Wow!`): `\\`, `` ` ``, `*`, `_`, `[`, `]`, `~`
 * always; the others beside what would make them syntax, and at the text's edges, where the
 * next inline's markup (a link's `[`, a formula's `$$`) could.
 */
function needsEscape(value: string, char: string, at: number): boolean {
  const before = at === 0 ? '\n' : value[at - 1];
  const next = value[at + 1];
  switch (char) {
    case '<':
      return next === undefined || /[A-Za-z/!?]/.test(next);
    case '>':
    case '#':
      // A quote or a heading at a line's start; a heading's closing `#`s at its end.
      return before === '\n' || (char === '#' && (next === undefined || next === '\n'));
    case '{':
      // A template tag `{% … %}`, an expression `{{ … }}`.
      return next === undefined || next === '%' || next === char || before === char;
    case '}':
      // Only where it closes one: `%}`, `}}`.
      return before === '%' || before === '}' || next === '}';
    case '_':
      // Inside a word (`CAP_SYS_ADMIN`) an underscore is no emphasis (CommonMark, GitBook).
      return !(WORD.test(before ?? '') && WORD.test(next ?? ''));
    case '&':
      return next === undefined || /^#?[A-Za-z0-9]+;/.test(value.slice(at + 1, at + 34));
    case '!':
      // Before a link's `[`, it would make an image: inlineMarkdown escapes it there.
      return false;
    case '$':
      return next === undefined || next === '$' || before === '$';
    default:
      return true;
  }
}

const WORD = /^[\p{L}\p{N}]$/u;

const MARK_SYNTAX: Record<string, string> = {
  bold: '**',
  italic: '*',
  strikethrough: '~~',
};

/** Marks in HTML (a caption, a card's cell), as GitBook writes them there. */
const MARK_TAGS: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 's',
};

/**
 * The order GitBook nests marks opened together, outermost first: a colour, then
 * `~~_**text**_~~`.
 */
const MARK_RANK = (key: string) =>
  key.startsWith('color ') ? 0 : ['strikethrough', 'italic', 'bold'].indexOf(key) + 1;

/** A mark as a key: its type, and a colour mark's colours. */
const markKey = (m: Mark) =>
  m.type === 'color'
    ? `color ${m.data?.text ?? 'default'} ${m.data?.background ?? 'default'}`
    : m.type;
const opening = (key: string, where: Where) => {
  if (where === 'html' && MARK_TAGS[key] !== undefined) return `<${MARK_TAGS[key]}>`;
  if (!key.startsWith('color ')) return MARK_SYNTAX[key] ?? '';
  const [, text = 'default', background = 'default'] = key.split(' ');
  return colorMarkOpen({ object: 'mark', type: 'color', data: { text, background } });
};
const closing = (key: string, where: Where) => {
  if (where === 'html' && MARK_TAGS[key] !== undefined) return `</${MARK_TAGS[key]}>`;
  return key.startsWith('color ') ? '</mark>' : (MARK_SYNTAX[key] ?? '');
};

/**
 * Inline content: marks opened and closed around runs of leaves (a mark spanning several leaves
 * is opened once), spaces at a run's edges kept outside its delimiters (`** a**` is no bold).
 */
export function inlineMarkdown(nodes: readonly Inline[], links: PageLinks, where: Where): string {
  const out: string[] = [];
  for (const node of nodes) {
    if (node.object === 'text') out.push(leavesMarkdown(node.leaves, where));
    else if (node.type === 'inline-math') out.push(mathMarkdown(node.data.formula));
    else if (node.type === 'inline-image') out.push(inlineImageMarkdown(node, links, where));
    else if (node.type === 'link') {
      const inner = inlineMarkdown(node.nodes, links, where);
      const href = linkHref(node.data.ref, links);
      // `!` then `[…](…)` would be an image.
      const before = out.at(-1);
      if (where !== 'html' && before?.endsWith('!'))
        out[out.length - 1] = `${before.slice(0, -1)}\\!`;
      out.push(
        where === 'html'
          ? `<a href="${href.replaceAll('&', '&#x26;').replaceAll('"', '&#x22;')}">${inner}</a>`
          : `[${inner}](${destination(href)})`,
      );
    } else if (node.type === 'annotation') {
      const inner = node.nodes.map((n) => leavesMarkdown(n.leaves, where)).join('');
      const body = blocks(node.fragments[0]?.nodes, links);
      if (footnotes === undefined) out.push(inner);
      else out.push(`${inner}[^${footnotes.push(body === '' ? ' ' : body)}]`);
    } else
      out.push(
        cellSafe(inlineNodeMarkdown(node, links, where === 'html', out.at(-1) ?? ''), where),
      );
  }
  // A space at either end would be trimmed when read: GitBook writes it `&#x20;`.
  let joined = out.join('');
  // Line breaks at the end of a paragraph: `<br>` (a `\` there would be text).
  const breaks = where === 'block' ? joined.length - joined.replace(/\n+$/, '').length : 0;
  joined = joined.slice(0, joined.length - breaks).replace(/^ | $/g, '&#x20;');
  return where === 'block' ? lineStarts(joined) + '<br>'.repeat(breaks) : joined;
}

/** HTML in a pipe table's cell: its `|` as an entity (the row is split on `|` before HTML is read). */
const cellSafe = (markup: string, where: Where) =>
  where === 'cell' ? markup.replaceAll('|', '&#x7C;') : markup;

/** An inline image: `![alt](src "caption")`, or GitBook's `<img>` for a size, a dark variant or HTML. */
function inlineImageMarkdown(node: InlineImage, links: PageLinks, where: Where): string {
  const data = node.data;
  // A URL with spaces or other characters Markdown would percent-encode keeps them in `<img>`.
  const raw =
    data.ref.kind === 'url' && /[^\x21-\x7e]/.test(data.ref.url) && data.caption === undefined;
  if (where === 'html' || raw || data.size !== undefined || data.refDark !== undefined) {
    return cellSafe(
      imgMarkdown(data, links, data.size === undefined ? '' : ` data-size="${data.size}"`),
      where,
    );
  }
  return imageMarkdown(srcOf(data.ref, links), data.alt ?? '', data.caption ?? '');
}

/** After a hard break, a line that would start a block (`- `, `1. `, `#`) is escaped. */
function lineStarts(value: string): string {
  return value
    .split('\n')
    .map((line) =>
      line.replace(/^(\s*)([-+=]|\d+(?=[.)](?:[ \t]|$)))/, (_, space: string, start: string) =>
        /^\d/.test(start) ? `${space}${start}\\` : `${space}\\${start}`,
      ),
    )
    .join('\\\n');
}

function leavesMarkdown(leaves: readonly Leaf[], where: Where): string {
  // What is written so far is `out` then `trail`, its trailing white space, kept apart: a
  // closing delimiter goes between the two. (Looking for the white space at the end of the
  // whole text at every delimiter was quadratic in a paragraph of `*a* *b* …`.)
  let out = '';
  let trail = '';
  const write = (text: string) => {
    const content = text.trimEnd();
    if (content === '') {
      trail += text;
      return;
    }
    out += trail + content;
    trail = text.slice(content.length);
  };
  const open: string[] = [];
  const close = (keep: string[]) => {
    // A closing delimiter may not follow a space: the spaces go after it (`**a** `).
    while (open.some((m) => !keep.includes(m))) {
      const key = open.pop() as string;
      if (key === 'italic' && where !== 'html') italics.push(out.length);
      out += closing(key, where);
    }
  };
  // Where each italic `*` was written, opening then closing: `_` where the text around allows.
  const italics: number[] = [];
  for (const leaf of leaves) {
    const isCode = leaf.marks.some((m) => m.type === 'code');
    const blank = !isCode && leaf.text.trim() === '';
    // Marks on spaces alone cannot be written: they are left out.
    const own = leaf.marks.filter((m) => m.type !== 'code').map(markKey);
    const marks = blank ? own.filter((t) => open.includes(t)) : own;
    close(marks);
    const body = isCode ? codeSpan(leaf.text, where) : escapeText(leaf.text, where);
    const adds = marks.filter((m) => !open.includes(m)).sort((a, b) => MARK_RANK(a) - MARK_RANK(b));
    const lead = adds.length > 0 ? body.slice(0, body.length - body.trimStart().length) : '';
    write(lead);
    if (adds.length > 0) {
      out += trail;
      trail = '';
    }
    for (const m of adds) {
      if (m === 'italic' && where !== 'html') italics.push(out.length);
      out += opening(m, where);
      open.push(m);
    }
    write(body.slice(lead.length));
  }
  close([]);
  return underscores(out + trail, italics);
}

/**
 * GitBook's italic is `_text_`. An `_` opens or closes only beside a space or punctuation (never
 * within a word, `a_b_c`), so a pair next to a letter or digit keeps `*`. Before the first
 * delimiter and after the last comes another inline's markup or nothing: both count as
 * punctuation.
 */
function underscores(text: string, italics: readonly number[]): string {
  if (italics.length === 0) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i + 1 < italics.length; i += 2) {
    const open = italics[i] as number;
    const close = italics[i + 1] as number;
    if (!flankable(text, open - 1, -1) || !flankable(text, close + 1, 1)) continue;
    out += `${text.slice(from, open)}_${text.slice(open + 1, close)}_`;
    from = close + 1;
  }
  return out + text.slice(from);
}

/** Whether the character at `at` (a surrogate pair read whole, `step` the way away from the
 * delimiter) is a space, punctuation or symbol as markdown-it reads them, or the text's edge. */
function flankable(text: string, at: number, step: -1 | 1): boolean {
  if (at < 0 || at >= text.length) return true;
  const unit = text.charCodeAt(at);
  const pair = step === -1 ? unit >= 0xdc00 && unit <= 0xdfff : unit >= 0xd800 && unit <= 0xdbff;
  const char = pair
    ? text.slice(step === -1 ? at - 1 : at, step === -1 ? at + 1 : at + 2)
    : text[at];
  return EDGE.test(char ?? '');
}

/** markdown-it's white space, and Unicode punctuation and symbols. */
const EDGE = /^(?:[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]|[\p{P}\p{S}])$/u;

/** The length of the longest run of `char` in `value` (a loop: a spread of every run's length
 * into `Math.max` overflows the stack on a long code block). */
function longestRun(value: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    run = value[i] === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A code span; in a table cell `|` is `\|` even there (the table is split first); in HTML `<code>`. */
function codeSpan(value: string, where: Where): string {
  if (where === 'html') {
    return `<code>${value.replaceAll('&', '&#x26;').replaceAll('<', '&#x3C;').replaceAll('\n', ' ')}</code>`;
  }
  const ticks = '`'.repeat(longestRun(value, '`') + 1);
  const pad = value.startsWith('`') || value.endsWith('`') || /^ .* $/.test(value) ? ' ' : '';
  const body = value.replaceAll('\n', ' ');
  return `${ticks}${pad}${where === 'cell' ? body.replaceAll('|', '\\|') : body}${pad}${ticks}`;
}
