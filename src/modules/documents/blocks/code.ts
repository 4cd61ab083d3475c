import { html, type SafeHtml } from '../../../html/safe-html.js';
import type { Block } from '../model.js';
import { attrs, booleanAttr, defined } from './context.js';

/**
 * `{% code title="index.js" overflow="wrap" lineNumbers="true" fullWidth="false"
 * expandable="true" %}` around a fenced block: the attributes of GitBook's `code` block. A fenced
 * ```` ```mermaid ```` block is code of syntax `mermaid`, shown on the published site as its
 * source in `<pre class="mermaid">` (no diagram library).
 */
export function codeTagOf(attributes: Record<string, string>, inner: Block[]): Block[] {
  const overflow = attributes.overflow;
  const collapsed = Number(attributes.collapsedLineCount);
  const extra = defined({
    title: attributes.title === '' ? undefined : attributes.title,
    overflow: overflow === 'wrap' || overflow === 'scroll' ? overflow : undefined,
    lineNumbers: booleanAttr(attributes.lineNumbers),
    fullWidth: booleanAttr(attributes.fullWidth),
    expandable: booleanAttr(attributes.expandable),
    collapsedLineCount: Number.isInteger(collapsed) && collapsed >= 1 ? collapsed : undefined,
  });
  return inner.map((node) =>
    node.type === 'code' ? { ...node, data: { ...node.data, ...extra } } : node,
  );
}

/** The `{% code … %}` opening tag of a code block, or undefined when it needs none. */
export function codeTagMarkdown(data: Record<string, unknown>): string | undefined {
  const pick = <T>(value: unknown, type: string) =>
    typeof value === type ? (value as T) : undefined;
  const title = pick<string>(data.title, 'string');
  const open = attrs([
    ['title', title === '' ? undefined : title],
    ['overflow', pick<string>(data.overflow, 'string')],
    ['lineNumbers', pick<boolean>(data.lineNumbers, 'boolean')],
    ['fullWidth', pick<boolean>(data.fullWidth, 'boolean')],
    ['expandable', pick<boolean>(data.expandable, 'boolean')],
    ['collapsedLineCount', pick<number>(data.collapsedLineCount, 'number')],
  ]);
  return open === '' ? undefined : `{% code${open} %}`;
}

/** Classes of a code block's figure for its attributes (site.css). */
export function codeClasses(data: Record<string, unknown>): string {
  return [
    data.overflow === 'wrap' ? 'code-wrap' : '',
    data.lineNumbers === true ? 'line-numbers' : '',
    data.fullWidth === true ? 'full-width' : '',
  ]
    .filter((name) => name !== '')
    .join(' ');
}

/** A mermaid diagram's source, for a reader (and a diagram script, if a site adds one). */
export const mermaidHtml = (code: string): SafeHtml => html`<pre class="mermaid">${code}</pre>\n`;

/** Plain code as lines, each its own element, when its lines are numbered (site.css counts them). */
export function numberedLines(code: string): SafeHtml[] {
  return code
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => html`<span class="line">${line}</span>\n`);
}
