/**
 * The one way Livery writes HTML (docs/published-site.md, "How HTML is written"): the `html`
 * tagged template. Its literal parts are the programmer's markup; every interpolated value is
 * escaped (escapeHtml) unless it is a SafeHtml, which only this module makes: from an `html`
 * template, a join of them, or one of the few audited exceptions at the end of this file. So a
 * text from settings or content cannot become markup by forgetting to escape it: forgetting is
 * the escaped case.
 *
 * What a template checks, once per call site (a template's literal parts are the same array on
 * every call, so the checks are cached and cost one map look-up per render):
 * - a value in `href="…"` or `src="…"` must be a SafeUrl (safe-url.ts `attrUrl`): no URL reaches
 *   an attribute a browser follows without passing the allow-list of schemes;
 * - no value in an event handler attribute (`on…="`), nor as an unquoted attribute value.
 */

/** Markup that may be written as is: made by `html`, `joinHtml` or the exceptions below. */
class Markup {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}
export type SafeHtml = Markup;

/** A URL that passed the allow-list of schemes (safe-url.ts); written escaped. */
class CheckedUrl {
  constructor(readonly url: string) {}
  toString(): string {
    return this.url;
  }
}
export type SafeUrl = CheckedUrl;

/** For safe-url.ts only, the allow-list's one home (`attrUrl`): nothing else may call it. */
export const checkedUrl = (url: string): SafeUrl => new CheckedUrl(url);

/** What a template interpolates; `false`, `null` and `undefined` write nothing. */
export type HtmlValue =
  | SafeHtml
  | SafeUrl
  | string
  | number
  | false
  | null
  | undefined
  | readonly HtmlValue[];

const SPECIAL = /[&<>"']/;

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  // Most texts (class names, addresses, titles) have none: they are returned as they are.
  if (!SPECIAL.test(text)) return text;
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const URL_ATTRIBUTE = /\s(?:href|src)="$/i;
const HANDLER_ATTRIBUTE = /\son[a-z]*="?$/i;
const UNQUOTED_VALUE = /=$/;

type Slot = 'text' | 'url';
const slotsOf = new WeakMap<TemplateStringsArray, readonly Slot[]>();

function slots(strings: TemplateStringsArray): readonly Slot[] {
  const known = slotsOf.get(strings);
  if (known !== undefined) return known;
  const found = strings.slice(0, -1).map((before): Slot => {
    if (HANDLER_ATTRIBUTE.test(before) || UNQUOTED_VALUE.test(before)) {
      throw new TypeError(`html: no value may go in an event handler or unquoted: ${before}`);
    }
    return URL_ATTRIBUTE.test(before) ? 'url' : 'text';
  });
  slotsOf.set(strings, found);
  return found;
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  const kinds = slots(strings);
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (kinds[i] === 'url' && !(value instanceof CheckedUrl)) {
      throw new TypeError(`html: an href or src takes a SafeUrl (attrUrl): ${strings[i]}`);
    }
    out += write(value) + (strings[i + 1] as string);
  }
  return new Markup(out);
}

function write(value: HtmlValue): string {
  if (typeof value === 'string') return escapeHtml(value);
  if (value instanceof Markup) return value.html;
  if (value === undefined || value === null || value === false) return '';
  if (typeof value === 'number') return String(value);
  if (value instanceof CheckedUrl) return escapeHtml(value.url);
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value) out += write(item);
    return out;
  }
  throw new TypeError(`html: cannot write ${typeof value}`);
}

/** Fragments one after another, `separator` between them. */
export function joinHtml(items: readonly SafeHtml[], separator: SafeHtml): SafeHtml {
  return new Markup(items.map((item) => item.html).join(separator.html));
}

// The audited exceptions: markup this module cannot see being made, each for one named source.
// A new one needs a reason as good as these; test/browser/published-hostile-strings.test.ts covers each.

/**
 * A highlighted code block from code-highlight.ts: made there from Shiki's tokens with `html`
 * templates, then kept as text in its cache and carried across the worker thread.
 */
export const highlightedCode = (block: string): SafeHtml => new Markup(block);

/**
 * A formula typeset by KaTeX (documents/blocks/math.ts `mathHtml`, with `trust` off): KaTeX
 * escapes the formula's text and attributes itself, and refuses links and raw HTML commands.
 */
export const katexMath = (markup: string): SafeHtml => new Markup(markup);

/**
 * CSS inside `<style>`: it cannot end the element, since `</` is written `<\/` (which CSS reads
 * the same in the places generated CSS may hold it: strings and escapes).
 */
export const styleElement = (css: string): SafeHtml =>
  new Markup(`<style>${css.replaceAll('</', '<\\/')}</style>`);

/**
 * A `data:image/svg+xml` URL of markup made here (an emoji favicon): the markup is
 * percent-encoded, so it is one URL of a known scheme.
 */
export const svgDataUrl = (svg: SafeHtml, encode: (text: string) => string): SafeUrl =>
  new CheckedUrl(`data:image/svg+xml,${encode(svg.html)}`);
