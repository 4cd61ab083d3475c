import type { SafeHtml, SafeUrl } from '../../../html/safe-html.js';
import { type PageLinks, resolveRepoPath } from '../links.js';
import type { Block, Inline, Ref } from '../model.js';
import type { HtmlOptions } from '../to-html.js';

/**
 * What a block of blocks/ needs from the shared converters (to-html.ts, to-markdown.ts), so
 * that each Liquid-tag block keeps its parsing, HTML and Markdown in one file of its own.
 */
export interface HtmlContext {
  options: HtmlOptions;
  /** Reusable contents being rendered, outermost first (an include inside an include…). */
  including: string[];
  /** Includes a page may still render: nested includes cannot multiply a page without end. */
  includesLeft: { count: number };
  blocks(nodes: readonly (Block | Inline)[] | undefined): SafeHtml[];
  inlines(nodes: readonly Inline[] | undefined): SafeHtml[];
  /** Where a reference leads on the site, or undefined. */
  href(ref: Ref): SafeUrl | undefined;
  /** `rel` (and `target`) of a link to that address. */
  external(href: SafeUrl): SafeHtml | '';
}

export interface MarkdownContext {
  links: PageLinks;
  blocks(nodes: readonly (Block | Inline)[] | undefined): string;
  inline(nodes: readonly Inline[], where: 'block' | 'line' | 'cell'): string;
}

/**
 * `"` in a template tag's attribute, and `&` where it would read as one of the two entities
 * gitbook-syntax.ts `tagAttributes` decodes: GitBook writes a URL's `&` as it is (`?a=1&b=2`).
 */
export const attr = (value: string) =>
  value.replace(/&(?=amp;|quot;)/g, '&amp;').replaceAll('"', '&quot;');

/** `name="value"` pairs of the defined ones, each preceded by a space. */
export function attrs(pairs: [string, string | number | boolean | undefined][]): string {
  return pairs
    .filter((pair): pair is [string, string | number | boolean] => pair[1] !== undefined)
    .map(([name, value]) => ` ${name}="${attr(String(value))}"`)
    .join('');
}

/** `"true"`/`"false"` as a boolean; anything else (or nothing) undefined. */
export function booleanAttr(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const lower = value.trim().toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** Data without its undefined entries (the model's canonical shape has no undefined). */
export function defined(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (value !== undefined) out[key] = value;
  return out;
}

/** A container's blocks, at least an empty paragraph (GitBook's containers are never empty). */
export const orEmpty = (nodes: Block[]): Block[] =>
  nodes.length === 0
    ? [{ object: 'block', type: 'paragraph', data: {}, nodes: [emptyText()] }]
    : nodes;

const emptyText = (): Inline => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: '', marks: [] }],
});

/**
 * Blocks of a group tag (`{% stepper %}`, `{% columns %}`, `{% updates %}`) as its items: the
 * items made by their own tags, anything written between them joined to the item before it (or
 * to a first item of its own), so that no content is lost.
 */
export function groupItems(inner: Block[], type: string, make: (nodes: Block[]) => Block): Block[] {
  const items: Block[] = [];
  let loose: Block[] = [];
  for (const node of inner) {
    if (node.type === type) {
      if (loose.length > 0 && items.length === 0) items.push(make(loose));
      loose = [];
      items.push(node);
    } else {
      const last = items.at(-1);
      // Pushed, not copied: thousands of loose blocks would copy the item's blocks as often.
      if (last === undefined) loose.push(node);
      else if (last.nodes === undefined) last.nodes = [node];
      else last.nodes.push(node);
    }
  }
  if (loose.length > 0) items.push(make(loose));
  return items;
}

/** Ids → paths of a path → id map, made once per map (a page may have many files). */
const inverses = new WeakMap<ReadonlyMap<string, string>, Map<string, string>>();

export function pathOf(
  id: string,
  map: ReadonlyMap<string, string> | undefined,
): string | undefined {
  if (map === undefined) return undefined;
  let inverse = inverses.get(map);
  if (inverse === undefined) {
    inverse = new Map();
    for (const [path, value] of map) if (!inverse.has(value)) inverse.set(value, path);
    inverses.set(map, inverse);
  }
  return inverse.get(id);
}

/**
 * A repository path (from the space's root) as written in the page's file `from`: relative to
 * its folder (`../.gitbook/assets/a.pdf`), encoded as GitBook writes it (spaces kept).
 */
export function relativeTo(from: string | undefined, target: string): string {
  if (from === undefined) return target;
  const folder = from.split('/').slice(0, -1);
  const to = target.split('/');
  let common = 0;
  while (common < folder.length && common < to.length - 1 && folder[common] === to[common]) {
    common++;
  }
  const path = [...folder.slice(common).map(() => '..'), ...to.slice(common)].join('/');
  // Read back the same way (links.ts resolveRepoPath); a path it cannot read stays absolute.
  return resolveRepoPath(from, path) === target ? path : `/${target}`;
}
