import { codeTagMarkdown } from './blocks/code.js';
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
    // Neighbouring lists of one kind would merge: the second takes the other marker.
    const list =
      node.type === 'list-ordered' ? 'ordered' : node.type.startsWith('list-') ? 'bullet' : '';
    const used = list === '' ? '' : previous?.type === list ? previous.marker : '';
    const marker = list === 'ordered' ? (used === '.' ? ')' : '.') : used === '-' ? '*' : '-';
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
      const level = Number(node.type.slice(-1));
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
      return '---';
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

function list(node: Block, links: PageLinks, marker: string): string {
  const items = (node.nodes ?? []) as Block[];
  const start = node.type === 'list-ordered' ? Number(node.data.start ?? 1) : 1;
  const loose = items.some((item) => (item.nodes ?? []).length > 1);
  return items
    .map((item, i) => {
      const bullet = node.type === 'list-ordered' ? `${start + i}${marker} ` : `${marker} `;
      const box = node.type === 'list-tasks' ? (item.data.checked === true ? '[x] ' : '[ ] ') : '';
      const body = blocks(item.nodes, links);
      const pad = ' '.repeat(bullet.length);
      const [first = '', ...rest] = body.split('\n');
      return [
        `${bullet}${box}${first}`,
        ...rest.map((line) => (line === '' ? '' : pad + line)),
      ].join('\n');
    })
    .join(loose ? '\n\n' : '\n');
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

function tableMarkdown(node: Block, links: PageLinks): string {
  const { columns, rows } = tableCells(node);
  const cell = (nodes: Inline[]) => inlineMarkdown(nodes, links, 'cell') || ' ';
  const header = columns.map((c) => escapeText(c.title, 'cell') || ' ');
  const rule = columns.map((c) =>
    c.align === 'center' ? ':-:' : c.align === 'right' ? '--:' : '---',
  );
  return [header, rule, ...rows.map((row) => row.map(cell))]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}

/** `"` in a template tag's attribute. */
const attr = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

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
  let escaped = value.replace(/([\\`*_[\]<>~|{}&!#$])/g, '\\$1');
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

const MARK_SYNTAX: Record<string, string> = {
  bold: '**',
  italic: '*',
  strikethrough: '~~',
};

/** A mark as a key: its type, and a colour mark's colours. */
const markKey = (m: Mark) =>
  m.type === 'color'
    ? `color ${m.data?.text ?? 'default'} ${m.data?.background ?? 'default'}`
    : m.type;
const opening = (key: string) => {
  if (!key.startsWith('color ')) return MARK_SYNTAX[key] ?? '';
  const [, text = 'default', background = 'default'] = key.split(' ');
  return colorMarkOpen({ object: 'mark', type: 'color', data: { text, background } });
};
const closing = (key: string) => (key.startsWith('color ') ? '</mark>' : (MARK_SYNTAX[key] ?? ''));

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
      line.replace(/^(\s*)([-+=]|\d+(?=[.)]))/, (_, space: string, start: string) =>
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
    while (open.some((m) => !keep.includes(m))) out += closing(open.pop() as string);
  };
  for (const leaf of leaves) {
    const isCode = leaf.marks.some((m) => m.type === 'code');
    const blank = !isCode && leaf.text.trim() === '';
    // Marks on spaces alone cannot be written: they are left out.
    const own = leaf.marks.filter((m) => m.type !== 'code').map(markKey);
    const marks = blank ? own.filter((t) => open.includes(t)) : own;
    close(marks);
    const body = isCode ? codeSpan(leaf.text, where) : escapeText(leaf.text, where);
    const adds = marks.filter((m) => !open.includes(m));
    const lead = adds.length > 0 ? body.slice(0, body.length - body.trimStart().length) : '';
    write(lead);
    if (adds.length > 0) {
      out += trail;
      trail = '';
    }
    for (const m of adds) {
      out += opening(m);
      open.push(m);
    }
    write(body.slice(lead.length));
  }
  close([]);
  return out + trail;
}

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
