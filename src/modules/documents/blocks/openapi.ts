import { html, type SafeHtml } from '../../../html/safe-html.js';
import { fileRefOf, type PageLinks } from '../links.js';
import { type Block, block, type Inline, paragraph, text, voidBlock } from '../model.js';
import {
  attrs,
  booleanAttr,
  defined,
  type HtmlContext,
  type MarkdownContext,
  pathOf,
  relativeTo,
} from './context.js';

/**
 * GitBook's API blocks:
 * - `{% swagger src="spec.yml" path="/a" method="post" %}…{% endswagger %}` and
 *   `{% openapi src=… path=… method=… %}…{% endopenapi %}` → `swagger` (the spec a file of the
 *   revision or a URL);
 * - `{% openapi-operation spec="slug" path="/a" method="get" %}` → `openapi-operation`;
 * - `{% openapi-schemas spec="slug" schemas="Pet,Tag" grouped="false" %}` → `openapi-schemas`;
 * - the legacy inline `{% swagger method path baseUrl summary %}` with its
 *   `{% swagger-description %}`, `{% swagger-parameter %}` and `{% swagger-response %}`, which
 *   0.202 cannot hold (its `swagger` needs a spec): its content as plain blocks, the method and
 *   path first, then the description, the parameters and the responses as lists.
 * No spec is fetched: the published site shows a card of the method and path.
 */
const PARTS = ['swagger-description', 'swagger-parameter', 'swagger-response'];

export function openapiOf(
  name: string,
  attributes: Record<string, string>,
  inner: Block[],
  links: PageLinks,
): Block[] | undefined {
  const method = (attributes.method ?? '').toLowerCase();
  const path = attributes.path ?? '';
  switch (name) {
    case 'swagger':
    case 'openapi': {
      if (attributes.src === undefined)
        return name === 'swagger' ? legacy(attributes, inner) : inner;
      const data = defined({
        ref: fileRefOf(attributes.src, links),
        path,
        method,
        expanded: booleanAttr(attributes.expanded),
        fullWidth: booleanAttr(attributes.fullWidth),
      });
      return [voidBlock('swagger', data)];
    }
    case 'openapi-operation':
      if (attributes.spec === undefined) return inner;
      return [
        voidBlock('openapi-operation', {
          ref: { kind: 'openapi', spec: attributes.spec },
          path,
          method,
        }),
      ];
    case 'openapi-schemas': {
      if (attributes.spec === undefined) return inner;
      const schemas = (attributes.schemas ?? '')
        .split(',')
        .map((schema) => schema.trim())
        .filter((schema) => schema !== '');
      const data = defined({
        ref: { kind: 'openapi', spec: attributes.spec },
        schemas,
        grouped: booleanAttr(attributes.grouped),
        title: attributes.title,
      });
      return [voidBlock('openapi-schemas', data)];
    }
    default:
      // The parts of a legacy block, for it to gather (alone elsewhere: their content).
      return PARTS.includes(name) ? [block(name, inner, { ...attributes })] : undefined;
  }
}

function legacy(attributes: Record<string, string>, inner: Block[]): Block[] {
  const method = (attributes.method ?? '').toUpperCase();
  const address = `${attributes.baseUrl ?? ''}${attributes.path ?? ''}`;
  const head: Inline[] = [text(method, ['bold', 'code']), text(' '), text(address, ['code'])];
  const out: Block[] = [paragraph(method === '' ? head.slice(2) : head)];
  if (attributes.summary !== undefined && attributes.summary !== '') {
    out.push(paragraph([text(attributes.summary, ['bold'])]));
  }
  const parameters: Block[] = [];
  const responses: Block[] = [];
  for (const node of inner) {
    if (node.type === 'swagger-description') out.push(...((node.nodes ?? []) as Block[]));
    else if (node.type === 'swagger-parameter') parameters.push(part(node, 'parameter'));
    else if (node.type === 'swagger-response') responses.push(part(node, 'response'));
    else out.push(node);
  }
  if (parameters.length > 0) {
    out.push(paragraph([text('Parameters', ['bold'])]), block('list-unordered', parameters));
  }
  if (responses.length > 0) {
    out.push(paragraph([text('Responses', ['bold'])]), block('list-unordered', responses));
  }
  return out;
}

/** A parameter (`name` (in, type, required)) or a response (`200` description) as a list item. */
function part(node: Block, kind: 'parameter' | 'response'): Block {
  const a = node.data as Record<string, string>;
  const facts =
    kind === 'parameter'
      ? [a.in, a.type, booleanAttr(a.required) === true ? 'required' : undefined]
      : [a.description];
  const shown = facts.filter((fact): fact is string => fact !== undefined && fact !== '');
  const label = kind === 'parameter' ? (a.name ?? '') : (a.status ?? '');
  const first = paragraph([
    text(label, ['code']),
    ...(shown.length === 0
      ? []
      : [text(kind === 'parameter' ? ` (${shown.join(', ')})` : ` ${shown.join(', ')}`)]),
  ]);
  const body = ((node.nodes ?? []) as Block[]).filter(
    (child) =>
      !(
        child.type === 'paragraph' &&
        child.nodes?.length === 1 &&
        (child.nodes[0] as { leaves?: { text: string }[] }).leaves?.[0]?.text === ''
      ),
  );
  return block('list-item', [first, ...body]);
}

const METHOD_CLASS = /^[a-z]+$/;

export function openapiHtml(node: Block, c: HtmlContext): SafeHtml {
  const data = node.data as Record<string, unknown>;
  if (node.type === 'openapi-schemas') {
    const spec = String((data.ref as { spec?: string } | undefined)?.spec ?? '');
    const schemas = Array.isArray(data.schemas) ? data.schemas.map(String) : [];
    const title = typeof data.title === 'string' ? data.title : undefined;
    return html`<div class="openapi-card openapi-schemas"><p class="openapi-title">${title ?? schemas.join(', ')}</p><p class="openapi-spec">${spec}</p></div>\n`;
  }
  const method = String(data.method ?? '').toLowerCase();
  const methodClass = METHOD_CLASS.test(method) ? html` method-${method}` : '';
  const op = html`<p class="openapi-operation"><span class="openapi-method${methodClass}">${method.toUpperCase()}</span> <code>${String(data.path ?? '')}</code></p>`;
  const ref = data.ref as { kind?: string; spec?: string; url?: string; file?: string } | undefined;
  let source: SafeHtml | '' = '';
  if (ref?.kind === 'openapi') source = html`<p class="openapi-spec">${ref.spec ?? ''}</p>`;
  else if (ref?.kind === 'url' || ref?.kind === 'file') {
    const href = c.href(ref as Parameters<HtmlContext['href']>[0]);
    const name =
      ref.kind === 'url' ? (ref.url ?? '') : (c.options.file?.(ref.file ?? '')?.name ?? 'OpenAPI');
    source =
      href === undefined
        ? html`<p class="openapi-spec">${name}</p>`
        : html`<p class="openapi-spec"><a href="${href}"${c.external(href)}>${name}</a></p>`;
  }
  return html`<div class="openapi-card">${op}${source}</div>\n`;
}

export function openapiMarkdown(node: Block, c: MarkdownContext): string {
  const data = node.data as Record<string, unknown>;
  const ref = data.ref as { kind?: string; spec?: string; url?: string; file?: string } | undefined;
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const bool = (value: unknown) => (typeof value === 'boolean' ? value : undefined);
  if (node.type === 'openapi-operation') {
    const open = attrs([
      ['spec', ref?.spec ?? ''],
      ['path', str(data.path) ?? ''],
      ['method', str(data.method) ?? ''],
    ]);
    return `{% openapi-operation${open} %}\n{% endopenapi-operation %}`;
  }
  if (node.type === 'openapi-schemas') {
    const schemas = Array.isArray(data.schemas) ? data.schemas.map(String).join(',') : '';
    const open = attrs([
      ['spec', ref?.spec ?? ''],
      ['schemas', schemas],
      ['grouped', bool(data.grouped)],
      ['title', str(data.title)],
    ]);
    return `{% openapi-schemas${open} %}\n{% endopenapi-schemas %}`;
  }
  let src = ref?.url ?? '';
  if (ref?.kind === 'file') {
    const path = pathOf(ref.file ?? '', c.links.files);
    src = path === undefined ? (ref.file ?? '') : relativeTo(c.links.file, path);
  }
  const open = attrs([
    ['src', src],
    ['path', str(data.path) ?? ''],
    ['method', str(data.method) ?? ''],
    ['expanded', bool(data.expanded)],
    ['fullWidth', bool(data.fullWidth)],
  ]);
  const label = src.replace(/([\\`*_[\]<>])/g, '\\$1');
  const target = /[\s<>()]/.test(src) || src === '' ? `<${src.replace(/([<>\\])/g, '\\$1')}>` : src;
  return `{% openapi${open} %}\n[${label}](${target})\n{% endopenapi %}`;
}
