import MarkdownIt from 'markdown-it';
import { html, type SafeHtml } from '../../../html/safe-html.js';
import { attrUrl } from '../../../html/safe-url.js';
import { fileRefOf, type PageLinks } from '../links.js';
import { type Block, link, paragraph, text, voidBlock } from '../model.js';
import { attr, type HtmlContext, type MarkdownContext, pathOf, relativeTo } from './context.js';

/**
 * `{% file src=".gitbook/assets/x.pdf" %}Caption{% endfile %}` (the end tag is optional):
 * GitBook's `file` block, a reference to a file of the revision. 0.202's block has no caption,
 * so the caption is left to the stored Markdown. A source that is no file of the revision (a URL,
 * a missing file) cannot be a `file` block: it is a link to it, with the caption as its text.
 * On the published site, a download tile: the file's name and size.
 */
export function fileOf(attributes: Record<string, string>, inner: Block[], links: PageLinks) {
  const src = attributes.src;
  if (src === undefined) return inner;
  const ref = fileRefOf(src, links);
  if (ref.kind === 'file') return [voidBlock('file', { ref })];
  const caption = inner.length === 1 && inner[0]?.type === 'paragraph' ? inner[0] : undefined;
  const label = caption?.nodes ?? [text(src.split('/').pop() ?? src)];
  // Encoded as a Markdown link's target is (`a b.pdf` → `a%20b.pdf`): it reads back the same.
  const url = { kind: 'url' as const, url: markdownLinks.normalizeLink(src) };
  return [
    paragraph([link(url, label.filter((n) => n.object === 'text') as ReturnType<typeof text>[])]),
    ...(caption === undefined ? inner : []),
  ];
}

const markdownLinks = new MarkdownIt();

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `1536` → `1.5 KB`. */
export function fileSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${UNITS[unit]}`;
}

export function fileHtml(node: Block, c: HtmlContext): SafeHtml {
  const ref = node.data.ref as { kind: string; file?: string } | undefined;
  const file = ref?.file === undefined ? undefined : c.options.file?.(ref.file);
  if (file === undefined) return html`<p class="file-download file-missing">File</p>\n`;
  const href = attrUrl(file.url);
  const body = html`<span class="file-name">${file.name}</span> <span class="file-size">${fileSize(file.size)}</span>`;
  return href === undefined
    ? html`<p class="file-download">${body}</p>\n`
    : html`<p><a class="file-download" href="${href}" download>${body}</a></p>\n`;
}

export function fileMarkdown(node: Block, c: MarkdownContext): string {
  const ref = node.data.ref as { file?: string } | undefined;
  const id = ref?.file ?? '';
  const path = pathOf(id, c.links.files);
  const src = path === undefined ? id : relativeTo(c.links.file, path);
  return `{% file src="${attr(src)}" %}`;
}
