/**
 * The few pieces of HTML that GitBook's Git Sync Markdown writes (docs/content.md, "Page
 * documents"), read without an HTML parser: attributes of one tag, entities, and a flat list of
 * tags and text. Raw HTML stays off: these helpers only serve the dedicated rules of blocks/.
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** `&#x26;`, `&#38;`, `&amp;`, `&lt;` … decoded; anything else is left as written. */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** `&`, `<`, `>` and `"` as GitBook writes them in HTML attributes and text. */
export const encodeAttr = (value: string): string =>
  value
    .replaceAll('&', '&#x26;')
    .replaceAll('"', '&#x22;')
    .replaceAll('<', '&#x3C;')
    .replaceAll('>', '&#x3E;');

/**
 * A tag's attributes: `name="value"` or `name='value'` (decoded), bare `name` (''), names in
 * lowercase. Unquoted values are not read (`src=x`): GitBook always quotes.
 */
export function htmlAttributes(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const match of source.matchAll(/([a-zA-Z_:][\w:.-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'))?/g)) {
    const name = (match[1] ?? '').toLowerCase();
    if (attrs.has(name)) continue;
    attrs.set(name, decodeEntities(match[2] ?? match[3] ?? ''));
  }
  return attrs;
}

/** Whether every value in a tag's attributes is quoted, as GitBook writes them (`src=x` is not). */
export const quotedOnly = (source: string): boolean =>
  !/=\s*[^\s"']/.test(source.replace(/"[^"]*"|'[^']*'/g, '""'));

export interface HtmlPart {
  /** A tag's name in lowercase (`figure`, `/figure` for a closing one), or '' for text. */
  tag: string;
  attrs: Map<string, string>;
  /** The text (for '') or the tag as written. */
  raw: string;
}

/**
 * A tag; quoted values and names stop at `<` and `>`, so that each attempt reads at most to the
 * next bracket (a line of unclosed tags costs linear time).
 */
const PART =
  /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'))?)*)\s*\/?>/g;

/** A piece of HTML as its tags and the text between them, in one pass. */
export function htmlParts(source: string): HtmlPart[] {
  const parts: HtmlPart[] = [];
  let at = 0;
  for (const match of source.matchAll(PART)) {
    const index = match.index ?? 0;
    if (index > at) parts.push({ tag: '', attrs: new Map(), raw: source.slice(at, index) });
    parts.push({
      tag: `${match[1] ?? ''}${(match[2] ?? '').toLowerCase()}`,
      attrs: htmlAttributes(match[3] ?? ''),
      raw: match[0],
    });
    at = index + match[0].length;
  }
  if (at < source.length) parts.push({ tag: '', attrs: new Map(), raw: source.slice(at) });
  return parts;
}

/** The 0.202 colour tokens of text and background (`DocumentTextColor`). */
export const COLORS = [
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
] as const;
export type Color = (typeof COLORS)[number];

export const isColor = (value: string | undefined): value is Color =>
  value !== undefined && (COLORS as readonly string[]).includes(value);

/**
 * `color:orange;background-color:$primary;` as known colours; any other property or value is
 * dropped (a style attribute is never passed through).
 */
export function styleColors(style: string): { color?: Color; background?: Color } {
  const out: { color?: Color; background?: Color } = {};
  for (const declaration of style.split(';')) {
    const [property = '', value = ''] = declaration.split(':').map((s) => s.trim().toLowerCase());
    if (!isColor(value)) continue;
    if (property === 'color') out.color = value;
    else if (property === 'background-color' || property === 'background') out.background = value;
  }
  return out;
}
