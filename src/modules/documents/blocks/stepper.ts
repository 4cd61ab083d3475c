import { html, type SafeHtml } from '../../../html/safe-html.js';
import { type Block, block } from '../model.js';
import { groupItems, type HtmlContext, type MarkdownContext, orEmpty } from './context.js';

/**
 * `{% stepper %}{% step %}…{% endstep %}{% endstepper %}`: GitBook's `stepper` of
 * `stepper-step` blocks. On the published site, numbered steps (an ordered list, site.css).
 */
export function stepperOf(name: string, inner: Block[]): Block[] | undefined {
  if (name === 'step') return [block('stepper-step', orEmpty(inner))];
  if (name !== 'stepper') return undefined;
  const steps = groupItems(inner, 'stepper-step', (nodes) => block('stepper-step', nodes));
  return [{ ...block('stepper', steps), isVoid: false }];
}

export function stepperHtml(node: Block, c: HtmlContext): SafeHtml {
  const steps = (node.nodes ?? []).map(
    (step) => html`<li class="step">\n${c.blocks((step as Block).nodes)}</li>\n`,
  );
  return html`<ol class="stepper">\n${steps}</ol>\n`;
}

export function stepperMarkdown(node: Block, c: MarkdownContext): string {
  const steps = (node.nodes ?? []).map(
    (step) => `{% step %}\n${c.blocks((step as Block).nodes)}\n{% endstep %}`,
  );
  return `{% stepper %}\n${steps.join('\n\n')}\n{% endstepper %}`;
}
