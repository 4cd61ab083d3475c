import { html, type SafeHtml } from '../../../html/safe-html.js';
import { type Block, block } from '../model.js';
import { attrs, booleanAttr, defined, type HtmlContext, type MarkdownContext } from './context.js';

/**
 * `{% prompt description="…" icon="…" openInAIProviders="true" defaultExpanded="full" %}` around
 * one code block: GitBook's `prompt` (its one code block the prompt's text). Without a code block
 * it is its content; blocks after the first code block follow it. On the published site, the
 * description and the prompt's code, folded unless `defaultExpanded` is `full` or `partial`.
 */
const EXPANDED = ['hidden', 'partial', 'full'];

export function promptOf(attributes: Record<string, string>, inner: Block[]): Block[] {
  const at = inner.findIndex((node) => node.type === 'code');
  const code = inner[at];
  if (code === undefined) return inner;
  const expanded = attributes.defaultExpanded;
  const data = defined({
    description: attributes.description ?? '',
    icon: attributes.icon === '' ? undefined : attributes.icon?.slice(0, 50),
    openInAIProviders: booleanAttr(attributes.openInAIProviders),
    defaultExpanded: EXPANDED.includes(expanded ?? '') ? expanded : undefined,
  });
  return [...inner.slice(0, at), block('prompt', [code], data), ...inner.slice(at + 1)];
}

export function promptHtml(node: Block, c: HtmlContext): SafeHtml {
  const description = String(node.data.description ?? '');
  const open = node.data.defaultExpanded === 'full' || node.data.defaultExpanded === 'partial';
  return html`<details class="prompt"${open ? html` open` : ''}><summary>${description === '' ? 'Prompt' : description}</summary>\n${c.blocks(node.nodes)}</details>\n`;
}

export function promptMarkdown(node: Block, c: MarkdownContext): string {
  const d = node.data;
  const open = attrs([
    ['description', String(d.description ?? '')],
    ['icon', typeof d.icon === 'string' ? d.icon : undefined],
    [
      'openInAIProviders',
      typeof d.openInAIProviders === 'boolean' ? d.openInAIProviders : undefined,
    ],
    ['defaultExpanded', typeof d.defaultExpanded === 'string' ? d.defaultExpanded : undefined],
  ]);
  return `{% prompt${open} %}\n${c.blocks(node.nodes)}\n{% endprompt %}`;
}
