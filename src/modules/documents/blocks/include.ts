import { html, type SafeHtml } from '../../../html/safe-html.js';
import { type PageLinks, reusableContentOf } from '../links.js';
import { type Block, voidBlock } from '../model.js';
import {
  attr,
  defined,
  type HtmlContext,
  type MarkdownContext,
  pathOf,
  relativeTo,
} from './context.js';

/**
 * `{% include "../.gitbook/includes/setup.md" %}` (the path relative to the including file) or
 * `{% include "https://app.gitbook.com/s/<space>/~/reusable/<id>/" %}` (another space's):
 * GitBook's `reusable-content` block. An include Livery does not know is nothing in the document
 * (the stored Markdown keeps it). On the published site, the reusable content's document is
 * rendered in its place, at most three includes deep, never inside itself, and at most
 * MAX_INCLUDES times in a page.
 */
const OTHER_SPACE = /^https:\/\/app\.gitbook\.com\/s\/([^/]+)\/~\/reusable\/([^/]+)\/?$/;

/** The quoted path of `{% include "…" %}` (or `src="…"`). */
function targetOf(source: string, attributes: Record<string, string>): string | undefined {
  return /^\s*"([^"]*)"/.exec(source)?.[1] ?? /^\s*'([^']*)'/.exec(source)?.[1] ?? attributes.src;
}

export function includeOf(
  source: string,
  attributes: Record<string, string>,
  links: PageLinks,
): Block[] {
  const target = targetOf(source, attributes)?.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  if (target === undefined) return [];
  const other = OTHER_SPACE.exec(target);
  if (other !== null) {
    const [, space = '', reusableContent = ''] = other;
    return [
      voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent, space } }),
    ];
  }
  const id = reusableContentOf(target, links);
  return id === undefined
    ? []
    : [voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: id } })];
}

export const MAX_INCLUDE_DEPTH = 3;
/**
 * Includes rendered in one page at most: three levels of a hundred includes each would otherwise
 * make a page of a million copies.
 */
export const MAX_INCLUDES = 200;

export function includeHtml(node: Block, c: HtmlContext): SafeHtml {
  const ref = node.data.ref as { reusableContent?: string; space?: string } | undefined;
  const id = ref?.reusableContent;
  if (id === undefined || ref?.space !== undefined) return html``;
  if (c.including.includes(id) || c.including.length >= MAX_INCLUDE_DEPTH) return html``;
  if (c.includesLeft.count <= 0) return html``;
  const doc = c.options.reusableContent?.(id);
  if (doc === undefined) return html``;
  c.includesLeft.count--;
  c.including.push(id);
  try {
    return html`<div class="reusable-content">\n${c.blocks(doc.nodes)}</div>\n`;
  } finally {
    c.including.pop();
  }
}

export function includeMarkdown(node: Block, c: MarkdownContext): string {
  const ref = defined((node.data.ref ?? {}) as Record<string, unknown>) as {
    reusableContent?: string;
    space?: string;
  };
  const id = ref.reusableContent ?? '';
  if (ref.space !== undefined) {
    return `{% include "https://app.gitbook.com/s/${attr(ref.space)}/~/reusable/${attr(id)}/" %}`;
  }
  const path = pathOf(id, c.links.includes);
  return `{% include "${attr(path === undefined ? id : relativeTo(c.links.file, path))}" %}`;
}
