import { html, type SafeHtml } from '../../../html/safe-html.js';
import { type Block, voidBlock } from '../model.js';
import { attr } from './context.js';

/**
 * `{% @marketo/form formId="4316" %}`, on one line: GitBook's `integration` block (the
 * integration, its block, the attributes as its props). Livery runs no integrations: the
 * published site shows a labelled placeholder with the props, never the raw tag.
 */
export const INTEGRATION = /^@([\w.-]+)\/([\w.-]+)$/;

export function integrationOf(
  name: string,
  attributes: Record<string, string>,
): Block[] | undefined {
  const match = INTEGRATION.exec(name);
  if (match === null) return undefined;
  const [, integration = '', blockName = ''] = match;
  return [voidBlock('integration', { integration, block: blockName, props: { ...attributes } })];
}

const propText = (value: unknown) =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

export function integrationHtml(node: Block): SafeHtml {
  const { integration, block, props } = node.data as {
    integration?: string;
    block?: string;
    props?: Record<string, unknown>;
  };
  const entries = Object.entries(props ?? {}).map(
    ([name, value]) => html`<dt>${name}</dt><dd>${propText(value)}</dd>`,
  );
  return html`<div class="integration-block" role="note"><p class="integration-name">${integration ?? ''} · ${block ?? ''}</p>${entries.length === 0 ? '' : html`<dl>${entries}</dl>`}</div>\n`;
}

export function integrationMarkdown(node: Block): string {
  const { integration, block, props } = node.data as {
    integration?: string;
    block?: string;
    props?: Record<string, unknown>;
  };
  const pairs = Object.entries(props ?? {})
    .filter(([name]) => /^[\w-]+$/.test(name))
    .map(([name, value]) => ` ${name}="${attr(propText(value))}"`)
    .join('');
  return `{% @${integration ?? ''}/${block ?? ''}${pairs} %}`;
}
