import { isMap, isScalar, parseDocument } from 'yaml';
import { lineAt } from './gitbook-yaml.js';
import type { FormatWarning } from './paths.js';

export { titleOf } from './markdown.js';

/**
 * A page file's front matter (reference §3.2): the YAML block between a first line `---` and the
 * next line `---`, mapped onto the page's fields of GitBook's API. Keys of other generators
 * (`title`, `date`, `authors`…) are kept in `extra`, and the block's text in `raw`, so that an
 * export can write the file back as it was.
 */
export interface PageCover {
  /** `cover:` (a string) or `cover.light`: the image path or URL as written. */
  light?: string;
  dark?: string;
  /** `coverY`. */
  yPos?: number;
  /** `coverHeight` (API range 10–700). */
  height?: number;
}

export const LAYOUT_SWITCHES = [
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
  'tags',
  'actions',
  'anchors',
] as const;

/** RevisionPageLayoutOptions, each field present only when the front matter sets it. */
export type PageLayout = {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full' | 'background';
  coverMask?: 'none' | 'radial';
} & { [K in (typeof LAYOUT_SWITCHES)[number]]?: boolean };

export interface PageTag {
  tag: string;
  primary?: boolean;
}

export interface FrontMatter {
  description?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  cover?: PageCover;
  layout?: PageLayout;
  tags?: PageTag[];
  metaLinks?: { canonical?: string; alternates?: string[] };
  /** Page variables (`page.vars.x`). */
  vars?: Record<string, unknown>;
  /** `if:` — the page's adaptive-content condition. */
  condition?: string;
  /** Every other key, as parsed. */
  extra: Record<string, unknown>;
}

export interface PageSource {
  frontMatter: FrontMatter;
  /** The Markdown after the front matter. */
  body: string;
  /** The line of the file where `body` starts (1-based), for warnings about the body. */
  bodyLine: number;
  /** The front matter's YAML text as written, when there is a block. */
  raw?: string;
  warnings: FormatWarning[];
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

/**
 * Splits a page file. Invalid YAML, or a block that is not a mapping, gives a warning with the
 * file's line and a page without those fields (S1: GitBook imports it "without a title or
 * description"); a value of the wrong type is dropped with a warning naming its key and line.
 */
export function splitPage(text: string, file: string): PageSource {
  const opening = OPENING.exec(text);
  const rest = opening === null ? '' : text.slice(opening[0].length);
  const closing = opening === null ? null : CLOSING.exec(rest);
  if (opening === null || closing === null) {
    return { frontMatter: { extra: {} }, body: text, bodyLine: 1, warnings: [] };
  }
  const raw = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length);
  const bodyLine = lineAt(text, text.length - body.length) + (body === '' ? 1 : 0);
  const warnings: FormatWarning[] = [];
  // The block starts on the file's second line.
  const warn = (message: string, offset?: number) =>
    warnings.push({ file, line: offset === undefined ? 2 : lineAt(raw, offset) + 1, message });
  const frontMatter = mapFrontMatter(raw, warn);
  return { frontMatter, body, bodyLine, raw, warnings };
}

type Warn = (message: string, offset?: number) => void;

function mapFrontMatter(raw: string, warn: Warn): FrontMatter {
  const out: FrontMatter = { extra: {} };
  if (raw.trim() === '') return out;
  const doc = parseDocument(raw, { prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    warn(
      `invalid YAML front matter (${error.code}): the page is imported without it`,
      error.pos[0],
    );
    return out;
  }
  if (!isMap(doc.contents)) {
    warn('the front matter is not a YAML mapping: the page is imported without it');
    return out;
  }
  // Whole-document conversion, so that yaml's alias limit applies: a few lines of nested
  // aliases would otherwise expand into billions of values when the page is stored.
  let data: Record<string, unknown>;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch {
    warn(
      'the front matter expands into too much data (YAML aliases): the page is imported without it',
    );
    return out;
  }
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    const offset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    if (!assign(out, key, Object.hasOwn(data, key) ? data[key] : null)) {
      warn(`front matter \`${key}\` has a value Livery cannot use: ignored`, offset);
    }
  }
  return out;
}

/** Sets the field of one key; false when its value has the wrong type. */
function assign(out: FrontMatter, key: string, value: unknown): boolean {
  switch (key) {
    case 'description':
    case 'icon':
    case 'if': {
      if (typeof value !== 'string') return value === null;
      out[key === 'if' ? 'condition' : key] = value;
      return true;
    }
    case 'hidden':
    case 'noIndex':
    case 'noRobotsIndex':
      if (typeof value !== 'boolean') return false;
      out[key] = value;
      return true;
    case 'cover': {
      if (typeof value === 'string') out.cover = { ...out.cover, light: value };
      else if (isRecord(value) && stringsOnly(value, ['light', 'dark'])) {
        out.cover = { ...out.cover, ...(value as { light?: string; dark?: string }) };
      } else return value === null;
      return true;
    }
    case 'coverY':
    case 'coverHeight': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      if (key === 'coverHeight' && (value < 10 || value > 700)) return false;
      out.cover = { ...out.cover, [key === 'coverY' ? 'yPos' : 'height']: value };
      return true;
    }
    case 'layout':
      return layoutOf(out, value);
    case 'tags': {
      if (!Array.isArray(value)) return false;
      const tags = value.map(tagOf);
      if (tags.some((tag) => tag === undefined)) return false;
      out.tags = tags as PageTag[];
      return true;
    }
    case 'metaLinks': {
      if (!isRecord(value)) return false;
      const { canonical, alternates } = value;
      if (canonical !== undefined && typeof canonical !== 'string') return false;
      if (alternates !== undefined && !isStringArray(alternates)) return false;
      out.metaLinks = {
        ...(canonical === undefined ? {} : { canonical }),
        ...(alternates === undefined ? {} : { alternates }),
      };
      return true;
    }
    case 'vars':
      if (!isRecord(value)) return false;
      out.vars = value;
      return true;
    default:
      // An own member even for `__proto__`, which an assignment would make the prototype.
      Object.defineProperty(out.extra, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return true;
  }
}

function layoutOf(out: FrontMatter, value: unknown): boolean {
  if (!isRecord(value)) return false;
  const layout: PageLayout = {};
  const { width, cover } = value;
  if (width === 'default' || width === 'wide') layout.width = width;
  else if (width !== undefined) return false;
  if (cover !== undefined) {
    if (!isRecord(cover)) return false;
    const { visible, size, mask } = cover;
    if (typeof visible === 'boolean') layout.cover = visible;
    if (size === 'hero' || size === 'full' || size === 'background') layout.coverSize = size;
    if (mask === 'none' || mask === 'radial') layout.coverMask = mask;
  }
  for (const name of LAYOUT_SWITCHES) {
    const visible = (value[name] as { visible?: unknown } | undefined)?.visible;
    if (typeof visible === 'boolean') layout[name] = visible;
  }
  out.layout = layout;
  return true;
}

function tagOf(item: unknown): PageTag | undefined {
  if (typeof item === 'string') return { tag: item };
  if (!isRecord(item) || typeof item.tag !== 'string') return undefined;
  return typeof item.primary === 'boolean'
    ? { tag: item.tag, primary: item.primary }
    : { tag: item.tag };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const stringsOnly = (value: Record<string, unknown>, keys: string[]) =>
  Object.entries(value).every(([k, v]) => keys.includes(k) && typeof v === 'string');
