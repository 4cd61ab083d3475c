import { isAllowedUrl } from '../../html/safe-url.js';
import type { Block, Inline, Leaf } from '../documents/model.js';

/**
 * A paragraph's inlines as runs of text in one font, color and link each: what pdfkit writes
 * with `continued` text. Pure (test/unit/pdf-inlines.test.ts).
 *
 * Links: to a page of the PDF, an internal jump (`goTo` its destination); to a heading, a jump
 * to that heading; to an address of the one allow-list of schemes (html/safe-url.ts), an
 * external link; anything else (a page left out of the PDF, a relative address) stays text.
 */
export type RunFont = 'body' | 'bold' | 'mono' | 'monoBold';

export interface Run {
  text: string;
  font: RunFont;
  color?: string;
  link?: string;
  goTo?: string;
  strike?: boolean;
  underline?: boolean;
}

export interface LinkContext {
  /** The page being written: an anchor without a page is one of its headings. */
  pageId: string;
  /** The pages the PDF holds. */
  printed: ReadonlySet<string>;
  linkColor: string;
  /** A revision file's address, for links to files. */
  fileUrl?: ((fileId: string) => string | undefined) | undefined;
  /** A page's title, for page references (cards) without text of their own. */
  pageTitle?: ((pageId: string) => string | undefined) | undefined;
}

/** The named destination of a page, and of a heading of a page. */
export const pageDestination = (pageId: string) => `p:${pageId}`;
export const headingDestination = (pageId: string, anchor: string) => `a:${pageId}:${anchor}`;

export function runsOf(nodes: readonly (Block | Inline)[] | undefined, ctx: LinkContext): Run[] {
  const runs: Run[] = [];
  const visit = (list: readonly (Block | Inline)[] | undefined, base: Partial<Run>) => {
    for (const node of list ?? []) {
      if (node.object === 'text') {
        for (const leaf of node.leaves) push(runs, leafRun(leaf, base));
      } else if (node.object === 'inline') {
        switch (node.type) {
          case 'link': {
            const target = linkTarget(node.data.ref, ctx);
            visit(node.nodes, target === undefined ? base : { ...base, ...target });
            break;
          }
          case 'annotation':
            visit(node.nodes, base);
            break;
          case 'inline-math':
            push(runs, { ...base, text: String(node.data.formula), font: 'mono' });
            break;
          case 'inline-image': {
            const alt = node.data.alt;
            if (alt !== undefined && alt !== '') push(runs, { ...base, text: alt, font: 'body' });
            break;
          }
          default: {
            // Emoji, icons, mentions, expressions, buttons: their text where they have one.
            const data = node.data as Record<string, unknown>;
            const text = [data.label, data.code, data.expression].find(
              (value): value is string => typeof value === 'string',
            );
            if (text !== undefined && node.type !== 'emoji' && node.type !== 'icon') {
              push(runs, { ...base, text, font: base.font ?? 'body' });
            }
          }
        }
      } else visit(node.nodes, base);
    }
  };
  visit(nodes, {});
  return runs;
}

function leafRun(leaf: Leaf, base: Partial<Run>): Run {
  const has = (type: string) => leaf.marks.some((mark) => mark.type === type);
  const bold = has('bold');
  const font: RunFont = has('code') ? (bold ? 'monoBold' : 'mono') : bold ? 'bold' : 'body';
  return {
    ...base,
    text: leaf.text.replaceAll('\t', '    '),
    font,
    ...(has('strikethrough') ? { strike: true } : {}),
  };
}

function linkTarget(
  ref: { kind: string; url?: string; page?: string; anchor?: string; file?: string },
  ctx: LinkContext,
): Partial<Run> | undefined {
  const style = { color: ctx.linkColor, underline: true };
  if (ref.kind === 'page' && ref.page !== undefined && ctx.printed.has(ref.page)) {
    return { ...style, goTo: pageDestination(ref.page) };
  }
  if (ref.kind === 'anchor' && ref.anchor !== undefined) {
    const page = ref.page ?? ctx.pageId;
    if (ctx.printed.has(page)) return { ...style, goTo: headingDestination(page, ref.anchor) };
    return undefined;
  }
  const url =
    ref.kind === 'url' ? ref.url : ref.kind === 'file' ? ctx.fileUrl?.(ref.file ?? '') : undefined;
  if (url !== undefined && /^[a-z][a-z0-9+.-]*:/i.test(url) && isAllowedUrl(url)) {
    return { ...style, link: url };
  }
  return undefined;
}

/** Adds a run, merged into the previous one when they look the same (fewer text calls). */
function push(runs: Run[], run: Run) {
  if (run.text === '') return;
  const last = runs.at(-1);
  if (
    last !== undefined &&
    last.font === run.font &&
    last.color === run.color &&
    last.link === run.link &&
    last.goTo === run.goTo &&
    last.strike === run.strike &&
    last.underline === run.underline
  ) {
    last.text += run.text;
  } else runs.push({ ...run });
}
