import { codeTagMarkdown } from './blocks/code.js';
import { type MarkdownContext, tagBlockMarkdown } from './blocks/index.js';
import { mathMarkdown } from './blocks/math.js';
import { hrefOf, type PageLinks } from './links.js';
import type { Block, Inline, InlineImage, JsonDocument, Leaf, MarkType, Ref } from './model.js';
import { plainText } from './model.js';
import { tableCells } from './table-cells.js';

/**
 * A document as GitBook-flavoured Markdown, what markdownToDocument reads back into the same
 * document (docs/content.md): blocks separated by blank lines, GitBook's template tags for
 * hints, tabs, code titles, content references and embeds, `<details>` for expandables.
 */
export function documentToMarkdown(doc: JsonDocument, links: PageLinks = {}): string {
  const out = blocks(doc.nodes, links);
  return out === '' ? '' : `${out}\n`;
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
      return `${'#'.repeat(level)} ${inlineMarkdown(node.nodes as Inline[], links, 'line')}`;
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
      return tableMarkdown(node, links);
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
      return `{% content-ref url="${attr(href)}" %}\n[${escapeText(href, 'line')}](${destination(href)})\n{% endcontent-ref %}`;
    }
    case 'embed':
      return `{% embed url="${attr(String(data.url ?? ''))}"${data.fullWidth === true ? ' fullWidth="true"' : ''} %}`;
    case 'images':
      return (node.nodes ?? [])
        .map((image) => {
          const d = (image as Block).data as InlineImage['data'];
          const caption = plainText((image as Block).fragments?.[0]?.nodes);
          return imageMarkdown(d.ref.url, d.alt ?? '', caption);
        })
        .join(' ');
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

type Where = 'block' | 'line' | 'cell';

/**
 * Characters that would be read as Markdown: backslash-escaped (`&` too, for entities), and at
 * the start of a line what would start a block.
 */
function escapeText(value: string, where: Where): string {
  let escaped = value.replace(/([\\`*_[\]<>~|{}&!#$])/g, '\\$1');
  if (where !== 'block') escaped = escaped.replaceAll('\n', ' ');
  return escaped;
}

const MARK_SYNTAX: Record<Exclude<MarkType, 'code'>, string> = {
  bold: '**',
  italic: '*',
  strikethrough: '~~',
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
    else if (node.type === 'inline-image') {
      out.push(imageMarkdown(node.data.ref.url, node.data.alt ?? '', node.data.caption ?? ''));
    } else {
      const inner = inlineMarkdown(node.nodes, links, where);
      out.push(`[${inner}](${destination(hrefOf(node.data.ref, links))})`);
    }
  }
  const joined = out.join('');
  return where === 'block' ? lineStarts(joined) : joined;
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
  const open: MarkType[] = [];
  const close = (keep: MarkType[]) => {
    // A closing delimiter may not follow a space: the spaces go after it (`**a** `).
    while (open.some((m) => !keep.includes(m))) out += MARK_SYNTAX[open.pop() as 'bold'];
  };
  for (const leaf of leaves) {
    const isCode = leaf.marks.some((m) => m.type === 'code');
    const blank = !isCode && leaf.text.trim() === '';
    // Marks on spaces alone cannot be written: they are left out.
    const own = leaf.marks.map((m) => m.type).filter((t) => t !== 'code');
    const marks = blank ? own.filter((t) => open.includes(t)) : own;
    close(marks);
    const body = isCode ? codeSpan(leaf.text, where) : escapeText(leaf.text, where);
    const adds = marks.filter((m) => !open.includes(m)) as Exclude<MarkType, 'code'>[];
    const lead = adds.length > 0 ? body.slice(0, body.length - body.trimStart().length) : '';
    write(lead);
    if (adds.length > 0) {
      out += trail;
      trail = '';
    }
    for (const m of adds) {
      out += MARK_SYNTAX[m];
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

/** A code span; in a table cell `|` is `\|` even there (the table is split first). */
function codeSpan(value: string, where: Where): string {
  const ticks = '`'.repeat(longestRun(value, '`') + 1);
  const pad = value.startsWith('`') || value.endsWith('`') || /^ .* $/.test(value) ? ' ' : '';
  const body = value.replaceAll('\n', ' ');
  return `${ticks}${pad}${where === 'cell' ? body.replaceAll('|', '\\|') : body}${pad}${ticks}`;
}
