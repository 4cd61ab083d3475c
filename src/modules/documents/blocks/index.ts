import type { SafeHtml } from '../../../html/safe-html.js';
import type { PageLinks } from '../links.js';
import type { Block } from '../model.js';
import { columnsHtml, columnsMarkdown, columnsOf } from './columns.js';
import { conditionalHtml, conditionalMarkdown, conditionalOf } from './conditional.js';
import type { HtmlContext, MarkdownContext } from './context.js';
import { fileHtml, fileMarkdown, fileOf } from './file.js';
import { includeHtml, includeMarkdown, includeOf } from './include.js';
import { integrationHtml, integrationMarkdown, integrationOf } from './integration.js';
import { mathBlockMarkdown, mathHtml } from './math.js';
import { openapiHtml, openapiMarkdown, openapiOf } from './openapi.js';
import { promptHtml, promptMarkdown, promptOf } from './prompt.js';
import { stepperHtml, stepperMarkdown, stepperOf } from './stepper.js';
import { updatesHtml, updatesMarkdown, updatesOf } from './updates.js';

/**
 * The Liquid-tag blocks of GitBook's Git Sync Markdown, each in its own file here (parsing, the
 * published site's HTML, Markdown back); the shared converters call these three dispatchers.
 */
export type { HtmlContext, MarkdownContext } from './context.js';

/** Tags that never have an end tag: no search for one. */
export const isLoneTag = (name: string) =>
  name === 'include' || name === 'page-ref' || name.startsWith('@');

/** `{% name %}…{% endname %}` (inner already converted), or undefined when not one of these. */
export function tagBlockOf(
  name: string,
  attributes: Record<string, string>,
  source: string,
  inner: Block[],
  links: PageLinks,
): Block[] | undefined {
  switch (name) {
    case 'stepper':
    case 'step':
      return stepperOf(name, inner);
    case 'columns':
    case 'column':
      return columnsOf(name, attributes, inner);
    case 'file':
      return fileOf(attributes, inner, links);
    case 'if':
      return conditionalOf(source, inner);
    case 'prompt':
      return promptOf(attributes, inner);
    case 'updates':
    case 'update':
      return updatesOf(name, attributes, inner);
    case 'include':
      return [...includeOf(source, attributes, links), ...inner];
    default: {
      const integration = integrationOf(name, attributes);
      if (integration !== undefined) return [...integration, ...inner];
      return openapiOf(name, attributes, inner, links);
    }
  }
}

/** A tag without its end tag (`{% include "…" %}`, `{% file src %}`, `{% @x/y %}`). */
export function loneTagOf(
  name: string,
  attributes: Record<string, string>,
  source: string,
  links: PageLinks,
): Block[] | undefined {
  switch (name) {
    case 'include':
      return includeOf(source, attributes, links);
    case 'file':
      return fileOf(attributes, [], links);
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi':
      return openapiOf(name, attributes, [], links);
    case 'swagger':
      return attributes.src === undefined ? [] : openapiOf(name, attributes, [], links);
    default:
      return integrationOf(name, attributes);
  }
}

export function tagBlockHtml(node: Block, c: HtmlContext): SafeHtml | undefined {
  switch (node.type) {
    case 'stepper':
      return stepperHtml(node, c);
    case 'columns':
      return columnsHtml(node, c);
    case 'math':
      return mathHtml(String(node.data.formula ?? ''), true);
    case 'file':
      return fileHtml(node, c);
    case 'reusable-content':
      return includeHtml(node, c);
    case 'swagger':
    case 'openapi-operation':
    case 'openapi-schemas':
      return openapiHtml(node, c);
    case 'if':
      return conditionalHtml(node, c);
    case 'prompt':
      return promptHtml(node, c);
    case 'updates':
      return updatesHtml(node, c);
    case 'integration':
      return integrationHtml(node);
    default:
      return undefined;
  }
}

export function tagBlockMarkdown(node: Block, c: MarkdownContext): string | undefined {
  switch (node.type) {
    case 'stepper':
      return stepperMarkdown(node, c);
    case 'columns':
      return columnsMarkdown(node, c);
    case 'math':
      return mathBlockMarkdown(String(node.data.formula ?? ''));
    case 'file':
      return fileMarkdown(node, c);
    case 'reusable-content':
      return includeMarkdown(node, c);
    case 'swagger':
    case 'openapi-operation':
    case 'openapi-schemas':
      return openapiMarkdown(node, c);
    case 'if':
      return conditionalMarkdown(node, c);
    case 'prompt':
      return promptMarkdown(node, c);
    case 'updates':
      return updatesMarkdown(node, c);
    case 'integration':
      return integrationMarkdown(node);
    default:
      return undefined;
  }
}
